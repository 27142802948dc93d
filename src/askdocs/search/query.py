"""What gets searched for a question: the follow-up rule and the query texts. Pure.

The follow-up rule (docs/search.md, "Follow-up questions"): a question asked after earlier
ones is searched together with the previous user question, the question first
(``search.followup_join = "always"``). Measured on the 12 follow-up questions of the three
development sets, searching them alone put a labelled section in the top 5 for 7, the seed
001 rule (join only questions of fewer than five words) for 7 as well, and joining every
follow-up for 11. ``"short"`` keeps the seed's rule (``search.followup_min_words``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

MAX_QUERY_CHARS = 2000
"""The one query bound (seed 000): longer text is cut before it is embedded or tokenised;
request surfaces (``GET /api/search``, the MCP tools) refuse longer queries outright."""


def bounded_query(text: str) -> str:
    return text[:MAX_QUERY_CHARS]


# Identifier-like text: snake_case, camelCase, dotted names, --flags, calls, key=value.
_IDENTIFIER = re.compile(r"\w_\w|[a-z][A-Z]|\w\.\w|(?:^|\s)--?\w|\w\(|\w=")
FollowupJoin = Literal["always", "short"]


@dataclass(frozen=True)
class SearchQuery:
    """The text searched for one question, for the dense and the lexical side."""

    text: str
    followup: bool  # True when the previous question was joined in


def is_short(question: str, min_words: int) -> bool:
    return len(question.split()) < min_words


def search_text(
    question: str,
    history: Sequence[str],
    min_words: int = 5,
    join: FollowupJoin = "always",
) -> SearchQuery:
    """The question, followed by the previous user question when there is one (``always``),
    or only when the question has fewer than ``min_words`` words (``short``, seed 001:
    "and in Vite?")."""
    question = " ".join(question.split())
    previous = next((h for h in reversed(history) if h.strip()), None)
    if previous is None or (join == "short" and not is_short(question, min_words)):
        return SearchQuery(text=bounded_query(question), followup=False)
    joined = f"{question} {' '.join(previous.split())}"
    return SearchQuery(text=bounded_query(joined), followup=True)


def is_keyword_query(text: str, max_words: int = 3) -> bool:
    """Short queries and queries holding identifiers lean on exact words."""
    return len(text.split()) <= max_words or bool(_IDENTIFIER.search(text))


QueryKind = Literal["natural", "keyword", "mixed"]


def query_kind(text: str, max_words: int = 3) -> QueryKind:
    """Which fusion a query gets (docs/search.md, "Fusion"): ``keyword`` for at most
    ``max_words`` words, ``mixed`` for a longer question that names an identifier
    (``excludedIPs``, ``httpx.Client``, ``--flag``), else ``natural``. A mixed query is
    still keyword-like (``is_keyword_query``) for the match rule and the clear-winner rule."""
    if len(text.split()) <= max_words:
        return "keyword"
    return "mixed" if _IDENTIFIER.search(text) else "natural"
