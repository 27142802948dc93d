"""Conversions between askdocs records and ``qdrant_client.models``. Pure."""

from __future__ import annotations

from typing import Any

from qdrant_client import models

from askdocs.index.backend import DENSE, SPARSE, PointRecord, RawHit, StoredPoint, stored_point
from askdocs.index.types import QueryFilter


def point_of(record: PointRecord) -> models.PointStruct:
    vectors: dict[str, Any] = {
        SPARSE: models.SparseVector(
            indices=list(record.sparse.indices), values=list(record.sparse.values)
        )
    }
    if record.dense is not None:
        vectors[DENSE] = record.dense.tolist()
    return models.PointStruct(id=record.id, vector=vectors, payload=dict(record.payload))


def stored_of(record: models.Record) -> StoredPoint:
    vectors = record.vector if isinstance(record.vector, dict) else {}
    dense = vectors.get(DENSE)
    bm25 = vectors.get(SPARSE)
    sparse = (bm25.indices, bm25.values) if isinstance(bm25, models.SparseVector) else None
    return stored_point(
        record.id, record.payload, dense if isinstance(dense, list) else None, sparse
    )


def sparse_indices(record: models.Record) -> list[int]:
    """The term ids of a record read with its sparse vector only."""
    vectors = record.vector if isinstance(record.vector, dict) else {}
    bm25 = vectors.get(SPARSE)
    return list(bm25.indices) if isinstance(bm25, models.SparseVector) else []


def hit_of(point: models.ScoredPoint, cosine: float | None) -> RawHit:
    return RawHit(
        id=str(point.id), payload=point.payload or {}, score=float(point.score), cosine=cosine
    )


def filter_of(wanted: QueryFilter) -> models.Filter | None:
    must: list[Any] = []
    if wanted.site is not None:
        must.append(models.FieldCondition(key="site", match=models.MatchValue(value=wanted.site)))
    if wanted.locales is not None:
        must.append(
            models.FieldCondition(key="locale", match=models.MatchAny(any=list(wanted.locales)))
        )
    if wanted.audience is not None:
        must.append(
            models.FieldCondition(key="audience", match=models.MatchValue(value=wanted.audience))
        )
    if wanted.group is not None:
        must.append(models.FieldCondition(key="group", match=models.MatchValue(value=wanted.group)))
    if wanted.exclude_kind is not None:
        kind = models.FieldCondition(key="kind", match=models.MatchValue(value=wanted.exclude_kind))
        return models.Filter(must=must, must_not=[kind])
    return models.Filter(must=must) if must else None
