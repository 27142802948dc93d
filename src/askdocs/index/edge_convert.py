"""Conversions between askdocs records and ``qdrant_edge`` objects. Pure (no shard calls)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import qdrant_edge as qe

from askdocs.index.backend import (
    DENSE,
    INDEXING_THRESHOLD_KB,
    OVERSAMPLING,
    QUANTILE,
    SPARSE,
    PointRecord,
    QuerySpec,
    RawHit,
    RawResult,
    StoredPoint,
    payload_fields,
    stored_point,
)
from askdocs.index.payload import INDEXED_FIELDS
from askdocs.index.types import QueryFilter, SparseVector
from askdocs.settings import Quantization


def config(dimension: int | None, quantization: Quantization) -> qe.EdgeConfig:
    """The shard's schema. With int8 quantization the float32 originals are ``Cold``
    (mapped, read only where a search rescores), the int8 copies ``Pinned`` in memory."""
    dense = {DENSE: _dense(dimension, quantization)} if dimension else None
    sparse = {SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)}
    optimizers = qe.EdgeOptimizersConfig(indexing_threshold=INDEXING_THRESHOLD_KB)
    return qe.EdgeConfig(
        vectors=dense, sparse_vectors=sparse, optimizers=optimizers, wal_enabled=False
    )


def _dense(dimension: int, quantization: Quantization) -> qe.EdgeVectorParams:
    if quantization == "none":
        return qe.EdgeVectorParams(size=dimension, distance=qe.Distance.Cosine)
    int8 = qe.ScalarQuantizationConfig(qe.ScalarType.Int8, QUANTILE, memory=qe.Memory.Pinned)
    return qe.EdgeVectorParams(
        size=dimension,
        distance=qe.Distance.Cosine,
        quantization_config=int8,
        memory=qe.Memory.Cold,
    )


# Where a collection has int8 copies, candidates come from them and are rescored with the
# float32 originals; elsewhere the engine ignores this.
RESCORED = qe.SearchParams(
    quantization=qe.QuantizationSearchParams(rescore=True, oversampling=OVERSAMPLING)
)


def payload_indexes() -> list[qe.UpdateOperation]:
    return [
        qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword)
        for name in INDEXED_FIELDS
    ]


def sparse(vector: SparseVector) -> qe.SparseVector:
    return qe.SparseVector(list(vector.indices), list(vector.values))


def points(records: Sequence[PointRecord]) -> list[qe.Point]:
    converted: list[qe.Point] = []
    for record in records:
        vectors: dict[str, Any] = {SPARSE: sparse(record.sparse)}
        if record.dense is not None:
            vectors[DENSE] = record.dense.tolist()
        converted.append(qe.Point(record.id, vectors, dict(record.payload)))
    return converted


def stored(record: qe.Record) -> StoredPoint:
    vectors = record.vector if isinstance(record.vector, dict) else {}
    bm25 = vectors.get(SPARSE)
    sparse = (bm25.indices, bm25.values) if isinstance(bm25, qe.SparseVector) else None
    return stored_point(record.id, record.payload, vectors.get(DENSE), sparse)


def sparse_indices(record: qe.Record) -> list[int]:
    """The term ids of a record read with its sparse vector only."""
    vectors = record.vector if isinstance(record.vector, dict) else {}
    bm25 = vectors.get(SPARSE)
    return list(bm25.indices) if isinstance(bm25, qe.SparseVector) else []


def has_dense() -> qe.Filter:
    return qe.Filter(must=[qe.HasVectorCondition(DENSE)])


def to_filter(wanted: QueryFilter) -> qe.Filter | None:
    must: list[Any] = []
    if wanted.site is not None:
        must.append(qe.FieldCondition("site", match=qe.MatchValue(wanted.site)))
    if wanted.locales is not None:
        must.append(qe.FieldCondition("locale", match=qe.MatchAny(list(wanted.locales))))
    if wanted.audience is not None:
        must.append(qe.FieldCondition("audience", match=qe.MatchValue(wanted.audience)))
    if wanted.group is not None:
        must.append(qe.FieldCondition("group", match=qe.MatchValue(wanted.group)))
    if wanted.exclude_kind is not None:
        kind = qe.FieldCondition("kind", match=qe.MatchValue(wanted.exclude_kind))
        return qe.Filter(must=must, must_not=[kind])
    return qe.Filter(must=must) if must else None


def query_requests(spec: QuerySpec) -> tuple[list[qe.QueryRequest], bool]:
    """The requests one spec needs: the fused (or single-side) query first, then, when both
    sides run, the dense side alone (ids and scores, no payload) for the cosines of the
    fused hits and the best cosine anywhere. Returns (requests, fused)."""
    flt = to_filter(spec.filter)
    dense = qe.Query.Nearest(spec.dense.tolist(), using=DENSE) if spec.dense is not None else None
    lexical = qe.Query.Nearest(sparse(spec.sparse), using=SPARSE) if spec.sparse else None
    common: dict[str, Any] = {"filter": flt, "with_payload": payload_fields(spec)}
    if dense is not None and lexical is not None:
        p = spec.params
        prefetches = [
            qe.Prefetch(limit=p.prefetch, query=dense, filter=flt, params=RESCORED),
            qe.Prefetch(limit=p.prefetch, query=lexical, filter=flt),
        ]
        rrf = qe.Fusion.Rrf(k=p.rrf_k, weights=[p.dense_weight, p.lexical_weight])
        # the stubs of qdrant-edge-py 0.9.0 leave Fusion.Rrf out of the query union
        main = qe.QueryRequest(limit=spec.limit, prefetches=prefetches, query=rrf, **common)  # type: ignore[arg-type]
        scores = qe.QueryRequest(
            limit=p.prefetch, query=dense, filter=flt, with_payload=False, params=RESCORED
        )
        return [main, scores], True
    if dense is not None:
        return [qe.QueryRequest(limit=spec.limit, query=dense, params=RESCORED, **common)], False
    return [qe.QueryRequest(limit=spec.limit, query=lexical, **common)], False


def raw_result(results: list[list[qe.ScoredPoint]], fused: bool, spec: QuerySpec) -> RawResult:
    if fused:
        cosines = {str(point.id): float(point.score) for point in results[1]}
        hits = [_hit(point, cosines.get(str(point.id))) for point in results[0]]
        return RawResult(hits=hits, best_dense=float(results[1][0].score) if results[1] else None)
    dense = spec.dense is not None
    hits = [_hit(point, float(point.score) if dense else None) for point in results[0]]
    return RawResult(hits=hits, best_dense=hits[0].score if hits and dense else None)


def _hit(point: qe.ScoredPoint, cosine: float | None) -> RawHit:
    return RawHit(
        id=str(point.id), payload=point.payload or {}, score=float(point.score), cosine=cosine
    )


def pointer_name(text: str) -> str | None:
    try:
        value = json.loads(text).get("name")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None
