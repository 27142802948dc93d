"""Follow-up questions searched twice: joined with the previous question and alone. Pure.

Joining a follow-up with the previous question finds the sections that need the earlier
context ("can I set it once for everything the client sends instead?"); the follow-up alone
keeps the sections its own words name best ("the login cookie still isn't accepted"). The
two rankings are fused by reciprocal rank (``FUSE_K``), each chunk keeping its best cosine,
so a section either search puts near the top stays there (docs/search.md, "Follow-up
questions").
"""

from __future__ import annotations

from dataclasses import replace

from askdocs.index import QueryResult, ScoredChunk

FUSE_K = 10


def fuse_followup(joined: QueryResult, alone: QueryResult, k: int = FUSE_K) -> QueryResult:
    """One ranking from both searches: sum of ``1 / (k + rank)``, best cosine per chunk."""
    scores: dict[str, float] = {}
    best: dict[str, ScoredChunk] = {}
    for result in (joined, alone):
        for rank, hit in enumerate(result.hits, start=1):
            key = hit.chunk.id + "\0" + hit.chunk.site
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
            best[key] = _better(best.get(key), hit)
    order = sorted(scores, key=lambda key: scores[key], reverse=True)
    hits = tuple(replace(best[key], score=scores[key]) for key in order)
    return replace(joined, hits=hits, best_dense=_max(joined.best_dense, alone.best_dense))


def _better(old: ScoredChunk | None, new: ScoredChunk) -> ScoredChunk:
    if old is None:
        return new
    return new if (new.dense_score or -2.0) > (old.dense_score or -2.0) else old


def _max(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    return a if b is None else max(a, b)
