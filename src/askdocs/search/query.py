"""What gets searched for a question: the follow-up rule and the query texts. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MAX_QUERY_CHARS = 2000
"""The one query bound (seed 000): longer text is cut before it is embedded or tokenised;
request surfaces (``GET /api/search``, the MCP tools) refuse longer queries outright."""


def bounded_query(text: str) -> str:
    return text[:MAX_QUERY_CHARS]


@dataclass(frozen=True)
class SearchQuery:
    """The text searched for one question, for the dense and the lexical side."""

    text: str
    followup: bool  # True when the previous question was joined in


def is_short(question: str, min_words: int) -> bool:
    return len(question.split()) < min_words


def search_text(question: str, history: Sequence[str], min_words: int = 5) -> SearchQuery:
    """Seed 001: a question of fewer than ``min_words`` words is joined with the previous
    user question, so "and in Vite?" searches "How do I set up X? and in Vite?"."""
    question = " ".join(question.split())
    previous = next((h for h in reversed(history) if h.strip()), None)
    if previous is not None and is_short(question, min_words):
        joined = f"{' '.join(previous.split())} {question}"
        return SearchQuery(text=joined[:MAX_QUERY_CHARS], followup=True)
    return SearchQuery(text=question[:MAX_QUERY_CHARS], followup=False)
