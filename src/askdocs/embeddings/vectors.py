"""Turn vectors parsed from a provider's JSON into checked, L2-normalised float32 rows (pure)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from askdocs.embeddings.protocol import Vectors
from askdocs.error_codes import ErrorCode
from askdocs.errors import EmbeddingError

_FLOAT32_MAX = float(np.finfo(np.float32).max)


def to_unit_rows(
    rows: Sequence[object], *, expected: int, dimension: int | None, source: str
) -> Vectors:
    """Check count, dimension and finiteness; return rows scaled to unit length.

    Providers that truncate dimensions (OpenAI ``dimensions``, Gemini
    ``outputDimensionality``) return vectors that are not unit length; every row is
    normalised here so cosine similarity is a dot product everywhere.
    """
    if len(rows) != expected:
        raise EmbeddingError(
            f"{source} returned {len(rows)} embeddings for {expected} inputs",
            code=ErrorCode.EMBEDDING_BAD_RESPONSE,
        )
    matrix = _matrix(rows, source)
    if dimension is not None and matrix.shape[1] != dimension:
        raise EmbeddingError(
            f"{source} returned {matrix.shape[1]}-dimensional embeddings, expected {dimension}",
            code=ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
        )
    return normalise(matrix, source)


def _matrix(rows: Sequence[object], source: str) -> Vectors:
    if not rows:
        raise EmbeddingError(
            f"{source} returned no embeddings", code=ErrorCode.EMBEDDING_BAD_RESPONSE
        )
    width = {len(row) if isinstance(row, list) else -1 for row in rows}
    if len(width) != 1 or min(width) < 1:
        raise EmbeddingError(
            f"{source} returned embeddings of mixed sizes", code=ErrorCode.EMBEDDING_BAD_RESPONSE
        )
    if not all(_is_number(v) for row in rows if isinstance(row, list) for v in row):
        raise EmbeddingError(
            f"{source} returned non-numeric embedding values", code=ErrorCode.EMBEDDING_BAD_RESPONSE
        )
    wide = np.asarray(rows, dtype=np.float64)
    if not np.isfinite(wide).all() or np.abs(wide).max() > _FLOAT32_MAX:
        raise EmbeddingError(
            f"{source} returned non-finite embedding values", code=ErrorCode.EMBEDDING_BAD_RESPONSE
        )
    matrix: Vectors = wide.astype(np.float32)
    return matrix


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def normalise(matrix: Vectors, source: str) -> Vectors:
    norms = np.linalg.norm(matrix.astype(np.float64), axis=1, keepdims=True)
    if (norms == 0).any():
        raise EmbeddingError(
            f"{source} returned an all-zero embedding", code=ErrorCode.EMBEDDING_BAD_RESPONSE
        )
    unit: Vectors = (matrix / norms).astype(np.float32)
    return unit
