"""Re-ranking the distinct sections after fusion: changelogs last, few sections per page. Pure.

1. Changelog sections (``corpus.pagekind``) move below every guide section, keeping their
   order, unless the query asks about versions, releases, upgrades or what changed
   (``search.demote_changelogs``).
2. Page diversity (seed 003 "deduplicate by article before the limit"): at most
   ``search.max_per_page`` sections of one page stay in place; the page's further sections
   move behind every other candidate, in order, so they only fill a list that would
   otherwise be short. 0 turns the cap off.
3. A clear dense winner leads (``clear_winner_first``): when the section with the best
   cosine beats every other candidate section by at least ``search.dense_margin``, it moves
   to the top. Rank fusion only sees positions, so a lexical first place could push a
   section the embedding model clearly prefers down to second or third. Applied to natural
   questions only (keyword-like queries lean on exact words) and before the introduction
   rule. Measured on the three development sets (docs/search.md): any margin from 0.04 to
   0.12 leaves every set's hit@5 and MRR@10 as they were or raises them; 0.08 took macro
   MRR@10 from 0.717 to 0.725 (fastapi and httpx one question each to rank 1).

Whatever moved (these rules or the introduction rule), the scores are re-dealt best first
down the final order (``ordered_scores``), so a hit's score never rises down the list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

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


def clear_winner_first(shown: Sequence[Shown], margin: float) -> list[Shown]:
    """The section with the best cosine first when it leads the next best section by at
    least ``margin``; unchanged when ``margin`` is 0 or fewer than two sections have one."""
    cosines = [(cosine, index) for index, (_, cosine) in enumerate(shown) if cosine is not None]
    if margin <= 0 or len(cosines) < 2:
        return list(shown)
    (best, first), (second, _) = sorted(cosines, key=lambda pair: (-pair[0], pair[1]))[:2]
    if best - second < margin or first == 0:
        return list(shown)
    return [shown[first], *shown[:first], *shown[first + 1 :]]


def ordered_scores(shown: Sequence[Shown]) -> list[Shown]:
    """``shown`` with the scores re-dealt best first: after a section moves up, the scores
    still fall down the list (a score is a ranking value, docs/search.md)."""
    scores = sorted((candidate.score for candidate, _ in shown), reverse=True)
    return [
        (replace(candidate, score=score), cosine)
        for (candidate, cosine), score in zip(shown, scores, strict=True)
    ]


def rerank(shown: Sequence[Shown], query: str, *, demote: bool, per_page: int) -> list[Shown]:
    ordered = demote_changelogs(shown, query) if demote else list(shown)
    return ordered_scores(cap_per_page(ordered, per_page))
