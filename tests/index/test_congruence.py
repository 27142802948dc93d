"""The same assertions against both stores: Qdrant Edge on disk (the embedded default) and
the Qdrant-server backend, driven here through ``qdrant-client``'s local mode (its Python
implementation of the server API; no Qdrant server binary is available to the tests)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from askdocs.index import (
    KEYWORD_ONLY,
    HybridParams,
    IndexStore,
    QueryFilter,
    build_index,
    model_spec,
)
from askdocs.index.edge import EdgeBackend
from askdocs.index.server import QdrantBackend
from askdocs.search.lexical import document_vector, query_vector
from tests.index.helpers import HashingEmbedder, chunk, corpus

QUESTION = "read json from a websocket with receive_json"


def open_backend(kind: str, root: Path) -> IndexStore:
    if kind == "edge":
        return IndexStore(EdgeBackend(root / "index"))
    return IndexStore(QdrantBackend(QdrantClient(":memory:"), root / "index"))


@pytest.fixture(params=["edge", "qdrant-client-local"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[IndexStore]:
    store = open_backend(request.param, tmp_path)
    yield store
    store.close()


def test_lifecycle_is_the_same(any_store: IndexStore) -> None:
    embedder = HashingEmbedder()
    build = lambda site, chunks: build_index(  # noqa: E731
        any_store, embedder, site, chunks, sparse=document_vector
    )
    first = build("docs", corpus())
    assert (first.points, first.embedded) == (18, 18)
    assert build("docs", corpus()).unchanged
    edited = list(corpus())
    edited[2] = replace(edited[2], text="brand new words")
    second = build("docs", edited)
    assert (second.embedded, second.reused) == (1, 17)
    third = build("guide", corpus("guide", 2, 2))
    assert third.points == 22
    info = any_store.current(model_spec(embedder))
    assert info is not None
    assert info.name == third.collection
    assert info.dense_points == 22
    assert any_store.backend.collections() == [third.collection]
    assert any_store.backend.pointers() == {model_spec(embedder).key: third.collection}


def test_queries_are_the_same(any_store: IndexStore) -> None:
    embedder = HashingEmbedder()
    build_index(any_store, embedder, "docs", corpus(), sparse=document_vector)
    build_index(any_store, embedder, "guide", corpus("guide", 4, 1), sparse=document_vector)
    info = any_store.current(model_spec(embedder))
    assert info is not None
    dense = embedder.embed_query(QUESTION)[0]
    result = any_store.query(
        info, dense=dense, sparse=query_vector(QUESTION), filter=QueryFilter(site="docs"),
        limit=5, params=HybridParams(prefetch=20, rrf_k=60),
    )  # fmt: skip
    assert result.mode == "hybrid"
    assert {h.chunk.site for h in result.hits} == {"docs"}
    assert result.hits[0].chunk.heading.startswith("Websockets")
    assert result.best_dense is not None
    assert result.best_dense >= max(h.dense_score or 0 for h in result.hits) - 1e-6
    keyword = any_store.query(
        info, dense=None, sparse=query_vector("shm-size"), filter=QueryFilter(), limit=3
    )
    assert keyword.hits
    assert "shm-size" in keyword.hits[0].chunk.text


def test_term_probes_are_the_same(any_store: IndexStore) -> None:
    embedder = HashingEmbedder()
    news = chunk("docs", "changes", "Changes", "Version 3 exports prometheus metrics.")
    docs = [*corpus(), replace(news, kind="changelog")]
    build_index(any_store, embedder, "docs", docs, sparse=document_vector)
    build_index(any_store, embedder, "guide", corpus("guide", 4, 1), sparse=document_vector)
    info = any_store.current(model_spec(embedder))
    assert info is not None
    words = ("websocket", "prometheus", "docker", "oauth2", "grpc")  # guide: 4 pages, no OAuth2
    probes = [query_vector(word) for word in words]
    assert any_store.mentioned(info, probes, QueryFilter()) == [True, True, True, True, False]
    guide = QueryFilter(site="guide")
    assert any_store.mentioned(info, probes, guide) == [True, False, True, False, False]
    guides_only = QueryFilter(site="docs", exclude_kind="changelog")
    assert any_store.mentioned(info, probes, guides_only) == [True, False, True, True, False]
    for flt in (guide, guides_only, QueryFilter()):
        held = any_store.backend.term_ids(info.name, flt)
        assert [bool(set(p.indices) & set(held.tolist())) for p in probes] == (
            any_store.mentioned(info, probes, flt)
        )
    assert any_store.backend.term_ids(info.name, QueryFilter(site="nowhere")).size == 0


def test_keyword_only_is_the_same(any_store: IndexStore) -> None:
    build_index(any_store, None, "docs", corpus(), sparse=document_vector)
    info = any_store.current(KEYWORD_ONLY)
    assert info is not None
    assert info.dimension is None
    assert info.dense_points == 0
    result = any_store.query(
        info, dense=None, sparse=query_vector(QUESTION), filter=QueryFilter(), limit=3
    )
    assert result.mode == "keyword"
    assert result.hits[0].chunk.heading.startswith("Websockets")


def test_both_stores_rank_alike(tmp_path: Path) -> None:
    embedder = HashingEmbedder()
    stores = [open_backend(k, tmp_path / k) for k in ("edge", "qdrant-client-local")]
    rankings = []
    for store in stores:
        build_index(store, embedder, "docs", corpus(), sparse=document_vector)
        info = store.current(model_spec(embedder))
        assert info is not None
        result = store.query(
            info, dense=embedder.embed_query(QUESTION)[0], sparse=query_vector(QUESTION),
            filter=QueryFilter(), limit=6,
        )  # fmt: skip
        rankings.append([(round(h.score, 4), round(h.dense_score or 0, 4)) for h in result.hits])
        store.close()
    assert sorted(rankings[0]) == sorted(rankings[1])  # fused ties may break either way


def test_a_chunk_without_terms_is_still_indexed(any_store: IndexStore) -> None:
    chunks = corpus()
    chunks[0] = replace(chunks[0], title="", heading="", heading_trail=(), text="the and of")
    assert not document_vector(chunks[0])
    result = build_index(any_store, HashingEmbedder(), "docs", chunks, sparse=document_vector)
    assert result.points == 18


def test_model_switch_is_the_same(any_store: IndexStore) -> None:
    first, second = HashingEmbedder(), HashingEmbedder(dimension=32, model_id="test:other")
    build_index(any_store, first, "docs", corpus(), sparse=document_vector)
    result = build_index(any_store, second, "guide", corpus("guide", 1, 2), sparse=document_vector)
    assert (result.points, result.embedded) == (20, 20)
    assert any_store.current(model_spec(first)) is None
    assert any_store.backend.pointers() == {model_spec(second).key: result.collection}
    assert any_store.backend.collections() == [result.collection]
