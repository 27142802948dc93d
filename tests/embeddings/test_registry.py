"""Resolving the configured provider through the registry."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Sequence

import numpy as np
import pytest
from pydantic import SecretStr

from askdocs.embeddings import registry
from askdocs.embeddings.gemini import GeminiEmbedder
from askdocs.embeddings.local import LocalEmbedder
from askdocs.embeddings.openai_compat import OpenAICompatibleEmbedder
from askdocs.embeddings.protocol import Embedder, Vectors
from askdocs.errors import ConfigError
from askdocs.settings import EmbeddingSettings


def test_none_means_keyword_only() -> None:
    assert registry.create_embedder(EmbeddingSettings(provider="none")) is None


def test_builtins_resolve_to_their_classes() -> None:
    local = registry.create_embedder(EmbeddingSettings())
    openai = registry.create_embedder(
        EmbeddingSettings(provider="openai-compatible", model="nomic-embed-text")
    )
    gemini = registry.create_embedder(
        EmbeddingSettings(provider="gemini", api_key=SecretStr("k" * 20))
    )
    assert isinstance(local, LocalEmbedder)
    assert isinstance(openai, OpenAICompatibleEmbedder)
    assert isinstance(gemini, GeminiEmbedder)
    assert set(registry.provider_names()) >= {"local", "openai-compatible", "gemini", "none"}


def test_incomplete_settings_are_config_errors() -> None:
    with pytest.raises(ConfigError):
        registry.create_embedder(EmbeddingSettings(provider="openai-compatible"))
    with pytest.raises(ConfigError):
        registry.create_embedder(EmbeddingSettings(provider="gemini"))


def test_unknown_provider_lists_the_known_ones() -> None:
    settings = EmbeddingSettings.model_construct(provider="mystery")
    with pytest.raises(ConfigError, match="openai-compatible"):
        registry.create_embedder(settings)


class _Constant:
    model_id = "plugin:constant"
    dimension = 2

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return np.tile(np.array([[1.0, 0.0]], dtype=np.float32), (len(texts), 1))

    def embed_query(self, text: str) -> Vectors:
        return self.embed_documents([text])


@pytest.fixture
def plugin() -> Iterator[str]:
    registry.register("constant", lambda settings: _Constant())
    yield "constant"
    registry._FACTORIES.pop("constant")


def test_plugins_register_like_builtins(plugin: str) -> None:
    embedder = registry.create_embedder(EmbeddingSettings.model_construct(provider=plugin))
    assert isinstance(embedder, Embedder)
    assert embedder.model_id == "plugin:constant"


def test_model_ids_differ_across_providers_models_and_dimensions() -> None:
    variants = [
        EmbeddingSettings(),
        EmbeddingSettings(provider="openai-compatible", model="nomic-embed-text"),
        EmbeddingSettings(provider="openai-compatible", model="text-embedding-3-small"),
        EmbeddingSettings(
            provider="openai-compatible", model="text-embedding-3-small", dimension=9
        ),
        EmbeddingSettings(provider="gemini", api_key=SecretStr("k" * 20)),
        EmbeddingSettings(provider="gemini", api_key=SecretStr("k" * 20), dimension=768),
    ]
    ids = []
    for settings in variants:
        embedder = registry.create_embedder(settings)
        assert embedder is not None
        ids.append(embedder.model_id)
    assert len(set(ids)) == len(ids)


def test_resolving_a_hosted_provider_loads_no_onnxruntime() -> None:
    script = (
        "import sys\n"
        "from askdocs.embeddings.registry import create_embedder\n"
        "from askdocs.settings import EmbeddingSettings\n"
        "create_embedder(EmbeddingSettings(provider='openai-compatible', model='m'))\n"
        "create_embedder(EmbeddingSettings(provider='none'))\n"
        "print('onnxruntime' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "False"
