"""Chat providers by name: built-ins are registered exactly like plugins would be.

``create_chat_model(settings.chat)`` returns the configured ``ChatModel``, or None when the
provider is ``none`` (Ask AI then answers extractively).
"""

from __future__ import annotations

from collections.abc import Callable

from askdocs.errors import ConfigError
from askdocs.llm.anthropic import AnthropicModel
from askdocs.llm.gemini import GeminiModel
from askdocs.llm.http import Timeouts
from askdocs.llm.openai_compat import OpenAICompatibleModel
from askdocs.llm.types import ChatModel
from askdocs.settings import ChatSettings

ChatFactory = Callable[[ChatSettings], ChatModel]
_FACTORIES: dict[str, ChatFactory] = {}


def register_chat_provider(name: str, factory: ChatFactory) -> None:
    """Make ``provider = "<name>"`` build models with ``factory``."""
    _FACTORIES[name] = factory


def chat_providers() -> list[str]:
    return sorted(_FACTORIES)


def create_chat_model(settings: ChatSettings) -> ChatModel | None:
    if settings.provider == "none":
        return None
    factory = _FACTORIES.get(settings.provider)
    if factory is None:
        raise ConfigError(f"unknown chat provider {settings.provider!r}")
    return factory(settings)


def timeouts(settings: ChatSettings) -> Timeouts:
    return Timeouts(
        connect=settings.connect_timeout_seconds,
        idle=settings.idle_timeout_seconds,
        total=settings.timeout_seconds,
    )


def _model(settings: ChatSettings) -> str:
    if not settings.model:
        raise ConfigError(f"chat provider {settings.provider!r} needs a model (chat.model)")
    return settings.model


def _key(settings: ChatSettings, required: bool) -> str | None:
    key = settings.api_key.get_secret_value() if settings.api_key else None
    if required and not key:
        raise ConfigError(f"chat provider {settings.provider!r} needs an API key (chat.api_key)")
    return key


def _openai(settings: ChatSettings) -> ChatModel:
    return OpenAICompatibleModel(
        model=_model(settings),
        base_url=settings.base_url,
        api_key=_key(settings, required=settings.base_url is None),
        timeouts=timeouts(settings),
        temperature=settings.temperature,
    )


def _anthropic(settings: ChatSettings) -> ChatModel:
    return AnthropicModel(
        model=_model(settings),
        api_key=_key(settings, required=settings.base_url is None),
        base_url=settings.base_url,
        timeouts=timeouts(settings),
        default_max_tokens=settings.max_output_tokens,
        temperature=settings.temperature,
    )


def _gemini(settings: ChatSettings) -> ChatModel:
    return GeminiModel(
        model=_model(settings),
        api_key=_key(settings, required=settings.base_url is None),
        base_url=settings.base_url,
        timeouts=timeouts(settings),
        temperature=settings.temperature,
    )


register_chat_provider("openai-compatible", _openai)
register_chat_provider("anthropic", _anthropic)
register_chat_provider("gemini", _gemini)
