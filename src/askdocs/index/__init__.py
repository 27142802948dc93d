"""Collections, the vector stores behind them, and the incremental index builder.

The contract the search side codes against::

    store = open_store(settings)                      # Qdrant Edge on disk, or a server
    info = store.current(model_spec(embedder))         # last COMPLETE collection, or None
    result = store.query(info, dense=vec, sparse=lexical.query_vector(q),
                         filter=QueryFilter(site="docs", locales=("en",)), limit=10,
                         params=HybridParams(prefetch=50, rrf_k=60))
    result.hits[0].chunk, .score (fused rank value), .dense_score (cosine); result.best_dense

    build_index(store, embedder, "docs", chunks, sparse=lexical.document_vector)

See docs/indexing.md.
"""

from askdocs.index.builder import build_index, model_spec
from askdocs.index.naming import KEYWORD_ONLY, ModelSpec
from askdocs.index.store import IndexStore, open_store
from askdocs.index.types import (
    BuildResult,
    CollectionInfo,
    HybridParams,
    QueryFilter,
    QueryResult,
    ScoredChunk,
    SparseVector,
)

__all__ = [
    "KEYWORD_ONLY",
    "BuildResult",
    "CollectionInfo",
    "HybridParams",
    "IndexStore",
    "ModelSpec",
    "QueryFilter",
    "QueryResult",
    "ScoredChunk",
    "SparseVector",
    "build_index",
    "model_spec",
    "open_store",
]
