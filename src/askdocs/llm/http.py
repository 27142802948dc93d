"""The HTTP plumbing every provider shares: one bounded streaming POST that yields SSE events.

Every failure becomes a ``ModelError`` whose text is scrubbed of the API key (and anything
that looks like a key): HTTP error statuses, connection failures, a stream that stops
sending for longer than the idle timeout, and a stream that outlives the total deadline.
"""

from __future__ import annotations

import json
import re
import ssl
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

import certifi
import httpx

from askdocs.errors import ModelError
from askdocs.llm.sse import SSEDecoder, SSEEvent

MAX_ERROR_BODY = 4096
MAX_ERROR_TEXT = 300
_KEYLIKE = re.compile(
    r"sk-[A-Za-z0-9_\-]{6,}|AIza[0-9A-Za-z_\-]{10,}|(?i:(?:api[_-]?key|key|token|secret)=)[^&\s]+"
)


@dataclass(frozen=True)
class Timeouts:
    """``connect``: to open the connection; ``idle``: longest wait for the next bytes;
    ``total``: the longest one call may stream."""

    connect: float = 5.0
    idle: float = 30.0
    total: float = 120.0


@dataclass(frozen=True)
class Endpoint:
    """Where and how one provider call goes. ``secret`` is scrubbed from every error text."""

    provider: str
    url: str
    headers: dict[str, str]
    secret: str | None
    timeouts: Timeouts


def scrub(text: str, secrets: Iterable[str | None] = ()) -> str:
    """Remove secrets and key-shaped strings; bound the length."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    text = _KEYLIKE.sub("[redacted]", text)
    return text[:MAX_ERROR_TEXT]


async def stream_sse(endpoint: Endpoint, payload: dict[str, Any]) -> AsyncIterator[SSEEvent]:
    """POST ``payload`` as JSON and yield the response's server-sent events."""
    deadline = time.monotonic() + endpoint.timeouts.total
    try:
        async with (
            _client(endpoint) as client,
            client.stream("POST", endpoint.url, json=payload, headers=endpoint.headers) as response,
        ):
            if response.status_code >= 400:
                raise await _status_error(endpoint, response)
            decoder = SSEDecoder()
            async for line in response.aiter_lines():
                if time.monotonic() > deadline:
                    raise _error(endpoint, "the reply took longer than the total time limit")
                event = decoder.feed(line)
                if event is not None:
                    yield event
            last = decoder.flush()
            if last is not None:
                yield last
    except httpx.TimeoutException as exc:
        raise _error(endpoint, f"timed out ({type(exc).__name__})") from None
    except httpx.HTTPError as exc:
        raise _error(endpoint, f"connection failed ({type(exc).__name__}: {exc})") from None


def parse_json(endpoint: Endpoint, data: str) -> Any:
    """One event's JSON payload; malformed JSON is a ModelError."""
    try:
        return json.loads(data)
    except ValueError:
        raise _error(endpoint, "sent a malformed stream chunk") from None


def error_from_body(endpoint: Endpoint, body: Any, prefix: str = "reported an error") -> ModelError:
    """A ModelError from a vendor's error object (``{"error": {"message": ...}}`` shapes)."""
    return _error(endpoint, f"{prefix}: {_error_message(body)}")


def _error(endpoint: Endpoint, text: str) -> ModelError:
    message = scrub(f"chat model ({endpoint.provider}) {text}", [endpoint.secret])
    return ModelError(message)


async def _status_error(endpoint: Endpoint, response: httpx.Response) -> ModelError:
    raw = b""
    async for piece in response.aiter_bytes():
        raw += piece
        if len(raw) >= MAX_ERROR_BODY:
            break
    text = raw[:MAX_ERROR_BODY].decode("utf-8", "replace")
    try:
        detail = _error_message(json.loads(text))
    except ValueError:
        detail = text.strip() or response.reason_phrase
    return _error(endpoint, f"answered HTTP {response.status_code}: {detail}")


def _error_message(body: Any) -> str:
    if isinstance(body, list) and body:
        body = body[0]
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            return str(error.get("message") or error.get("type") or error)
        return str(error)
    return str(body)


def _client(endpoint: Endpoint) -> httpx.AsyncClient:
    timeouts = endpoint.timeouts
    timeout = httpx.Timeout(timeouts.idle, connect=timeouts.connect)
    return httpx.AsyncClient(timeout=timeout, verify=_ssl_context(), follow_redirects=False)


@cache
def _ssl_context() -> ssl.SSLContext:
    return ssl.create_default_context(cafile=certifi.where())
