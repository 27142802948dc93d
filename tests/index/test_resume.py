"""Resumable builds (defect 9 of the hardening battery): a cold build that fails or is
killed half-way keeps what it embedded, and the next build embeds only the rest. Against
both stores: Qdrant Edge on disk and the Qdrant-server backend (qdrant-client local mode,
on disk so a second process sees it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from qdrant_client import QdrantClient

from askdocs.embeddings.protocol import Vectors
from askdocs.errors import EmbeddingError
from askdocs.index import IndexStore, build_index, model_spec
from askdocs.index.edge import EdgeBackend
from askdocs.index.resume import resume_cache
from askdocs.index.server import QdrantBackend
from askdocs.search.lexical import document_vector
from askdocs.types import Chunk
from tests.index.helpers import HashingEmbedder, corpus

SITE = "docs"
BATCH = 4
KINDS = ["edge", "qdrant-client-local"]
REPO = Path(__file__).resolve().parents[2]


def pages() -> list[Chunk]:
    return corpus(SITE, pages=8, sections=3)  # 24 chunks, 6 batches of 4


def open_store(kind: str, data_dir: Path) -> IndexStore:
    root = data_dir / "index"
    if kind == "edge":
        return IndexStore(EdgeBackend(root), resume_dir=root)
    client = QdrantClient(path=str(data_dir / "qdrant"))
    return IndexStore(QdrantBackend(client, root), resume_dir=root)


class FailsAt(HashingEmbedder):
    """Embeds until ``limit`` texts were embedded, then fails like a rate-limited API."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def embed_documents(self, texts: list[str]) -> Vectors:  # type: ignore[override]
        if len(self.embedded) + len(texts) > self.limit:
            raise EmbeddingError("429 Too Many Requests")
        return super().embed_documents(texts)


def _build(store: IndexStore, embedder: HashingEmbedder, chunks: list[Chunk]) -> object:
    return build_index(store, embedder, SITE, chunks, sparse=document_vector, batch_size=BATCH)


@pytest.mark.parametrize("kind", KINDS)
def test_failed_cold_build_resumes_embedding_only_the_remaining_half(
    tmp_path: Path, kind: str
) -> None:
    chunks = pages()
    half = len(chunks) // 2
    store = open_store(kind, tmp_path)
    try:
        with pytest.raises(EmbeddingError):
            _build(store, FailsAt(half), chunks)
        again = HashingEmbedder()
        result = build_index(store, again, SITE, chunks, sparse=document_vector, batch_size=BATCH)
        assert (result.embedded, result.points) == (len(chunks) - half, len(chunks))
        assert len(again.embedded) == len(chunks) - half
        info = store.current(model_spec(again))
        assert info is not None
        assert info.dense_points == len(chunks)
    finally:
        store.close()


@pytest.mark.parametrize("kind", KINDS)
def test_resumed_vectors_equal_freshly_embedded_ones(tmp_path: Path, kind: str) -> None:
    chunks = pages()
    store = open_store(kind, tmp_path)
    try:
        with pytest.raises(EmbeddingError):
            _build(store, FailsAt(8), chunks)
        result = build_index(
            store, HashingEmbedder(), SITE, chunks, sparse=document_vector, batch_size=BATCH
        )
        stored = {
            p.payload["chunk_id"]: p.dense
            for p in store.backend.scroll(result.collection, vectors=True)
        }
    finally:
        store.close()
    fresh = HashingEmbedder()
    for chunk in chunks:
        expected = np.asarray(fresh.embed_documents([chunk.embed_text]))[0]
        assert np.allclose(stored[chunk.id], expected / np.linalg.norm(expected), atol=1e-5)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_killed_cold_build_resumes_embedding_only_the_rest(tmp_path: Path, kind: str) -> None:
    batches = 3
    killed = subprocess.run(
        [sys.executable, "-m", "tests.index.resume_worker", str(tmp_path), kind, str(batches)],
        cwd=REPO,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert killed.returncode == -9, killed.stderr.decode()[-2000:]
    store = open_store(kind, tmp_path)
    try:
        again = HashingEmbedder()
        result = _build(store, again, pages())
    finally:
        store.close()
    assert len(again.embedded) == len(pages()) - batches * BATCH
    assert result.points == len(pages())  # type: ignore[attr-defined]


def test_resume_file_is_emptied_once_the_build_is_current(tmp_path: Path) -> None:
    chunks = pages()
    store = open_store("edge", tmp_path)
    embedder = HashingEmbedder()
    cache = resume_cache(store.resume_dir, model_spec(embedder).key, embedder.dimension)
    assert cache is not None
    try:
        with pytest.raises(EmbeddingError):
            _build(store, FailsAt(12), chunks)
        assert len(cache) == 12
        _build(store, embedder, chunks)
    finally:
        store.close()
    assert len(cache) == 0


def test_keyword_only_builds_keep_no_resume_file(tmp_path: Path) -> None:
    assert resume_cache(tmp_path, "none_0000", None) is None
    assert resume_cache(None, "m_1", 8) is None
