"""The docs-gaps report's "Draft a page": the ``WritePage`` arguments for a new page that
would answer a no-match group (pure).

Visitors' questions are summarised, never copied: the page's title, heading, file name and
text name the group's most shared words (each spelled as first asked) and how often it
was asked, so nothing a visitor typed (an address, a name, YAML or Markdown syntax) lands in
the page's front matter or body; the wordings stay in the report, for administrators.
With a ``DraftScope`` (the organisation chosen in the admin page) the draft targets the
group's first site of that organisation and names it, so an administrator of several
organisations is not asked which one (issue #27, defect 10); a group asked only on other
sites gets no draft.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from askdocs.answer.citations import STOPWORDS

TOPIC_WORDS = 4
_WORD = re.compile(r"[^\W_]{3,40}")


@dataclass(frozen=True)
class DraftScope:
    """Drafts for one organisation: its id and its sites."""

    organisation_id: str
    site_ids: frozenset[str]


def topic_words(questions: Sequence[str], limit: int = TOPIC_WORDS) -> list[str]:
    """The words at least half the questions share (stop words, digits and short words
    aside), most shared first, then in order of appearance; each spelled as it was first
    written."""
    spelled: dict[str, str] = {}
    shared: Counter[str] = Counter()
    for question in questions:
        seen = set()
        for word in _WORD.findall(question):
            key = word.casefold()
            if key in STOPWORDS or key.isdigit() or key in seen:
                continue
            seen.add(key)
            spelled.setdefault(key, word)
            shared[key] += 1
    order = {key: n for n, key in enumerate(spelled)}
    enough = (len(questions) + 1) // 2
    kept = [key for key in spelled if shared[key] >= enough]
    ranked = sorted(kept, key=lambda key: (-shared[key], order[key]))
    return [spelled[key] for key in ranked[:limit]]


def draft_page(
    questions: Sequence[str], count: int, sites: Sequence[str], scope: DraftScope | None
) -> dict[str, str] | None:
    """``WritePage`` arguments for a draft page about ``questions`` (asked ``count`` times
    on ``sites``), or None when no site of the scope's organisation is among them."""
    site = _site(sites, scope)
    if site is None:
        return None
    words = topic_words(questions) or ["question"]
    topic = " ".join(words)
    title = topic[:1].upper() + topic[1:]
    name = "-".join(word.casefold() for word in words)
    times = "once" if count == 1 else f"{count} times"
    content = (
        f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\n---\n\n# {title}\n\n"
        f"Readers asked Ask AI about {_listed(words)} {times}, and the documentation had no "
        "answer. Write the answer here; the readers' own wordings are in the docs-gaps "
        "report.\n"
    )
    draft = {"siteId": site, "path": f"drafts/{name}.md", "content": content}
    if scope is not None:
        draft["organisationId"] = scope.organisation_id
    return draft


def _site(sites: Sequence[str], scope: DraftScope | None) -> str | None:
    if scope is None:
        return sites[0] if sites else ""
    return next((site for site in sites if site in scope.site_ids), None)


def _listed(words: Sequence[str]) -> str:
    quoted = [f"*{word}*" for word in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
