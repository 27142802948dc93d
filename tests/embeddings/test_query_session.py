"""The local providers' query session (its own precision and threads), and a document
session that opens only when documents are embedded and is freed after indexing."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from askdocs.embeddings import local, local_model
from askdocs.embeddings.local import (
    MODEL_ID,
    LocalEmbedder,
    from_settings,
)
from askdocs.embeddings.local_model import EncoderRuntime, bundled_model_dir, load_runtime
from askdocs.embeddings.query_cache import QueryCache
from askdocs.settings import EmbeddingSettings

QUERIES = [
    "How do I allow credentialed cross-origin requests?",
    "CORS",
    'Depends(scope="function")',
    "run uvicorn with several workers behind a proxy that strips a path prefix",
]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module", autouse=True)
def _forget_sessions() -> Iterator[None]:
    """Later modules compile into their own cache folders: leave them no open session
    (the process-wide runtimes are keyed without the folder)."""
    yield
    for threads, precision in ((1, "int8"), (2, "int8"), (2, "fp32")):
        local_model.release_runtime(bundled_model_dir(), threads, precision=precision)


@pytest.fixture(scope="module")
def mixed(cache_dir: Path) -> LocalEmbedder:
    """float32 documents, int8 queries: what ``embedding.query_precision = "auto"`` runs."""
    return LocalEmbedder(threads=1, cache_dir=cache_dir, query_precision="int8")


class _Sessions:
    """Records which sessions (threads, precision) the embedder asks for."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.opened: list[tuple[int | None, str]] = []
        monkeypatch.setattr(local, "load_runtime", self._load)

    def _load(self, model_dir: Path, threads: int | None, **options: Any) -> EncoderRuntime:
        self.opened.append((threads, options["precision"]))
        return load_runtime(model_dir, threads, **options)


def test_queries_open_only_the_query_session(
    monkeypatch: pytest.MonkeyPatch, cache_dir: Path
) -> None:
    sessions = _Sessions(monkeypatch)
    embedder = LocalEmbedder(threads=2, cache_dir=cache_dir, query_precision="int8")
    assert embedder.token_lengths(["a", "a b c"]) == [3, 5]
    assert sessions.opened == []  # counting tokens opens no session
    embedder.load()
    assert embedder.embed_query(QUERIES[0]).shape == (1, 384)
    assert set(sessions.opened) == {(1, "int8")}  # the float32 weights are never loaded
    embedder.embed_documents(["a document"])
    assert sessions.opened[-1] == (2, "fp32")


def test_int8_queries_stay_close_to_float32_queries(mixed: LocalEmbedder) -> None:
    exact = LocalEmbedder(threads=1)
    for query in QUERIES:
        cosine = float((mixed.embed_query(query) @ exact.embed_query(query).T)[0, 0])
        assert cosine >= 0.97, query
    documents = mixed.embed_documents(QUERIES)  # the document side stays float32
    np.testing.assert_allclose(documents, exact.embed_documents(QUERIES), atol=1e-5)


def test_the_model_id_is_the_documents_and_the_query_model_id_says_more(
    mixed: LocalEmbedder,
) -> None:
    assert mixed.model_id == MODEL_ID  # same collection as float32 queries
    assert mixed.query_model_id == f"{MODEL_ID}|query-int8"
    assert LocalEmbedder().query_model_id == f"{MODEL_ID}|query-fp32"
    int8 = LocalEmbedder(precision="int8")
    assert int8.query_model_id == f"{int8.model_id}|query-int8"  # queries follow documents


def test_settings_pick_int8_queries_on_one_thread_by_default(
    monkeypatch: pytest.MonkeyPatch, cache_dir: Path
) -> None:
    sessions = _Sessions(monkeypatch)
    default = from_settings(EmbeddingSettings(cache_dir=cache_dir))
    assert default.model_id == MODEL_ID
    assert default.query_model_id.endswith("|query-int8")
    exact = from_settings(EmbeddingSettings(cache_dir=cache_dir, query_precision="fp32"))
    assert exact.query_model_id.endswith("|query-fp32")
    default.load()
    assert sessions.opened == [(1, "int8")]
    options = load_runtime(bundled_model_dir(), 1, precision="int8").session.get_session_options()
    assert options.intra_op_num_threads == 1
    assert options.inter_op_num_threads == 1


