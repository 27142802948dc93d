"""The openai-compatible provider against a scripted server speaking OpenAI's /embeddings."""

from __future__ import annotations

import numpy as np
import pytest

from askdocs.embeddings.openai_compat import OpenAICompatibleEmbedder, from_settings
from askdocs.errors import ConfigError, EmbeddingError
from askdocs.settings import EmbeddingSettings
from tests.embeddings.conftest import API_KEY, fake_vector, openai_script
from tests.embeddings.scripted_server import Received, Reply, ScriptedServer


def _embedder(server: ScriptedServer, **options: object) -> OpenAICompatibleEmbedder:
    settings = EmbeddingSettings.model_validate(
        {
            "provider": "openai-compatible",
            "model": "text-embedding-3-small",
            "base_url": f"{server.url}/v1",
            "api_key": API_KEY,
            **options,
        }
    )
    return from_settings(settings)


def test_request_carries_model_input_dimensions_and_bearer_key(server: ScriptedServer) -> None:
    server.script = openai_script(1536)
    vectors = _embedder(server, dimension=256).embed_documents(["alpha", "beta"])
    [request] = server.received
    assert (request.method, request.path) == ("POST", "/v1/embeddings")
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert request.body == {
        "model": "text-embedding-3-small",
        "input": ["alpha", "beta"],
        "dimensions": 256,
    }
    assert vectors.shape == (2, 256)
    assert vectors.dtype == np.float32


def test_vectors_follow_index_order_and_are_unit_length(server: ScriptedServer) -> None:
    server.script = openai_script(8)
    vectors = _embedder(server, dimension=8).embed_documents(["one", "two", "three"])
    expected = np.array([fake_vector(t, 8) for t in ("one", "two", "three")])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vectors, expected, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)


def test_batches_follow_batch_size(server: ScriptedServer) -> None:
    server.script = openai_script(4)
    texts = [f"text {i}" for i in range(5)]
    vectors = _embedder(server, dimension=4, batch_size=2).embed_documents(texts)
    assert [len(r.body["input"]) for r in server.received] == [2, 2, 1]  # type: ignore[index]
    single = _embedder(server, dimension=4).embed_query("text 3")
    np.testing.assert_allclose(vectors[3:4], single, atol=1e-6)


def test_dimension_is_probed_lazily_once_without_dimensions_field(
    server: ScriptedServer,
) -> None:
    server.script = openai_script(12)
    embedder = _embedder(server)
    assert server.received == []
    assert embedder.dimension == 12
    assert embedder.dimension == 12
    assert len(server.received) == 1
    assert "dimensions" not in server.received[0].body  # type: ignore[operator]
    assert embedder.embed_query("q").shape == (1, 12)


def test_request_dimensions_off_declares_without_sending(server: ScriptedServer) -> None:
    server.script = openai_script(6)
    vectors = _embedder(server, dimension=6, request_dimensions=False).embed_documents(["x"])
    assert vectors.shape == (1, 6)
    assert "dimensions" not in server.received[0].body  # type: ignore[operator]


def test_no_key_sends_no_authorization_header(server: ScriptedServer) -> None:
    server.script = openai_script(4)
    settings = EmbeddingSettings(
        provider="openai-compatible", model="nomic-embed-text", base_url=f"{server.url}/v1"
    )
    from_settings(settings).embed_query("hello")
    assert "authorization" not in server.received[0].headers


def test_empty_text_is_sent_as_a_space(server: ScriptedServer) -> None:
    server.script = openai_script(4)
    _embedder(server, dimension=4).embed_documents(["", "x"])
    assert server.received[0].body["input"] == [" ", "x"]  # type: ignore[index]


def test_empty_batch_makes_no_request(server: ScriptedServer) -> None:
    vectors = _embedder(server, dimension=5).embed_documents([])
    assert vectors.shape == (0, 5)
    assert server.received == []


@pytest.mark.parametrize(
    "data",
    [
        [{"index": 0, "embedding": [1.0, 0.0]}, {"index": 0, "embedding": [0.0, 1.0]}],
        [{"index": "0", "embedding": [1.0, 0.0]}, {"index": 1, "embedding": [0.0, 1.0]}],
        [{"index": 0, "embedding": [1.0, 0.0]}, {"index": 5, "embedding": [0.0, 1.0]}],
    ],
)
def test_bad_indexes_are_rejected(server: ScriptedServer, data: object) -> None:
    server.script = lambda _: Reply(200, {"data": data})
    with pytest.raises(EmbeddingError) as caught:
        _embedder(server, dimension=2).embed_documents(["a", "b"])
    assert caught.value.code == "embedding_bad_response"


def test_model_is_required() -> None:
    with pytest.raises(ConfigError):
        from_settings(EmbeddingSettings(provider="openai-compatible"))


def test_default_base_url_is_openai() -> None:
    settings = EmbeddingSettings(provider="openai-compatible", model="text-embedding-3-small")
    assert from_settings(settings).url == "https://api.openai.com/v1/embeddings"


def test_model_id_changes_with_model_and_dimension() -> None:
    def model_id(model: str, dimension: int | None) -> str:
        return OpenAICompatibleEmbedder(model=model, dimension=dimension).model_id

    ids = {
        model_id("text-embedding-3-small", None),
        model_id("text-embedding-3-small", 256),
        model_id("text-embedding-3-small", 512),
        model_id("text-embedding-3-large", 256),
    }
    assert len(ids) == 4
    assert all(i.startswith("openai-compatible:") for i in ids)


def _record(request: Received) -> Reply:
    return Reply(200, {"data": [{"index": 0, "embedding": [0.0, 3.0, 4.0]}]})


def test_vectors_from_a_minimal_server_are_normalised(server: ScriptedServer) -> None:
    server.script = _record
    vector = _embedder(server).embed_query("q")
    np.testing.assert_allclose(vector, [[0.0, 0.6, 0.8]], atol=1e-6)
