"""The per-section floor: which hits may reach a model (seed 001 drops every point under the
threshold; seed 000 injects the top sections above ``InjectMinScore``). Pure.

The match decision looks at the best hits only; it says whether to answer at all. What a
model then reads is every hit that clears the floor on its own:

* hybrid mode: the section's best query cosine reaches the floor (Ask AI: the calibrated
  match threshold of the model; the assistant: ``inject_min_score``), or, for a
  keyword-like query (identifiers, or at most three words, on which MiniLM's cosines are
  low), the section holds every term of the query;
* keyword-only mode (no cosines): the section holds at least ``KEYWORD_MATCH_RATIO`` of the
  query's terms.
"""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.search.query import is_keyword_query
from askdocs.search.threshold import KEYWORD_MATCH_RATIO, term_overlap
from askdocs.types import Hit


def clears(hit: Hit, floor: float | None, query: str, locale: str = "en") -> bool:
    """Whether one hit clears the floor for ``query`` (the searched text)."""
    if floor is not None and hit.cosine is not None:
        if hit.cosine >= floor:
            return True
        return is_keyword_query(query) and _overlap(query, hit, locale) >= 1.0
    return _overlap(query, hit, locale) >= KEYWORD_MATCH_RATIO


def above_floor(
    hits: Sequence[Hit], floor: float | None, query: str, locale: str = "en"
) -> list[Hit]:
    """``hits`` (best first) without those under the floor."""
    return [hit for hit in hits if clears(hit, floor, query, locale)]


def _overlap(query: str, hit: Hit, locale: str) -> float:
    return term_overlap(query, f"{hit.title}\n{hit.heading}\n{hit.text}", locale)
