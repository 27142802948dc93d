"""Gemini ``streamGenerateContent`` with ``alt=sse``.

``POST {base_url}/v1beta/models/{model}:streamGenerateContent?alt=sse``; the key goes in the
``x-goog-api-key`` header (never the URL). Each ``data:`` event is a GenerateContentResponse:
``candidates[0].content.parts`` hold ``text`` or ``functionCall`` parts (``thought`` parts
are skipped), ``finishReason`` ends the candidate, ``usageMetadata`` counts tokens.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from askdocs.llm.http import Endpoint, Timeouts, error_from_body, parse_json, stream_sse
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

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
_FILTERED = {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"}


class GeminiModel:
    """Gemini models through the Generative Language API."""

    def __init__(
        self,
        *,
        model: str,
        api_key: str | None,
        base_url: str | None = None,
        timeouts: Timeouts | None = None,
        temperature: float | None = None,
    ) -> None:
        self.model = model.removeprefix("models/")
        self.model_id = f"gemini:{self.model}"
        headers = {"Accept": "text/event-stream"}
        if api_key:
            headers["x-goog-api-key"] = api_key
        base = (base_url or DEFAULT_BASE_URL).rstrip("/")
        url = f"{base}/v1beta/models/{self.model}:streamGenerateContent?alt=sse"
        self._endpoint = Endpoint("gemini", url, headers, api_key, timeouts or Timeouts())
        self._temperature = temperature

    async def stream(self, request: ChatRequest) -> AsyncIterator[ChatEvent]:
        state = _StreamState()
        payload = build_payload(request, self._temperature)
        async for event in stream_sse(self._endpoint, payload):
            for out in state.take(self._endpoint, parse_json(self._endpoint, event.data)):
                yield out
        if state.reason is None:
            raise error_from_body(self._endpoint, "no finishReason", "ended the stream early")
        yield Finish(state.finish_reason(), state.usage)


def build_payload(request: ChatRequest, temperature: float | None) -> dict[str, Any]:
    """The request body (pure). Tool results name their function (Gemini matches by name)."""
    payload: dict[str, Any] = {"contents": _contents(request.messages)}
    if request.system:
        payload["systemInstruction"] = {"parts": [{"text": request.system}]}
    if request.tools:
        payload["tools"] = [
            {
                "functionDeclarations": [
                    {
                        "name": t.name,
                        "description": t.description,
                        "parametersJsonSchema": t.parameters,
                    }
                    for t in request.tools
                ]
            }
        ]
    config: dict[str, Any] = {}
    if request.max_output_tokens is not None:
        config["maxOutputTokens"] = request.max_output_tokens
    chosen = request.temperature if request.temperature is not None else temperature
    if chosen is not None:
        config["temperature"] = chosen
    if config:
        payload["generationConfig"] = config
    return payload


def _contents(messages: tuple[ChatMessage, ...]) -> list[dict[str, Any]]:
    names = {c.id: c.name for m in messages for c in m.tool_calls}
    out: list[dict[str, Any]] = []
    for message in messages:
        role = "model" if message.role == "assistant" else "user"
        parts = _parts(message, names)
        if out and out[-1]["role"] == role and message.role == "tool":
            out[-1]["parts"].extend(parts)
        else:
            out.append({"role": role, "parts": parts})
    return out


def _parts(message: ChatMessage, names: dict[str, str]) -> list[dict[str, Any]]:
    if message.role == "tool":
        name = names.get(message.tool_call_id or "", message.tool_call_id or "tool")
        response = {"name": name, "response": {"content": message.content}}
        return [{"functionResponse": response}]
    parts: list[dict[str, Any]] = [{"text": message.content}] if message.content else []
    parts += [{"functionCall": {"name": c.name, "args": c.arguments}} for c in message.tool_calls]
    return parts


@dataclass
class _StreamState:
    reason: str | None = None
    calls: int = 0
    usage: Usage = field(default_factory=Usage)

    def finish_reason(self) -> FinishReason:
        if self.reason in _FILTERED:
            return "content-filter"
        if self.reason == "MAX_TOKENS":
            return "length"
        if self.reason == "STOP":
            return "tool-calls" if self.calls else "stop"
        return "other"

    def take(self, endpoint: Endpoint, body: Any) -> list[ChatEvent]:
        if isinstance(body, list) and len(body) == 1:
            body = body[0]
        if not isinstance(body, dict):
            raise error_from_body(endpoint, body, "sent an unexpected chunk")
        if "error" in body:
            raise error_from_body(endpoint, body)
        self._take_usage(body.get("usageMetadata") or {})
        blocked = (body.get("promptFeedback") or {}).get("blockReason")
        if blocked:
            self.reason = "SAFETY"
        out: list[ChatEvent] = []
        for candidate in (body.get("candidates") or [])[:1]:
            out += self._parts(((candidate.get("content") or {}).get("parts")) or [])
            self.reason = candidate.get("finishReason") or self.reason
        return out

    def _take_usage(self, meta: dict[str, Any]) -> None:
        if meta:
            self.usage = Usage(
                int(meta.get("promptTokenCount") or 0), int(meta.get("candidatesTokenCount") or 0)
            )

    def _parts(self, parts: list[dict[str, Any]]) -> list[ChatEvent]:
        out: list[ChatEvent] = []
        for part in parts:
            if part.get("thought"):
                continue
            if part.get("text"):
                out.append(TextDelta(str(part["text"])))
            call = part.get("functionCall")
            if isinstance(call, dict):
                self.calls += 1
                call_id = str(call.get("id") or f"call_{self.calls}")
                args = call.get("args") if isinstance(call.get("args"), dict) else {}
                out.append(ToolCall(call_id, str(call.get("name") or ""), dict(args or {})))
        return out
