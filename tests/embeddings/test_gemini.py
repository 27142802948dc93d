"""The gemini provider against a scripted server speaking batchEmbedContents."""

from __future__ import annotations

import numpy as np
import pytest

from askdocs.embeddings.gemini import GeminiEmbedder, from_settings
from askdocs.errors import ConfigError
from askdocs.settings import EmbeddingSettings
from tests.embeddings.conftest import API_KEY, fake_vector, gemini_script
from tests.embeddings.scripted_server import ScriptedServer


def _embedder(server: ScriptedServer, **options: object) -> GeminiEmbedder:
    values = {"provider": "gemini", "base_url": server.url, "api_key": API_KEY, **options}
    return from_settings(EmbeddingSettings.model_validate(values))


def test_documents_use_retrieval_document_and_output_dimensionality(
    server: ScriptedServer,
) -> None:
    server.script = gemini_script(3072)
    vectors = _embedder(server, dimension=768).embed_documents(["alpha", "beta"])
    [request] = server.received
    assert request.path == "/v1beta/models/gemini-embedding-001:batchEmbedContents"
    assert request.headers["x-goog-api-key"] == API_KEY
    assert "key=" not in request.path
    assert request.body == {
        "requests": [
            {
                "model": "models/gemini-embedding-001",
                "content": {"parts": [{"text": text}]},
                "taskType": "RETRIEVAL_DOCUMENT",
                "outputDimensionality": 768,
            }
            for text in ("alpha", "beta")
        ]
    }
    assert vectors.shape == (2, 768)


def test_query_uses_retrieval_query(server: ScriptedServer) -> None:
    server.script = gemini_script(3072)
    vector = _embedder(server, dimension=128).embed_query("how do I add CORS?")
    body = server.received[0].body
    assert body["requests"][0]["taskType"] == "RETRIEVAL_QUERY"  # type: ignore[index]
    assert vector.shape == (1, 128)


def test_truncated_vectors_are_normalised(server: ScriptedServer) -> None:
    server.script = gemini_script(16)
    vectors = _embedder(server, dimension=16).embed_documents(["one", "two"])
    expected = np.array([fake_vector(t, 16) for t in ("one", "two")])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vectors, expected, atol=1e-6)


def test_batches_are_capped_at_one_hundred(server: ScriptedServer) -> None:
    server.script = gemini_script(4)
    texts = [f"t{i}" for i in range(130)]
    vectors = _embedder(server, dimension=4, batch_size=500).embed_documents(texts)
    sizes = [len(r.body["requests"]) for r in server.received]  # type: ignore[index]
    assert sizes == [100, 30]
    assert vectors.shape == (130, 4)


def test_dimension_probed_lazily_without_output_dimensionality(server: ScriptedServer) -> None:
    server.script = gemini_script(24)
    embedder = _embedder(server, model="models/text-embedding-004")
    assert server.received == []
    assert embedder.dimension == 24
    [request] = server.received
    assert request.path == "/v1beta/models/text-embedding-004:batchEmbedContents"
    assert "outputDimensionality" not in request.body["requests"][0]  # type: ignore[index]


def test_base_url_with_version_is_not_doubled(server: ScriptedServer) -> None:
    server.script = gemini_script(4)
    _embedder(server, base_url=f"{server.url}/v1beta/", dimension=4).embed_query("x")
    assert server.received[0].path.startswith("/v1beta/models/")


def test_api_key_is_required() -> None:
    with pytest.raises(ConfigError):
        from_settings(EmbeddingSettings(provider="gemini"))


@pytest.mark.parametrize("model", ["../admin", "a/b", "x?key=1", ""])
def test_model_names_cannot_reshape_the_url(model: str) -> None:
    with pytest.raises(ConfigError):
        GeminiEmbedder(api_key=API_KEY, model=model)


def test_model_id_changes_with_model_and_dimension() -> None:
    ids = {
        GeminiEmbedder(api_key=API_KEY).model_id,
        GeminiEmbedder(api_key=API_KEY, dimension=768).model_id,
        GeminiEmbedder(api_key=API_KEY, model="text-embedding-004").model_id,
    }
    assert len(ids) == 3
    assert all(i.startswith("gemini:") for i in ids)