def test_query_threads_size_the_query_session(
    monkeypatch: pytest.MonkeyPatch, cache_dir: Path
) -> None:
    sessions = _Sessions(monkeypatch)
    two = from_settings(EmbeddingSettings(cache_dir=cache_dir, query_threads=2))
    two.embed_query("cors")
    assert sessions.opened == [(2, "int8")]
    runtime = load_runtime(bundled_model_dir(), 2, precision="int8")
    assert runtime.session.get_session_options().intra_op_num_threads == 2


class _Named:
    """An embedder with a query model id of its own, counting its query calls."""

    def __init__(self, query_model_id: str) -> None:
        self.model_id = MODEL_ID
        self.query_model_id = query_model_id
        self.dimension = 2
        self.calls = 0

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.ones((len(texts), 2), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        self.calls += 1
        return np.ones((1, 2), dtype=np.float32)


def test_the_query_cache_keys_on_the_query_model() -> None:
    inner = _Named(f"{MODEL_ID}|query-int8")
    cache = QueryCache(inner, size=4)
    cache.embed_query("cors")
    cache.embed_query("cors")
    assert inner.calls == 1
    inner.query_model_id = f"{MODEL_ID}|query-fp32"  # same documents, other query weights
    cache.embed_query("cors")
    assert inner.calls == 2


def test_released_document_session_is_opened_again_on_the_next_batch(
    monkeypatch: pytest.MonkeyPatch, cache_dir: Path
) -> None:
    embedder = LocalEmbedder(threads=2, cache_dir=cache_dir, query_precision="int8")
    first = embedder.embed_documents(QUERIES)
    runtime = load_runtime(bundled_model_dir(), 2, precision="fp32")
    QueryCache(embedder).release_documents()  # what the service does after indexing
    again = load_runtime(bundled_model_dir(), 2, precision="fp32", cache_dir=cache_dir)
    assert again is not runtime  # freed, and opened afresh
    np.testing.assert_allclose(embedder.embed_documents(QUERIES), first, atol=1e-6)
    sessions = _Sessions(monkeypatch)
    embedder.embed_query("cors")  # the query session was left open
    assert sessions.opened == [(1, "int8")]


def test_one_shared_session_is_not_released() -> None:
    same = LocalEmbedder(threads=1)  # documents and queries on one float32 session
    same.embed_query("cors")
    runtime = load_runtime(bundled_model_dir(), 1, precision="fp32")
    same.release_documents()
    assert load_runtime(bundled_model_dir(), 1, precision="fp32") is runtime


def test_the_service_frees_the_document_session_after_indexing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cache_dir: Path
) -> None:
    from askdocs.service import AskDocs
    from askdocs.settings import load_settings
    from askdocs.sites import folder_site

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "cors.md").write_text("# CORS\n\nAllow credentialed cross-origin requests.\n")
    settings = load_settings(data_dir=tmp_path / "data", embedding={"cache_dir": cache_dir})
    service = AskDocs(settings, [folder_site(docs, "s")])
    try:
        service.index("s")
        sessions = _Sessions(monkeypatch)
        assert service.search("cross-origin requests", site="s").hits
        assert {precision for _, precision in sessions.opened} == {"int8"}
        threads = settings.embedding.threads
        assert not local_model.release_runtime(bundled_model_dir(), threads, precision="fp32")
        (docs / "cors.md").write_text("# CORS\n\nAllow every origin.\n")
        service.index("s")  # the document session opens again, embeds, is freed again
        assert (threads, "fp32") in sessions.opened
        assert not local_model.release_runtime(bundled_model_dir(), threads, precision="fp32")
    finally:
        service.close()
