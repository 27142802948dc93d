"""The compiled encoder files (float32 and int8), length-sorted batching, the query cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from askdocs.embeddings.local import INT8_MODEL_ID, MODEL_ID, LocalEmbedder, from_settings
from askdocs.embeddings.local_model import bundled_model_dir, release_runtime
from askdocs.embeddings.model_files import compiled_model, model_key
from askdocs.embeddings.query_cache import QueryCache
from askdocs.embeddings.registry import create_embedder
from askdocs.settings import EmbeddingSettings

TEXTS = [
    "How do I allow credentialed cross-origin requests?",
    "CORS",
    "Path parameters with types: declare the type of a path parameter with annotations. " * 6,
    'Depends(scope="function")',
    "Run the server with several worker processes behind a proxy that strips a prefix.",
    "a",
    "Background tasks run after the response is sent; use them for e-mail notifications.",
]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def fp32() -> LocalEmbedder:
    return LocalEmbedder(threads=1)


@pytest.fixture(scope="module")
def int8(cache_dir: Path) -> LocalEmbedder:
    # Runtimes are process-wide by (folder, threads, graph, precision), and queries run on
    # int8 with one thread by default: an earlier test's search may have opened this one from
    # its own data dir, so forget it and this module's runtime compiles into ``cache_dir``.
    release_runtime(bundled_model_dir(), 1, precision="int8")
    return LocalEmbedder(threads=1, precision="int8", cache_dir=cache_dir)


def test_the_int8_file_is_compiled_once_and_then_only_opened(
    int8: LocalEmbedder, cache_dir: Path
) -> None:
    int8.load()
    files = sorted(cache_dir.glob("*.onnx"))
    assert [f.name for f in files] == [f"minilm-int8-fused-{model_key(bundled_model_dir())}.onnx"]
    before = files[0].stat().st_mtime_ns
    assert compiled_model(bundled_model_dir(), cache_dir, "int8", "fused") == files[0]
    assert files[0].stat().st_mtime_ns == before
    assert files[0].stat().st_size < 30_000_000  # int8 weights: a quarter of float32's 90 MB
    assert not list(cache_dir.glob(".compile-*"))  # the scratch folder went away


def test_int8_vectors_stay_close_to_float32(fp32: LocalEmbedder, int8: LocalEmbedder) -> None:
    a, b = fp32.embed_documents(TEXTS), int8.embed_documents(TEXTS)
    cosines = (a * b).sum(axis=1)
    assert cosines.min() >= 0.97, cosines
    np.testing.assert_allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)


def test_each_precision_has_its_own_model_id(fp32: LocalEmbedder, int8: LocalEmbedder) -> None:
    assert fp32.model_id == MODEL_ID
    assert int8.model_id == INT8_MODEL_ID == "local:all-MiniLM-L6-v2-int8"
    chosen = create_embedder(EmbeddingSettings(provider="local-int8"))
    assert chosen is not None
    assert chosen.model_id == INT8_MODEL_ID
    assert from_settings(EmbeddingSettings()).model_id == MODEL_ID


def test_a_call_sorts_all_its_texts_by_length_and_returns_input_order(fp32: LocalEmbedder) -> None:
    together = fp32.embed_documents(TEXTS)  # one call: batches of similar lengths
    alone = np.concatenate([fp32.embed_documents([text]) for text in TEXTS])  # no padding
    np.testing.assert_allclose(together, alone, atol=1e-5)
    lengths = fp32.token_lengths(TEXTS)
    assert lengths[1] < lengths[0] < lengths[2] <= 256


class _Counting:
    """The real local model, counting the queries that reach it."""

    def __init__(self, inner: LocalEmbedder, model_id: str) -> None:
        self.inner, self.calls, self._model_id = inner, 0, model_id

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.calls += 1
        return self.inner.embed_query(text)


def test_repeated_queries_are_answered_from_the_cache(fp32: LocalEmbedder) -> None:
    counting = _Counting(fp32, MODEL_ID)
    cache = QueryCache(counting, size=2)
    first = cache.embed_query("cors")
    again = cache.embed_query("cors")
    assert counting.calls == 1
    np.testing.assert_array_equal(first, again)
    assert not again.flags.writeable  # one shared vector: callers cannot change it
    np.testing.assert_allclose(first, fp32.embed_query("cors"), atol=1e-6)


def test_the_cache_is_bounded_and_drops_the_least_recent(fp32: LocalEmbedder) -> None:
    counting = _Counting(fp32, MODEL_ID)
    cache = QueryCache(counting, size=2)
    for text in ("one", "two", "one", "three"):  # "two" is the least recent when "three" comes
        cache.embed_query(text)
    assert len(cache) == 2
    assert counting.calls == 3
    cache.embed_query("one")
    assert counting.calls == 3
    cache.embed_query("two")
    assert counting.calls == 4


def test_the_cache_is_keyed_by_model_id(fp32: LocalEmbedder) -> None:
    counting = _Counting(fp32, MODEL_ID)
    cache = QueryCache(counting)
    cache.embed_query("cors")
    counting._model_id = INT8_MODEL_ID  # the same wrapper now speaks for another model
    cache.embed_query("cors")
    assert counting.calls == 2
    assert cache.token_lengths(["ab", "abcd"]) == [2, 4]  # no tokenizer: characters
