"""Resolve the configured embedding provider: one registry of name -> factory.

Built-in providers are registered exactly as a plugin would register its own::

    from askdocs.embeddings.registry import register
    register("my-provider", lambda settings: MyEmbedder(settings.model))

A factory returns an :class:`Embedder`, or ``None`` for keyword-only search (``none``).
Factories import their provider module only when called, so resolving ``none`` or a
hosted provider never loads onnxruntime.
"""

from __future__ import annotations

from collections.abc import Callable

from askdocs.embeddings.protocol import Embedder
from askdocs.embeddings.query_cache import QueryCache
from askdocs.errors import ConfigError
from askdocs.settings import EmbeddingSettings

Factory = Callable[[EmbeddingSettings], Embedder | None]

_FACTORIES: dict[str, Factory] = {}


def register(name: str, factory: Factory) -> None:
    """Make ``name`` a valid ``embedding.provider`` value (a later call replaces it)."""
    _FACTORIES[name] = factory


def provider_names() -> tuple[str, ...]:
    return tuple(sorted(_FACTORIES))


def create_embedder(settings: EmbeddingSettings) -> Embedder | None:
    """The embedder the settings describe, or ``None`` when the provider is ``none``."""
    factory = _FACTORIES.get(settings.provider)
    if factory is None:
        known = ", ".join(provider_names())
        raise ConfigError(f"unknown embedding provider {settings.provider!r} (known: {known})")
    return factory(settings)


def create_query_embedder(settings: EmbeddingSettings) -> QueryCache | None:
    """``create_embedder``'s embedder behind a cache of ``query_cache_size`` query vectors
    (what searches embed with), or ``None``."""
    embedder = create_embedder(settings)
    return QueryCache(embedder, settings.query_cache_size) if embedder is not None else None


def _local(settings: EmbeddingSettings) -> Embedder:
    from askdocs.embeddings import local

    return local.from_settings(settings)


def _local_int8(settings: EmbeddingSettings) -> Embedder:
    from askdocs.embeddings import local

    return local.from_settings(settings, precision="int8")


def _openai_compatible(settings: EmbeddingSettings) -> Embedder:
    from askdocs.embeddings import openai_compat

    return openai_compat.from_settings(settings)


def _gemini(settings: EmbeddingSettings) -> Embedder:
    from askdocs.embeddings import gemini

    return gemini.from_settings(settings)


def _none(settings: EmbeddingSettings) -> None:
    return None


register("local", _local)
register("local-int8", _local_int8)
register("openai-compatible", _openai_compatible)
register("gemini", _gemini)
register("none", _none)
