"""Failure modes shared by the hosted providers, each against a scripted vendor server.

Every failure must be an EmbeddingError with a stable code, the HTTP status and the
vendor's message where there is one, within the configured timeout, and never the key.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from askdocs.embeddings.gemini import GeminiEmbedder
from askdocs.embeddings.openai_compat import OpenAICompatibleEmbedder
from askdocs.embeddings.protocol import Embedder
from askdocs.errors import EmbeddingError
from tests.embeddings.conftest import API_KEY, gemini_script, openai_script
from tests.embeddings.scripted_server import Reply, Script, ScriptedServer
from tests.support.timing import bounded


@dataclass(frozen=True)
class Vendor:
    make: Callable[..., Embedder]
    ok: Callable[[int], Script]
    error: Callable[[int, str], object]  # the vendor's JSON error body
    vectors: Callable[[list[list[float]]], object]  # a success body holding these rows


def _openai(url: str, **options: Any) -> Embedder:
    return OpenAICompatibleEmbedder(
        model="text-embedding-3-small", base_url=f"{url}/v1", api_key=API_KEY, **options
    )


def _gemini(url: str, **options: Any) -> Embedder:
    return GeminiEmbedder(api_key=API_KEY, base_url=url, **options)


VENDORS = {
    "openai-compatible": Vendor(
        make=_openai,
        ok=openai_script,
        error=lambda status, msg: {"error": {"message": msg, "type": "error", "code": status}},
        vectors=lambda rows: {"data": [{"index": i, "embedding": r} for i, r in enumerate(rows)]},
    ),
    "gemini": Vendor(
        make=_gemini,
        ok=gemini_script,
        error=lambda status, msg: {"error": {"code": status, "message": msg, "status": "X"}},
        vectors=lambda rows: {"embeddings": [{"values": r} for r in rows]},
    ),
}


@pytest.fixture(params=sorted(VENDORS))
def vendor(request: pytest.FixtureRequest) -> Vendor:
    return VENDORS[request.param]


def _failure(embedder: Embedder, texts: list[str] | None = None) -> EmbeddingError:
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_documents(texts or ["a", "b"])
    assert API_KEY not in str(caught.value)
    assert API_KEY not in repr(caught.value.args)
    return caught.value


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (400, "embedding_http_error"),
        (401, "embedding_auth_failed"),
        (403, "embedding_auth_failed"),
        (429, "embedding_rate_limited"),
        (500, "embedding_http_error"),
        (503, "embedding_http_error"),
    ],
)
def test_http_errors_carry_status_and_vendor_message_not_the_key(
    server: ScriptedServer, vendor: Vendor, status: int, code: str
) -> None:
    message = f"Incorrect API key provided: {API_KEY}. Quota or model trouble."
    server.script = lambda _: Reply(status, vendor.error(status, message))
    error = _failure(vendor.make(server.url, dimension=4))
    assert error.code == code
    assert f"HTTP {status}" in error.message
    assert "Quota or model trouble" in error.message
    assert "[redacted]" in error.message
    assert error.status == 503


def test_rate_limit_mentions_retry_after(server: ScriptedServer, vendor: Vendor) -> None:
    body = vendor.error(429, "slow down")
    server.script = lambda _: Reply(429, body, headers={"retry-after": "17"})
    error = _failure(vendor.make(server.url, dimension=4))
    assert "retry after 17 s" in error.message


def test_plain_text_error_body(server: ScriptedServer, vendor: Vendor) -> None:
    server.script = lambda _: Reply(502, b"<html>Bad Gateway</html>")
    error = _failure(vendor.make(server.url, dimension=4))
    assert "HTTP 502" in error.message
    assert "Bad Gateway" in error.message


@pytest.mark.parametrize(
    "body",
    [
        b"this is not json",
        b"",
        [1, 2, 3],
        {"unexpected": True},
    ],
    ids=["text", "empty", "list", "object"],
)
def test_malformed_bodies(server: ScriptedServer, vendor: Vendor, body: object) -> None:
    server.script = lambda _: Reply(200, body)
    assert _failure(vendor.make(server.url, dimension=4)).code == "embedding_bad_response"


@pytest.mark.parametrize(
    "rows",
    [
        [[1.0, 0.0, 0.0, 0.0]],  # one vector for two inputs
        [[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0]],  # mixed sizes
        [[1.0, "x", 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]],  # not numbers
        [[1.0, True, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]],  # booleans are not numbers
        [[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]],  # zero vector
        [[1e39, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]],  # overflows float32
        [None, [1.0, 0.0, 0.0, 0.0]],
    ],
)
def test_malformed_vectors(server: ScriptedServer, vendor: Vendor, rows: object) -> None:
    server.script = lambda _: Reply(200, vendor.vectors(rows))  # type: ignore[arg-type]
    assert _failure(vendor.make(server.url, dimension=4)).code == "embedding_bad_response"


def test_wrong_dimension(server: ScriptedServer, vendor: Vendor) -> None:
    rows = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    server.script = lambda _: Reply(200, vendor.vectors(rows))
    error = _failure(vendor.make(server.url, dimension=4))
    assert error.code == "embedding_dimension_mismatch"
    assert "3-dimensional" in error.message


def test_dimension_change_after_probe_is_caught(server: ScriptedServer, vendor: Vendor) -> None:
    server.script = vendor.ok(8)
    embedder = vendor.make(server.url)
    assert embedder.dimension == 8
    server.script = vendor.ok(16)
    assert _failure(embedder).code == "embedding_dimension_mismatch"


def test_hang_times_out_within_the_bound(server: ScriptedServer, vendor: Vendor) -> None:
    server.script = lambda _: Reply(mode="hang")
    embedder = vendor.make(server.url, dimension=4, timeout=0.5)
    started = time.monotonic()
    error = _failure(embedder)
    assert error.code == "embedding_timeout"
    assert time.monotonic() - started < bounded(0.5)  # the server hangs for 60 s
    assert "0.5 s" in error.message


def test_query_uses_the_query_timeout(server: ScriptedServer, vendor: Vendor) -> None:
    server.script = lambda _: Reply(mode="hang")
    embedder = vendor.make(server.url, dimension=4, timeout=30.0, query_timeout=0.3)
    started = time.monotonic()
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_query("where is the config?")
    assert caught.value.code == "embedding_timeout"
    assert "within 0.3 s" in caught.value.message  # the query timeout, not the 30 s one
    assert time.monotonic() - started < bounded(0.3)


def test_trickling_body_hits_the_total_deadline(server: ScriptedServer, vendor: Vendor) -> None:
    server.script = lambda _: Reply(200, mode="trickle")
    embedder = vendor.make(server.url, dimension=4, timeout=0.6)
    started = time.monotonic()
    error = _failure(embedder)
    assert error.code == "embedding_timeout"
    assert "within 0.6 s" in error.message  # the total deadline, though bytes keep coming
    assert time.monotonic() - started < bounded(0.6)  # the trickle lasts 60 s


def test_refused_connection(vendor: Vendor) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago and has no listener
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    error = _failure(vendor.make(f"http://127.0.0.1:{port}", dimension=4, timeout=2.0))
    assert error.code == "embedding_unreachable"


def test_url_credentials_never_appear(vendor: Vendor) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    embedder = vendor.make(f"http://user:hunter22@127.0.0.1:{port}", dimension=4, timeout=2.0)
    assert "hunter22" not in _failure(embedder).message
