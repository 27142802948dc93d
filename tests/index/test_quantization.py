"""``index.quantization``: int8 copies of the dense vectors in the engine, float32 originals on
disk, every dense result rescored with the originals (both engines); ``none`` keeps float32."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import qdrant_edge as qe
from qdrant_client import QdrantClient

from askdocs.index import (
    CollectionInfo,
    HybridParams,
    IndexStore,
    QueryFilter,
    build_index,
    model_spec,
)
from askdocs.index import edge_convert as conv
from askdocs.index.backend import DENSE, SPARSE, QuerySpec
from askdocs.index.edge import EdgeBackend
from askdocs.index.server import RESCORED, QdrantBackend, _requests
from askdocs.search.lexical import document_vector, query_vector
from askdocs.settings import Quantization
from tests.index.helpers import HashingEmbedder, corpus

QUESTION = "how do I read json from a websocket with receive_json"


def built(root: Path, embedder: HashingEmbedder, quantization: Quantization) -> CollectionInfo:
    store = IndexStore(EdgeBackend(root, quantization))
    try:
        build_index(store, embedder, "docs", corpus(pages=12), sparse=document_vector)
        info = store.current(model_spec(embedder))
    finally:
        store.close()
    assert info is not None
    return info


def dense_scores(
    root: Path, info: CollectionInfo, query: np.ndarray, params: qe.SearchParams
) -> dict[str, float]:
    """Every point's dense score as the engine gives it with ``params``."""
    shard = qe.EdgeShard.load(str(root / "collections" / info.name / "shard"))
    try:
        request = qe.QueryRequest(
            limit=info.points,
            query=qe.Query.Nearest(query.tolist(), using=DENSE),
            with_payload=False,
            params=params,
        )
        return {str(p.id): float(p.score) for p in shard.query(request)}
    finally:
        shard.close()


def exact_scores(root: Path, info: CollectionInfo, query: np.ndarray) -> dict[str, float]:
    store = IndexStore(EdgeBackend(root))
    try:
        ids = [record.id for record in store.backend.scroll(info.name, vectors=False)]
        vectors = store.backend.dense_vectors(info.name, ids)
    finally:
        store.close()
    return {pid: float(vector @ query) for pid, vector in vectors.items()}


UNRESCORED = qe.SearchParams(quantization=qe.QuantizationSearchParams(rescore=False))


def test_int8_copies_rank_and_the_originals_rescore(
    index_root: Path, embedder: HashingEmbedder
) -> None:
    """Without rescoring the scores are the int8 copies' (they differ from the float32
    cosines), so the copies exist; with the parameters every search sends they are exact.
    Even a 36-point collection is indexed (HNSW graph and int8 copy)."""
    info = built(index_root, embedder, "int8")
    query = embedder.embed_query(QUESTION).reshape(-1)
    exact = exact_scores(index_root, info, query)
    approximate = dense_scores(index_root, info, query, UNRESCORED)
    rescored = dense_scores(index_root, info, query, conv.RESCORED)
    assert max(abs(approximate[pid] - exact[pid]) for pid in approximate) > 1e-4
    assert rescored.keys() == exact.keys()
    assert all(abs(rescored[pid] - exact[pid]) < 1e-5 for pid in exact)
    shard = qe.EdgeShard.load(str(index_root / "collections" / info.name / "shard"))
    try:
        assert shard.info().indexed_vectors_count >= info.points
    finally:
        shard.close()


def test_none_keeps_float32_in_the_engine(index_root: Path, embedder: HashingEmbedder) -> None:
    info = built(index_root, embedder, "none")
    query = embedder.embed_query(QUESTION).reshape(-1)
    exact = exact_scores(index_root, info, query)
    plain = dense_scores(index_root, info, query, UNRESCORED)
    assert all(abs(plain[pid] - exact[pid]) < 1e-5 for pid in exact)


def hits(root: Path, info: CollectionInfo, embedder: HashingEmbedder) -> list[tuple[str, float]]:
    store = IndexStore(EdgeBackend(root))
    try:
        found = store.query(
            info,
            dense=embedder.embed_query(QUESTION),
            sparse=query_vector(QUESTION),
            filter=QueryFilter(site="docs", locales=("en",)),
            limit=10,
            params=HybridParams(prefetch=20),
        )
    finally:
        store.close()
    # fused scores tie often; the engine's order among ties is not kept (by_score orders them)
    return sorted(
        ((h.chunk.id, round(h.score, 6)) for h in found.hits), key=lambda h: (-h[1], h[0])
    )


@pytest.mark.parametrize(("first", "then"), [("none", "int8"), ("int8", "none")])
def test_switching_writes_a_new_collection_that_answers_alike(
    index_root: Path, first: Quantization, then: Quantization
) -> None:
    """The storage layout is part of the collection's name: a switch rebuilds (copying the
    current shard, whose segments the engine rewrites, and re-embedding nothing), and the
    rescored answers are the same."""
    embedder = HashingEmbedder()
    before = built(index_root, embedder, first)
    answers = hits(index_root, before, embedder)
    embedded = len(embedder.embedded)
    after = built(index_root, embedder, then)
    assert after.name != before.name
    assert len(embedder.embedded) == embedded
    assert hits(index_root, after, embedder) == answers


def spec(dense: bool, sparse: bool) -> QuerySpec:
    vector = np.ones(4, dtype=np.float32) / 2
    lexical = query_vector(QUESTION)
    return QuerySpec(
        vector if dense else None, lexical if sparse else None, QueryFilter(), 5, HybridParams()
    )


def test_the_server_path_rescores_every_dense_search() -> None:
    fused, _ = _requests(spec(dense=True, sparse=True))
    assert fused[0].prefetch is not None
    dense_side = [p for p in fused[0].prefetch if p.using == DENSE]  # type: ignore[union-attr]
    lexical_side = [p for p in fused[0].prefetch if p.using == SPARSE]  # type: ignore[union-attr]
    assert [p.params for p in dense_side] == [RESCORED]
    assert [p.params for p in lexical_side] == [None]
    assert fused[1].params == RESCORED  # the dense side alone, for the cosines
    dense_only, _ = _requests(spec(dense=True, sparse=False))
    keyword_only, _ = _requests(spec(dense=False, sparse=True))
    assert dense_only[0].params == RESCORED
    assert keyword_only[0].params is None
    quantization = RESCORED.quantization
    assert quantization is not None
    assert quantization.rescore is True


@pytest.mark.parametrize(("quantization", "on_disk"), [("int8", True), ("none", False)])
def test_the_server_path_keeps_originals_on_disk_when_quantized(
    tmp_path: Path, quantization: Quantization, on_disk: bool
) -> None:
    """qdrant-client's local mode keeps the vector parameters it is given (it drops the
    quantization config itself: it always searches exactly)."""
    client = QdrantClient(":memory:")
    backend = QdrantBackend(client, tmp_path / "index", quantization)
    backend.create("docs_test_00000000_000000000000", 4)
    params = client.get_collection("docs_test_00000000_000000000000").config.params
    assert isinstance(params.vectors, dict)
    assert bool(params.vectors[DENSE].on_disk) is on_disk
    backend.close()
