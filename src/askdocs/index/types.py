"""Value types of the index: what goes into the vector store and what comes back. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from askdocs.types import Chunk
from askdocs.types import SparseVector as SparseVector  # a core type: the parse worker uses it


@dataclass(frozen=True)
class QueryFilter:
    """Which points a query may return. ``None`` means "any"."""

    site: str | None = None
    locales: tuple[str, ...] | None = None
    audience: str | None = None
    exclude_kind: str | None = None  # leave out points of this page kind ("changelog")
    group: str | None = None  # only points of pages in this group (corpus.groups)

    FIELDS = ("site", "locale", "audience", "kind", "group")  # the payload fields it reads

    def admits(self, payload: Mapping[str, Any]) -> bool:
        """Whether a point with this payload (at least ``FIELDS``) passes the filter, as
        the engine decides it (a payload without ``kind`` is a guide's)."""
        return (
            (self.site is None or payload.get("site") == self.site)
            and (self.locales is None or payload.get("locale") in self.locales)
            and (self.audience is None or payload.get("audience") == self.audience)
            and (self.exclude_kind is None or payload.get("kind") != self.exclude_kind)
            and (self.group is None or payload.get("group") == self.group)
        )


@dataclass(frozen=True)
class HybridParams:
    """How the two rankings are fused: weighted reciprocal rank fusion with constant ``k``.

    ``prefetch`` is how many candidates each side (dense, lexical) contributes.
    """

    prefetch: int = 50
    dense_weight: float = 1.0
    lexical_weight: float = 1.0
    rrf_k: int = 60


@dataclass(frozen=True)
class ScoredChunk:
    """One hit. ``score`` ranks hits (fused RRF value, or the single side's own score when
    only one side ran); ``dense_score`` is the cosine similarity to the query when the
    point has a dense vector and a query vector was given, else ``None``."""

    chunk: Chunk
    score: float
    dense_score: float | None


@dataclass(frozen=True)
class QueryResult:
    """Hits best first, plus the best cosine similarity anywhere in the filtered collection
    (the top of the dense side, whether or not it made the fused list)."""

    collection: str
    hits: tuple[ScoredChunk, ...]
    best_dense: float | None
    mode: str  # "hybrid", "dense" or "keyword": which sides actually ran


@dataclass(frozen=True)
class CollectionInfo:
    """A complete collection: the one searches read."""

    name: str
    model_id: str
    dimension: int | None  # None: keyword-only collection (embedding provider "none")
    points: int
    dense_points: int  # points holding a dense vector (coverage = dense_points / points)
    sites: tuple[str, ...]
    site_points: tuple[tuple[str, int], ...] = ()

    def points_of(self, site: str) -> int:
        return dict(self.site_points).get(site, 0)

    @property
    def coverage(self) -> float:
        return self.dense_points / self.points if self.points else 0.0


@dataclass(frozen=True)
class BuildResult:
    """What one ``build_index`` run did for one site."""

    collection: str
    site: str
    chunks: int  # chunks of this site now in the collection
    points: int  # points in the collection, every site
    embedded: int  # chunks embedded this run
    reused: int  # vectors reused from the previous collection by embed hash
    seconds: float
    unchanged: bool  # the current collection already matched: nothing was written
