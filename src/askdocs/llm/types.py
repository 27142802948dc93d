"""The chat model protocol and the values that cross it.

A ``ChatModel`` turns a ``ChatRequest`` (system prompt, conversation, optional tools) into a
stream of ``ChatEvent``: ``TextDelta`` pieces of the reply, complete ``ToolCall``s, and one
final ``Finish`` with the mapped stop reason and token usage. Providers raise ``ModelError``
(``askdocs.errors``) for every failure, with text that never holds the API key.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["user", "assistant", "tool"]
FinishReason = Literal["stop", "length", "content-filter", "tool-calls", "error", "other"]


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model may call: a name, what it is for, and a JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """A complete tool call from the model (arguments already parsed from JSON)."""

    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ChatMessage:
    """One turn. Assistant turns may carry tool calls; tool turns answer one by id."""

    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None


@dataclass(frozen=True)
class ChatRequest:
    """Everything one model call needs. ``max_output_tokens=None`` sends no ceiling where the
    vendor allows that (Anthropic always needs one: the model's configured default is used)."""

    system: str
    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolSpec, ...] = ()
    max_output_tokens: int | None = None
    temperature: float | None = None


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class Finish:
    reason: FinishReason
    usage: Usage = field(default_factory=Usage)


ChatEvent = TextDelta | ToolCall | Finish


@runtime_checkable
class ChatModel(Protocol):
    """A streaming chat model. ``model_id`` is ``"<provider>:<model>"``."""

    @property
    def model_id(self) -> str: ...

    def stream(self, request: ChatRequest) -> AsyncIterator[ChatEvent]:
        """Yield the reply as events; the last one is a ``Finish``. Raises ``ModelError``."""
        ...
