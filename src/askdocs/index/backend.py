"""The small protocol both vector stores implement, and the records that cross it.

``EdgeBackend`` (Qdrant Edge shards on disk, the embedded default) and ``QdrantBackend``
(a Qdrant server through ``qdrant-client``) hold the same schema: named dense vector
``dense`` (cosine) when the model has one, sparse vector ``bm25`` with the IDF modifier,
the chunk payload, and keyword payload indexes on site, locale and audience.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from askdocs.errors import VectorStoreError
from askdocs.index.types import HybridParams, QueryFilter, SparseVector
from askdocs.settings import Quantization

DENSE = "dense"
SPARSE = "bm25"
# Scalar quantization (``index.quantization = "int8"``), the same on both engines: each
# dense component in int8 over the range of its 0.99 quantile, kept in memory; the float32
# originals stay on disk and rescore OVERSAMPLING x limit int8 candidates per search.
QUANTILE = 0.99
OVERSAMPLING = 2.0
# Segments are indexed (HNSW graph, int8 copy, compact files) from this size of vectors on:
# every segment of a collection, so small collections search as large ones do.
INDEXING_THRESHOLD_KB = 1
FloatArray = npt.NDArray[np.float32]
TermIds = npt.NDArray[np.uint32]


class CollectionGone(VectorStoreError):
    """The collection was closed or removed under a reader (the store retries once)."""


@dataclass(frozen=True)
class PointRecord:
    """One point to write."""

    id: str
    payload: Mapping[str, Any]
    sparse: SparseVector
    dense: FloatArray | None


@dataclass(frozen=True)
class StoredPoint:
    """One point read back by a scroll."""

    id: str
    payload: Mapping[str, Any]
    sparse: SparseVector | None
    dense: FloatArray | None


def stored_point(
    point_id: object,
    payload: Mapping[str, Any] | None,
    dense: Any,
    sparse: tuple[Sequence[int], Sequence[float]] | None,
) -> StoredPoint:
    """A ``StoredPoint`` from the parts either backend's record type holds (``dense``: the
    stored dense vector as a list of floats, or None)."""
    return StoredPoint(
        id=str(point_id),
        payload=payload or {},
        sparse=SparseVector(tuple(sparse[0]), tuple(sparse[1])) if sparse is not None else None,
        dense=np.asarray(dense, dtype=np.float32) if dense is not None else None,
    )


@dataclass(frozen=True)
class QuerySpec:
    dense: FloatArray | None  # L2-normalised query vector
    sparse: SparseVector | None
    filter: QueryFilter
    limit: int
    params: HybridParams
    # False: ids and scores only; field names: only those fields (existence probes)
    with_payload: bool | tuple[str, ...] = True


def sorted_term_ids(pages: Iterable[Sequence[int]]) -> TermIds:
    """The distinct ids of several pages of sparse-vector indices, sorted."""
    arrays = [np.asarray(page, dtype=np.uint32) for page in pages if len(page)]
    if not arrays:
        return np.zeros(0, dtype=np.uint32)
    return np.unique(np.concatenate(arrays))


def payload_fields(spec: QuerySpec) -> bool | list[str]:
    """``with_payload`` as both engines take it: all, nothing, or the named fields."""
    wanted = spec.with_payload
    return wanted if isinstance(wanted, bool) else list(wanted)


@dataclass(frozen=True)
class RawHit:
    """One hit. ``cosine``: its cosine similarity to the query vector when the point is
    among the dense side's ``prefetch`` best (taken from that ranking's scores, so no
    vector crosses the engine boundary); None otherwise, or without a query vector."""

    id: str
    payload: Mapping[str, Any]
    score: float
    cosine: float | None


@dataclass(frozen=True)
class RawResult:
    hits: list[RawHit]
    best_dense: float | None


@dataclass(frozen=True)
class Manifest:
    """What a complete collection holds. Written only after the point count was verified;
    its presence is what makes a collection complete."""

    name: str
    model_id: str
    dimension: int | None
    points: int
    dense_points: int
    lexical_version: str
    site_hashes: Mapping[str, str] = field(default_factory=dict)
    site_points: Mapping[str, int] = field(default_factory=dict)
    run: str = ""
    created: float = 0.0

    def to_json(self) -> str:
        body = {
            "name": self.name,
            "model_id": self.model_id,
            "dimension": self.dimension,
            "points": self.points,
            "dense_points": self.dense_points,
            "lexical_version": self.lexical_version,
            "site_hashes": dict(self.site_hashes),
            "site_points": dict(self.site_points),
            "run": self.run,
            "created": self.created,
        }
        return json.dumps(body, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        data = json.loads(text)
        return cls(
            name=str(data["name"]),
            model_id=str(data["model_id"]),
            dimension=None if data["dimension"] is None else int(data["dimension"]),
            points=int(data["points"]),
            dense_points=int(data["dense_points"]),
            lexical_version=str(data["lexical_version"]),
            site_hashes={str(k): str(v) for k, v in data["site_hashes"].items()},
            site_points={str(k): int(v) for k, v in data["site_points"].items()},
            run=str(data.get("run", "")),
            created=float(data.get("created", 0.0)),
        )


class Backend(Protocol):
    """Storage operations the store and the builder need. Every failure of the underlying
    engine surfaces as ``VectorStoreError``."""

    def build_lock(self) -> AbstractContextManager[None]:
        """Exclusive for the whole of one build (one writer per store)."""
        ...

    def try_build_lock(self) -> AbstractContextManager[bool]:
        """Like ``build_lock`` without waiting; yields whether it was acquired."""
        ...

    def collections(self) -> list[str]:
        """Every askdocs collection present, complete or not."""
        ...

    def pointers(self) -> dict[str, str]:
        """Model key -> name of its current collection."""
        ...

    def set_pointer(self, model_key: str, name: str) -> None:
        """Atomically make ``name`` the current collection of ``model_key``."""
        ...

    def drop_pointer(self, model_key: str) -> None:
        """Forget ``model_key``'s current collection (a model no longer configured)."""
        ...

    def manifest(self, name: str) -> Manifest | None:
        """The manifest of a complete collection; None when missing or partial."""
        ...

    can_derive: bool
    """Whether ``derive`` is cheap (a file copy) rather than a full rewrite."""

    quantization: Quantization
    """How the collections it creates store dense vectors (``index.quantization``)."""

    def create(self, name: str, dimension: int | None) -> None:
        """Create an empty collection (removing a partial one of the same name)."""
        ...

    def derive(self, source: str, name: str, dimension: int | None) -> None:
        """Create ``name`` as a copy of the complete collection ``source``, open for writing
        (only where ``can_derive``)."""
        ...

    def delete(self, name: str, ids: Sequence[str]) -> None: ...

    def dense_vectors(self, name: str, ids: Sequence[str]) -> dict[str, FloatArray]:
        """The stored dense vectors of ``ids`` (those that have one)."""
        ...

    def upsert(self, name: str, points: Sequence[PointRecord]) -> None: ...

    def count(self, name: str, *, dense_only: bool = False) -> int: ...

    def seal(self, name: str, manifest: Manifest) -> None:
        """Finish writing (optimise, flush to disk) and record the manifest."""
        ...

    def scroll(self, name: str, *, vectors: bool) -> Iterator[StoredPoint]: ...

    def term_ids(self, name: str, filter: QueryFilter) -> TermIds:
        """Every BM25 term id some point under ``filter`` holds, sorted, each once."""
        ...

    def query(self, name: str, spec: QuerySpec) -> RawResult: ...

    def query_batch(self, name: str, specs: Sequence[QuerySpec]) -> list[RawResult]:
        """Several queries in one engine call; results in the order of ``specs``."""
        ...

    def drop(self, name: str) -> bool:
        """Delete a collection; False when a reader still holds it (retried later)."""
        ...

    def release(self, keep: set[str]) -> None:
        """Close open collections not in ``keep`` (readers switching to a new current)."""
        ...

    def close(self) -> None: ...
