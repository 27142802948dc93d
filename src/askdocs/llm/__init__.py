"""Chat models behind one streaming protocol (see docs/llm.md).

from askdocs.llm import ChatRequest, ChatMessage, create_chat_model
model = create_chat_model(settings.chat)          # None when provider = "none"
async with contextlib.aclosing(model.stream(request)) as events:
    async for event in events: ...                # TextDelta | ToolCall | Finish
"""

from askdocs.llm.registry import chat_providers, create_chat_model, register_chat_provider
from askdocs.llm.types import (
    ChatEvent,
    ChatMessage,
    ChatModel,
    ChatRequest,
    Finish,
    FinishReason,
    TextDelta,
    ToolCall,
    ToolSpec,
    Usage,
)

__all__ = [
    "ChatEvent",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "Finish",
    "FinishReason",
    "TextDelta",
    "ToolCall",
    "ToolSpec",
    "Usage",
    "chat_providers",
    "create_chat_model",
    "register_chat_provider",
]
