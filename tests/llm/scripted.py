"""Scripted chat-model servers on 127.0.0.1 that speak each vendor's real streaming protocol.

The real provider clients run against them unchanged. A test scripts replies (status, raw
SSE chunks, an optional hang or abrupt close) and reads back what the server received.
Other test areas (the assistant) import these helpers too.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.http_server import serving

HANG_LIMIT_SECONDS = 30.0


@dataclass
class Reply:
    """One scripted response. After ``hang_after`` chunks the server stops sending (socket
    open) until released; after ``close_after`` chunks it drops the connection."""

    chunks: Sequence[bytes] = ()
    status: int = 200
    content_type: str = "text/event-stream"
    hang_after: int | None = None
    close_after: int | None = None


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class ScriptedServer:
    """Replies are served in order; a request with none left gets a 500."""

    replies: list[Reply] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    chunk_sent: threading.Event = field(default_factory=threading.Event)
    port: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)

    def next_reply(self, received: Received) -> Reply:
        with self._lock:
            self.received.append(received)
            if self.replies:
                return self.replies.pop(0)
        return Reply([b'{"error": {"message": "no scripted reply"}}'], 500, "application/json")


def _handler(state: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = state.next_reply(Received(self.path, headers, body))
            try:
                self._send(reply)
            except (BrokenPipeError, ConnectionResetError):
                return

        def _send(self, reply: Reply) -> None:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Connection", "close")
            self.end_headers()
            for index, chunk in enumerate(reply.chunks):
                if index == reply.hang_after:
                    state.release.wait(HANG_LIMIT_SECONDS)
                if index == reply.close_after:
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.wfile.write(chunk)
                self.wfile.flush()
                state.chunk_sent.set()

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


@contextmanager
def scripted_server() -> Iterator[ScriptedServer]:
    state = ScriptedServer()
    with serving(_handler(state)) as server:
        state.port = server.server_address[1]
        try:
            yield state
        finally:
            state.release.set()


def sse(data: Any, event: str | None = None) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data)
    prefix = f"event: {event}\n" if event else ""
    return f"{prefix}data: {text}\n\n".encode()


def openai_text(
    pieces: Sequence[str], finish: str = "stop", usage: tuple[int, int] = (11, 7)
) -> list[bytes]:
    """A chat-completions stream: role chunk, content chunks, finish, usage, [DONE]."""
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "scripted"}
    chunks = [sse({**base, "choices": [{"index": 0, "delta": {"role": "assistant"}}]})]
    chunks += [
        sse({**base, "choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]})
        for p in pieces
    ]
    chunks.append(sse({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}))
    tokens = {"prompt_tokens": usage[0], "completion_tokens": usage[1]}
    chunks.append(sse({**base, "choices": [], "usage": tokens}))
    chunks.append(sse("[DONE]"))
    return chunks


def anthropic_text(
    pieces: Sequence[str], stop_reason: str = "end_turn", usage: tuple[int, int] = (11, 7)
) -> list[bytes]:
    """A Messages stream with one text block."""
    start = {
        "type": "message_start",
        "message": {"id": "msg_1", "usage": {"input_tokens": usage[0], "output_tokens": 1}},
    }
    block = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "text", "text": ""},
    }
    chunks = [
        sse(start, "message_start"),
        sse(block, "content_block_start"),
        sse({"type": "ping"}, "ping"),
    ]
    chunks += [
        sse(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}},
            "content_block_delta",
        )
        for p in pieces
    ]
    chunks.append(sse({"type": "content_block_stop", "index": 0}, "content_block_stop"))
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": stop_reason},
        "usage": {"output_tokens": usage[1]},
    }
    chunks.append(sse(delta, "message_delta"))
    chunks.append(sse({"type": "message_stop"}, "message_stop"))
    return chunks


def gemini_text(
    pieces: Sequence[str], finish: str = "STOP", usage: tuple[int, int] = (11, 7)
) -> list[bytes]:
    """A streamGenerateContent?alt=sse stream; the last chunk carries finishReason and usage."""
    chunks = [
        sse({"candidates": [{"content": {"role": "model", "parts": [{"text": p}]}, "index": 0}]})
        for p in pieces
    ]
    meta = {"promptTokenCount": usage[0], "candidatesTokenCount": usage[1]}
    last = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": ""}]},
                "finishReason": finish,
                "index": 0,
            }
        ],
        "usageMetadata": meta,
    }
    chunks.append(sse(last))
    return chunks
