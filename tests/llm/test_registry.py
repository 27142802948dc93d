from __future__ import annotations

import pytest
from pydantic import SecretStr

from askdocs.errors import ConfigError
from askdocs.llm import ChatModel, chat_providers, create_chat_model, register_chat_provider
from askdocs.llm.anthropic import AnthropicModel
from askdocs.llm.gemini import GeminiModel
from askdocs.llm.openai_compat import OpenAICompatibleModel
from askdocs.settings import ChatSettings


def test_none_means_no_model() -> None:
    assert create_chat_model(ChatSettings(provider="none")) is None


@pytest.mark.parametrize(
    ("provider", "kind"),
    [
        ("openai-compatible", OpenAICompatibleModel),
        ("anthropic", AnthropicModel),
        ("gemini", GeminiModel),
    ],
)
def test_builtins_are_registered(provider: str, kind: type) -> None:
    settings = ChatSettings.model_validate(
        {"provider": provider, "model": "m", "api_key": SecretStr("k")}
    )
    model = create_chat_model(settings)
    assert isinstance(model, kind)
    assert isinstance(model, ChatModel)
    assert model.model_id == f"{provider}:m"
    assert provider in chat_providers()


def test_missing_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="needs a model"):
        create_chat_model(ChatSettings(provider="anthropic", api_key=SecretStr("k")))


def test_hosted_vendor_without_key_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="API key"):
        create_chat_model(ChatSettings(provider="gemini", model="m"))


def test_self_hosted_openai_compatible_needs_no_key() -> None:
    settings = ChatSettings(
        provider="openai-compatible", model="llama3", base_url="http://127.0.0.1:11434/v1"
    )
    assert create_chat_model(settings) is not None


def test_a_plugin_registers_like_a_builtin() -> None:
    def factory(settings: ChatSettings) -> ChatModel:
        return OpenAICompatibleModel(model="plug", base_url="http://127.0.0.1:1")

    register_chat_provider("plugin-test", factory)
    assert "plugin-test" in chat_providers()
