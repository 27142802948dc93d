"""The shown sections' cosines without fetching every candidate's vector. Pure.

The store gives a hit its cosine from the dense side's own ranking (its ``prefetch`` best,
ids and scores only, ``IndexStore.query``); a hit only the BM25 side found has none, and its
cosine is below every scored one of the same search. So a section's best cosine is already
exact when one of its chunks has a score and the question was searched once. The sections
shown that have no scored chunk, or, for a follow-up searched twice (``search.followup``),
an unscored chunk in either search, need their chunks' vectors (``IndexStore.with_cosines``):
a few sections, not the forty candidates.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from askdocs.index import QueryResult, ScoredChunk
from askdocs.search.hits import Candidate, section_key

Shown = tuple[Candidate, float | None]
Key = tuple[str, str, str]


def needing(shown: Sequence[Shown], results: Sequence[QueryResult]) -> set[Key]:
    """The sections of ``shown`` whose best cosine is not yet exact."""
    unscored = {
        section_key(hit.chunk)
        for result in results
        for hit in result.hits
        if hit.dense_score is None
    }
    twice = len(results) > 1
    return {
        key
        for candidate, cosine in shown
        if (key := section_key(candidate.chunk)) in unscored and (cosine is None or twice)
    }


def of_sections(results: Sequence[QueryResult], keys: set[Key]) -> list[ScoredChunk]:
    """The chunks of ``keys`` in one search's hits."""
    return [hit for result in results for hit in result.hits if section_key(hit.chunk) in keys]


def with_best(shown: Sequence[Shown], filled: Iterable[ScoredChunk], keys: set[Key]) -> list[Shown]:
    """``shown`` with the sections of ``keys`` given the best cosine among ``filled``."""
    best: dict[Key, float] = {}
    for hit in filled:
        key = section_key(hit.chunk)
        if key in keys and hit.dense_score is not None:
            best[key] = max(best.get(key, hit.dense_score), hit.dense_score)
    return [
        (candidate, best.get(section_key(candidate.chunk), cosine)) for candidate, cosine in shown
    ]
