"""The Vercel AI SDK UI message stream (protocol v1), as the ``ai`` package validates it.

Each frame is ``data: <json>\\n\\n``; the stream ends with ``data: [DONE]``. Payloads are
camelCase with nulls omitted. Pure: these functions only build bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from askdocs.llm.types import FinishReason, Usage

HEADERS: dict[str, str] = {
    "Cache-Control": "private, no-cache, no-transform",
    "Connection": "keep-alive",
    "X-Accel-Buffering": "no",
    "x-vercel-ai-ui-message-stream": "v1",
}
MEDIA_TYPE = "text/event-stream"
DONE = b"data: [DONE]\n\n"


def frame(payload: Mapping[str, Any]) -> bytes:
    body = {key: value for key, value in payload.items() if value is not None}
    return (
        b"data: " + json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"
    )


def start(message_id: str) -> bytes:
    return frame({"type": "start", "messageId": message_id})


def text_start(part_id: str) -> bytes:
    return frame({"type": "text-start", "id": part_id})


def text_delta(part_id: str, delta: str) -> bytes:
    return frame({"type": "text-delta", "id": part_id, "delta": delta})


def text_end(part_id: str) -> bytes:
    return frame({"type": "text-end", "id": part_id})


def data(
    name: str, payload: Mapping[str, Any], *, transient: bool = True, part_id: str | None = None
) -> bytes:
    """A custom ``data-<name>`` part; transient parts reach ``onData`` but not the message."""
    return frame(
        {
            "type": f"data-{name}",
            "id": part_id,
            "data": dict(payload),
            "transient": transient or None,
        }
    )


def tool_status(caption: str) -> bytes:
    return data("toolStatus", {"caption": caption})


def proposal(payload: Mapping[str, Any]) -> bytes:
    """A change waiting for the person: ``{id, operation, summary, diff?, organisationId?,
    arguments, token}``. Transient: never part of the persisted message, never replayed."""
    return data("proposal", payload, part_id=str(payload["id"]))


def sources(items: Sequence[Mapping[str, str]]) -> bytes:
    """The documentation sections injected into this turn, numbered as the model saw them
    (``[1]`` is the first): ``{sources: [{url, title, heading}]}``, so a client links the
    reply's ``[n]`` markers. Transient: the persisted reply keeps them in its metadata."""
    return data("sources", {"sources": [dict(item) for item in items]})


def thread_title(thread_id: str, title: str) -> bytes:
    return data("threadTitle", {"threadId": thread_id, "title": title})


def error(text: str) -> bytes:
    """The protocol's ``error`` chunk: the AI SDK reports it through ``onError``."""
    return frame({"type": "error", "errorText": text})


def finish(reason: FinishReason, usage: Usage, timings: Mapping[str, int] | None = None) -> bytes:
    """``finish`` with the usage (and, when known, the turn's timings) as message metadata."""
    metadata: dict[str, Any] = {
        "usage": {"inputTokens": usage.input_tokens, "outputTokens": usage.output_tokens}
    }
    if timings:
        metadata["timings"] = dict(timings)
    return frame({"type": "finish", "finishReason": reason, "messageMetadata": metadata})
