"""Lifecycle and reuse with the real bundled model (all-MiniLM-L6-v2 on onnxruntime)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from askdocs.embeddings.protocol import Embedder
from askdocs.embeddings.registry import create_embedder
from askdocs.index import IndexStore, QueryFilter, build_index, model_spec
from askdocs.search.lexical import document_vector, query_vector
from askdocs.settings import EmbeddingSettings
from tests.index.helpers import corpus


@pytest.fixture(scope="module")
def local_model() -> Embedder:
    embedder = create_embedder(EmbeddingSettings(provider="local"))
    assert embedder is not None
    return embedder


def test_build_reuse_and_noop_with_the_local_model(
    store: IndexStore, local_model: Embedder
) -> None:
    chunks = corpus()
    first = build_index(store, local_model, "docs", chunks, sparse=document_vector)
    assert first.collection.startswith("docs_local-all-minilm-l6-v2_")
    assert (first.embedded, first.reused) == (18, 0)
    assert build_index(store, local_model, "docs", chunks, sparse=document_vector).unchanged
    edited = list(chunks)
    edited[7] = replace(chunks[7], text="Bearer tokens expire; refresh them with a new login.")
    second = build_index(store, local_model, "docs", edited, sparse=document_vector)
    assert (second.embedded, second.reused) == (1, 17)
    stored = {
        p.payload["chunk_id"]: p.dense
        for p in store.backend.scroll(second.collection, vectors=True)
    }
    expected = local_model.embed_documents([edited[7].embed_text])[0]
    assert stored[edited[7].id] is not None
    assert float(np.dot(stored[edited[7].id], expected)) > 0.999


def test_hybrid_query_with_the_local_model(store: IndexStore, local_model: Embedder) -> None:
    build_index(store, local_model, "docs", corpus(), sparse=document_vector)
    info = store.current(model_spec(local_model))
    assert info is not None
    assert info.dimension == 384
    question = "How can my server receive JSON messages over a websocket?"
    dense = local_model.embed_query(question)[0]
    result = store.query(
        info, dense=dense, sparse=query_vector(question), filter=QueryFilter(site="docs"), limit=3
    )
    assert result.mode == "hybrid"
    assert result.hits[0].chunk.heading.startswith("Websockets")
    top = result.hits[0]
    direct = float(local_model.embed_documents([top.chunk.embed_text])[0] @ dense)
    assert top.dense_score == pytest.approx(direct, abs=1e-4)
    assert result.best_dense is not None
    assert result.best_dense >= top.dense_score - 1e-6  # type: ignore[operator]
