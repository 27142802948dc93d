"""Scripted model and embedding servers on 127.0.0.1 speaking the vendors' real protocols.

``ModelServer`` answers OpenAI ``/chat/completions`` (SSE) and Anthropic ``/messages`` (SSE)
from a queue of ``Script``s; title requests are answered separately so tests can script the
turn and the title independently. ``EmbeddingServer`` answers OpenAI ``/embeddings`` and can
be told to hang. Every request body is recorded for assertions.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import numpy as np

from tests.support.http_server import serving

HANG_LIMIT_SECONDS = 30.0


@dataclass
class Call:
    name: str
    arguments: dict[str, Any]


@dataclass
class Script:
    """One model reply: text pieces, then tool calls, then a finish reason."""

    pieces: list[str] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    finish: str | None = None  # vendor-neutral: stop | length | tool_calls | content_filter
    delay: float = 0.0  # seconds between pieces
    usage: tuple[int, int] = (12, 7)
    status: int = 200
    hold: threading.Event | None = None  # after the first text piece, wait until it is set


HOLD_LIMIT_SECONDS = 120.0  # a held reply goes on by itself after this long


@dataclass
class ModelServer:
    scripts: list[Script] = field(default_factory=list)
    title: Script | None = field(default_factory=lambda: Script(["Installing askdocs quickly"]))
    requests: list[dict[str, Any]] = field(default_factory=list)
    title_requests: list[dict[str, Any]] = field(default_factory=list)
    pieces_sent: threading.Event = field(default_factory=threading.Event)
    text_chunks: list[bytes] = field(default_factory=list)  # every text piece, as sent
    responder: Callable[[dict[str, Any]], Script] | None = None  # answers when no script waits
    port: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def script(self, *scripts: Script) -> None:
        with self._lock:
            self.scripts.extend(scripts)

    def next(self, body: dict[str, Any]) -> Script:
        with self._lock:
            if _is_title(body):
                self.title_requests.append(body)
                return self.title or Script(status=500)
            self.requests.append(body)
            if self.scripts:
                return self.scripts.pop(0)
        return self.responder(body) if self.responder else Script(["Default answer."])


def _is_title(body: dict[str, Any]) -> bool:
    system = body.get("system")
    if system is None:
        messages = body.get("messages") or [{}]
        system = messages[0].get("content") if messages[0].get("role") == "system" else ""
    return str(system).startswith("Write a title")


def sse(data: Any, event: str | None = None) -> bytes:
    prefix = f"event: {event}\n" if event else ""
    text = data if isinstance(data, str) else json.dumps(data)
    return f"{prefix}data: {text}\n\n".encode()


# -- OpenAI chat completions ------------------------------------------------------------

Frame = tuple[bytes, float, bool]  # bytes, delay before sending, whether it carries text
_OPENAI_FINISH = {"stop": "stop", "length": "length", "tool_calls": "tool_calls"}


def _plain(chunk: bytes) -> Frame:
    return chunk, 0.0, False


def _openai_chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    chunk = {"id": "c1", "object": "chat.completion.chunk", "model": "scripted", "created": 1}
    return sse({**chunk, "choices": [choice]})


def _openai_call(index: int, call: Call) -> Iterator[Frame]:
    head = {"index": index, "id": f"call_{index}", "type": "function"}
    yield _plain(_openai_chunk({"tool_calls": [{**head, "function": {"name": call.name}}]}))
    args = json.dumps(call.arguments)
    for part in (args[: len(args) // 2], args[len(args) // 2 :]):
        piece = {"index": index, "function": {"arguments": part}}
        yield _plain(_openai_chunk({"tool_calls": [piece]}))


def openai_frames(script: Script) -> Iterator[Frame]:
    yield _plain(_openai_chunk({"role": "assistant", "content": ""}))
    for piece in script.pieces:
        yield _openai_chunk({"content": piece}), script.delay, True
    for index, call in enumerate(script.calls):
        yield from _openai_call(index, call)
    finish = script.finish or ("tool_calls" if script.calls else "stop")
    yield _plain(_openai_chunk({}, _OPENAI_FINISH.get(finish, finish)))
    prompt, completion = script.usage
    usage = {"prompt_tokens": prompt, "completion_tokens": completion}
    yield _plain(
        sse(
            {
                "id": "c1",
                "object": "chat.completion.chunk",
                "choices": [],
                "usage": {**usage, "total_tokens": prompt + completion},
            }
        )
    )
    yield _plain(b"data: [DONE]\n\n")


# -- Anthropic messages -----------------------------------------------------------------

_ANTHROPIC_STOP = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use"}


def _event(data: dict[str, Any]) -> Frame:
    return _plain(sse(data, str(data["type"])))


def _anthropic_text(script: Script) -> Iterator[Frame]:
    start = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "text", "text": ""},
    }
    yield _event(start)
    for piece in script.pieces:
        delta = {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": piece},
        }
        yield sse(delta, "content_block_delta"), script.delay, True
    yield _event({"type": "content_block_stop", "index": 0})


def _anthropic_call(at: int, offset: int, call: Call) -> Iterator[Frame]:
    block = {"type": "tool_use", "id": f"toolu_{offset}", "name": call.name, "input": {}}
    yield _event({"type": "content_block_start", "index": at, "content_block": block})
    delta = {"type": "input_json_delta", "partial_json": json.dumps(call.arguments)}
    yield _event({"type": "content_block_delta", "index": at, "delta": delta})
    yield _event({"type": "content_block_stop", "index": at})


def anthropic_frames(script: Script) -> Iterator[Frame]:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "scripted",
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": script.usage[0], "output_tokens": 1},
    }
    yield _event({"type": "message_start", "message": message})
    if script.pieces:
        yield from _anthropic_text(script)
    first = 1 if script.pieces else 0
    for offset, call in enumerate(script.calls):
        yield from _anthropic_call(first + offset, offset, call)
    finish = script.finish or ("tool_calls" if script.calls else "stop")
    stop = {"stop_reason": _ANTHROPIC_STOP.get(finish, finish), "stop_sequence": None}
    yield _event(
        {"type": "message_delta", "delta": stop, "usage": {"output_tokens": script.usage[1]}}
    )
    yield _event({"type": "message_stop"})


def _model_handler(state: ModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            script = state.next(body)
            frames = anthropic_frames if self.path.endswith("/messages") else openai_frames
            try:
                self._send(script, frames(script))
            except (BrokenPipeError, ConnectionResetError):
                return

        def _send(self, script: Script, frames: Iterator[Frame]) -> None:
            if script.status != 200:
                payload = json.dumps({"error": {"message": "scripted failure"}}).encode()
                self.send_response(script.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            held = script.hold
            for chunk, delay, is_text in frames:
                if delay:
                    time.sleep(delay)
                self.wfile.write(chunk)
                self.wfile.flush()
                if is_text:
                    state.text_chunks.append(chunk)
                    state.pieces_sent.set()
                    if held is not None:
                        held.wait(HOLD_LIMIT_SECONDS)
                        held = None
            self.close_connection = True

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


# -- OpenAI embeddings ------------------------------------------------------------------


@dataclass
class EmbeddingServer:
    dimension: int = 64
    hang: threading.Event = field(default_factory=threading.Event)
    hang_documents: threading.Event = field(default_factory=threading.Event)  # not queries
    release: threading.Event = field(default_factory=threading.Event)
    hung: threading.Event = field(default_factory=threading.Event)
    inputs: list[str] = field(default_factory=list)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def vector(self, text: str) -> list[float]:
        """A deterministic pseudo-embedding: hashed word counts, normalised."""
        values = np.zeros(self.dimension, dtype=np.float64)
        for word in text.lower().split():
            digest = hashlib.sha256(word.strip(".,:;?!()").encode()).digest()
            values[digest[0] % self.dimension] += 1.0
        norm = float(np.linalg.norm(values)) or 1.0
        return [float(v) for v in values / norm]


def _embedding_handler(state: EmbeddingServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            state.inputs.extend(texts)
            documents = any("\n\n" in text for text in texts)  # "{heading path}\n\n{text}"
            if state.hang.is_set() or (state.hang_documents.is_set() and documents):
                state.hung.set()
                state.release.wait(HANG_LIMIT_SECONDS)  # then answer, late
            data = [
                {"object": "embedding", "index": i, "embedding": state.vector(t)}
                for i, t in enumerate(texts)
            ]
            payload = json.dumps(
                {
                    "object": "list",
                    "data": data,
                    "model": body.get("model"),
                    "usage": {"prompt_tokens": 1, "total_tokens": 1},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


@contextmanager
def model_server() -> Iterator[ModelServer]:
    state = ModelServer()
    with serving(_model_handler(state)) as server:
        state.port = server.server_address[1]
        yield state


@contextmanager
def embedding_server() -> Iterator[EmbeddingServer]:
    state = EmbeddingServer()
    with serving(_embedding_handler(state)) as server:
        state.port = server.server_address[1]
        try:
            yield state
        finally:
            state.release.set()
