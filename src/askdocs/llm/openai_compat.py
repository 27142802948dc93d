"""OpenAI-compatible chat completions, streamed (OpenAI, Ollama, vLLM, llama.cpp, LM Studio).

``POST {base_url}/chat/completions`` with ``stream: true``; the reply is SSE ``data:`` chunks
ending with ``data: [DONE]``. Text arrives in ``choices[0].delta.content``; tool calls arrive
as ``delta.tool_calls`` pieces keyed by ``index`` whose ``function.arguments`` strings are
concatenated; ``finish_reason`` and the final ``usage`` chunk close the reply.
"""

from __future__ import annotations

import json
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

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "content_filter": "content-filter",
    "tool_calls": "tool-calls",
    "function_call": "tool-calls",
}


class OpenAICompatibleModel:
    """A chat model behind an OpenAI-compatible ``/chat/completions`` endpoint."""

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeouts: Timeouts | None = None,
        temperature: float | None = None,
    ) -> None:
        self.model = model
        self.model_id = f"openai-compatible:{model}"
        headers = {"Accept": "text/event-stream"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        url = (base_url or DEFAULT_BASE_URL).rstrip("/") + "/chat/completions"
        self._endpoint = Endpoint(
            "openai-compatible", url, headers, api_key, timeouts or Timeouts()
        )
        self._temperature = temperature

    async def stream(self, request: ChatRequest) -> AsyncIterator[ChatEvent]:
        state = _StreamState()
        payload = build_payload(self.model, request, self._temperature)
        async for event in stream_sse(self._endpoint, payload):
            if event.data.strip() == "[DONE]":
                break
            for out in state.take(self._endpoint, parse_json(self._endpoint, event.data)):
                yield out
        for out in state.finish(self._endpoint):
            yield out


def build_payload(model: str, request: ChatRequest, temperature: float | None) -> dict[str, Any]:
    """The request body (pure)."""
    messages = [{"role": "system", "content": request.system}] if request.system else []
    messages += [_message(m) for m in request.messages]
    payload: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if request.tools:
        payload["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters,
                },
            }
            for t in request.tools
        ]
    if request.max_output_tokens is not None:
        payload["max_tokens"] = request.max_output_tokens
    chosen = request.temperature if request.temperature is not None else temperature
    if chosen is not None:
        payload["temperature"] = chosen
    return payload


def _message(message: ChatMessage) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        out["content"] = message.content or None
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
            }
            for call in message.tool_calls
        ]
    return out


@dataclass
class _PendingCall:
    id: str = ""
    name: str = ""
    arguments: str = ""


@dataclass
class _StreamState:
    calls: dict[int, _PendingCall] = field(default_factory=dict)
    reason: str | None = None
    usage: Usage = field(default_factory=Usage)

    def take(self, endpoint: Endpoint, chunk: Any) -> list[ChatEvent]:
        if not isinstance(chunk, dict):
            raise error_from_body(endpoint, chunk, "sent an unexpected chunk")
        if "error" in chunk:
            raise error_from_body(endpoint, chunk)
        if isinstance(chunk.get("usage"), dict):
            usage = chunk["usage"]
            self.usage = Usage(
                int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
            )
        out: list[ChatEvent] = []
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                out.append(TextDelta(str(delta["content"])))
            for piece in delta.get("tool_calls") or []:
                self._add_call(piece)
            if choice.get("finish_reason"):
                self.reason = str(choice["finish_reason"])
        return out

    def _add_call(self, piece: dict[str, Any]) -> None:
        pending = self.calls.setdefault(int(piece.get("index") or 0), _PendingCall())
        pending.id = piece.get("id") or pending.id
        function = piece.get("function") or {}
        pending.name = function.get("name") or pending.name
        pending.arguments += function.get("arguments") or ""

    def finish(self, endpoint: Endpoint) -> list[ChatEvent]:
        if self.reason is None:
            raise error_from_body(endpoint, "no finish reason", "ended the stream early")
        out: list[ChatEvent] = [
            ToolCall(
                call.id or f"call_{index}",
                call.name,
                parse_arguments(endpoint, call.arguments),
            )
            for index, call in sorted(self.calls.items())
        ]
        reason = _FINISH.get(self.reason, "other")
        if out and reason == "stop":
            reason = "tool-calls"
        out.append(Finish(reason, self.usage))
        return out
