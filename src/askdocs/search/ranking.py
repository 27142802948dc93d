"""Re-ranking the distinct sections after fusion: changelogs last, few sections per page. Pure.

1. Changelog sections (``corpus.pagekind``) move below every guide section, keeping their
   order, unless the query asks about versions, releases, upgrades or what changed
   (``search.demote_changelogs``).
2. Page diversity (seed 003 "deduplicate by article before the limit"): at most
   ``search.max_per_page`` sections of one page stay in place; the page's further sections
   move behind every other candidate, in order, so they only fill a list that would
   otherwise be short. 0 turns the cap off.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from askdocs.corpus.pagekind import asks_about_versions
from askdocs.search.hits import Candidate

Shown = tuple[Candidate, float | None]


def demote_changelogs(shown: Sequence[Shown], query: str) -> list[Shown]:
    """Guides first, then changelog sections; unchanged for a query about versions."""
    if asks_about_versions(query):
        return list(shown)
    guides = [entry for entry in shown if entry[0].chunk.kind != "changelog"]
    changelogs = [entry for entry in shown if entry[0].chunk.kind == "changelog"]
    return guides + changelogs


def cap_per_page(shown: Sequence[Shown], per_page: int) -> list[Shown]:
    """At most ``per_page`` sections of one page in place, the rest moved to the end."""
    if per_page <= 0:
        return list(shown)
    counts: Counter[tuple[str, str]] = Counter()
    kept: list[Shown] = []
    moved: list[Shown] = []
    for entry in shown:
        chunk = entry[0].chunk
        page = (chunk.site, chunk.slug)  # locale variants are one page
        counts[page] += 1
        (kept if counts[page] <= per_page else moved).append(entry)
    return kept + moved


def rerank(shown: Sequence[Shown], query: str, *, demote: bool, per_page: int) -> list[Shown]:
    ordered = demote_changelogs(shown, query) if demote else list(shown)
    return cap_per_page(ordered, per_page)
