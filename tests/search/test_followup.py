"""Fusing a follow-up's joined search with the follow-up searched alone."""

from __future__ import annotations

from askdocs.index import QueryResult, ScoredChunk
from askdocs.search.followup import fuse_followup
from tests.search.test_hits import chunk


def result(*entries: tuple[str, float | None]) -> QueryResult:
    hits = tuple(ScoredChunk(chunk(name), 1.0, cosine) for name, cosine in entries)
    best = max((c for _, c in entries if c is not None), default=None)
    return QueryResult(collection="c", hits=hits, best_dense=best, mode="hybrid")


def test_sections_high_in_either_search_stay_high() -> None:
    joined = result(("A", 0.6), ("B", 0.5), ("C", 0.4))
    alone = result(("C", 0.7), ("D", 0.3), ("A", 0.2))
    fused = fuse_followup(joined, alone)
    assert [h.chunk.heading for h in fused.hits] == ["A", "C", "B", "D"]
    assert {h.chunk.heading: h.dense_score for h in fused.hits}["C"] == 0.7
    assert fused.best_dense == 0.7
    assert fused.collection == "c"
