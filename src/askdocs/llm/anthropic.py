"""Anthropic Messages API, streamed.

``POST {base_url}/v1/messages`` with ``stream: true``. Events: ``message_start`` (input
usage), ``content_block_start`` (a ``text`` or ``tool_use`` block), ``content_block_delta``
(``text_delta`` or ``input_json_delta``), ``content_block_stop``, ``message_delta``
(``stop_reason``, output usage), ``message_stop``, ``ping`` and ``error``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from askdocs.llm.http import Endpoint, Timeouts, error_from_body, parse_json, stream_sse
from askdocs.llm.toolargs import parse_arguments
from askdocs.llm.types import (
    ChatEvent,
    ChatMessage,
    ChatRequest,
    Finish,
    FinishReason,
    TextDelta,
    ToolCall,
    Usage,
)

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
_FINISH: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool-calls",
    "refusal": "content-filter",
}


class AnthropicModel:
    """Claude models through the Messages API. ``max_tokens`` is always sent (the API needs it):
    the request's ``max_output_tokens``, else ``default_max_tokens``."""

    def __init__(
        self,
        *,
        model: str,
        api_key: str | None,
        base_url: str | None = None,
        timeouts: Timeouts | None = None,
        default_max_tokens: int = 1024,
        temperature: float | None = None,
    ) -> None:
        self.model = model
        self.model_id = f"anthropic:{model}"
        headers = {"anthropic-version": API_VERSION, "Accept": "text/event-stream"}
        if api_key:
            headers["x-api-key"] = api_key
        url = (base_url or DEFAULT_BASE_URL).rstrip("/") + "/v1/messages"
        self._endpoint = Endpoint("anthropic", url, headers, api_key, timeouts or Timeouts())
        self._default_max_tokens = default_max_tokens
        self._temperature = temperature

    async def stream(self, request: ChatRequest) -> AsyncIterator[ChatEvent]:
        state = _StreamState()
        payload = build_payload(self.model, request, self._default_max_tokens, self._temperature)
        async for event in stream_sse(self._endpoint, payload):
            body = parse_json(self._endpoint, event.data)
            for out in state.take(self._endpoint, body):
                yield out
            if state.stopped:
                break
        if not state.stopped:
            raise error_from_body(self._endpoint, "no message_stop", "ended the stream early")
        yield Finish(_FINISH.get(state.reason or "", "other"), state.usage())


def build_payload(
    model: str, request: ChatRequest, default_max_tokens: int, temperature: float | None
) -> dict[str, Any]:
    """The request body (pure). Consecutive tool results merge into one user turn."""
    payload: dict[str, Any] = {
        "model": model,
        "max_tokens": request.max_output_tokens or default_max_tokens,
        "messages": _messages(request.messages),
        "stream": True,
    }
    if request.system:
        payload["system"] = request.system
    if request.tools:
        payload["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.parameters}
            for t in request.tools
        ]
    chosen = request.temperature if request.temperature is not None else temperature
    if chosen is not None:
        payload["temperature"] = chosen
    return payload


def _messages(messages: tuple[ChatMessage, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for message in messages:
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if out and out[-1]["role"] == role and message.role == "tool":
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    return out


def _blocks(message: ChatMessage) -> list[dict[str, Any]]:
    if message.role == "tool":
        return [
            {"type": "tool_result", "tool_use_id": message.tool_call_id, "content": message.content}
        ]
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
        for c in message.tool_calls
    ]
    return blocks


@dataclass
class _Block:
    kind: str
    id: str = ""
    name: str = ""
    json: str = ""


@dataclass
class _StreamState:
    blocks: dict[int, _Block] = field(default_factory=dict)
    reason: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    stopped: bool = False

    def usage(self) -> Usage:
        return Usage(self.input_tokens, self.output_tokens)

    def take(self, endpoint: Endpoint, body: Any) -> list[ChatEvent]:
        if not isinstance(body, dict):
            raise error_from_body(endpoint, body, "sent an unexpected event")
        kind = body.get("type")
        if kind == "error":
            raise error_from_body(endpoint, body)
        if kind == "message_start":
            usage = (body.get("message") or {}).get("usage") or {}
            self.input_tokens = int(usage.get("input_tokens") or 0)
            self.output_tokens = int(usage.get("output_tokens") or 0)
        elif kind == "content_block_start":
            block = body.get("content_block") or {}
            self.blocks[int(body.get("index") or 0)] = _Block(
                str(block.get("type")), str(block.get("id") or ""), str(block.get("name") or "")
            )
        elif kind == "content_block_delta":
            return self._delta(int(body.get("index") or 0), body.get("delta") or {})
        elif kind == "content_block_stop":
            return self._stop_block(endpoint, int(body.get("index") or 0))
        elif kind == "message_delta":
            self.reason = (body.get("delta") or {}).get("stop_reason") or self.reason
            usage = body.get("usage") or {}
            self.output_tokens = int(usage.get("output_tokens") or self.output_tokens)
        elif kind == "message_stop":
            self.stopped = True
        return []

    def _delta(self, index: int, delta: dict[str, Any]) -> list[ChatEvent]:
        if delta.get("type") == "text_delta" and delta.get("text"):
            return [TextDelta(str(delta["text"]))]
        if delta.get("type") == "input_json_delta":
            block = self.blocks.setdefault(index, _Block("tool_use"))
            block.json += str(delta.get("partial_json") or "")
        return []

    def _stop_block(self, endpoint: Endpoint, index: int) -> list[ChatEvent]:
        block = self.blocks.pop(index, None)
        if block is None or block.kind != "tool_use":
            return []
        return [ToolCall(block.id, block.name, parse_arguments(endpoint, block.json))]
