"""Defect 1 and 7 of the hardening battery: body limits before any handler, and the
security headers on every response type."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.types import ASGIApp, Receive, Scope, Send

from askdocs.middleware import BodyLimit, SecurityHeaders
from tests.server.conftest import Rig, client

pytestmark = pytest.mark.anyio
LIMIT = 4096
ROUTES = (
    "/api/v1/assistant/threads",
    "/api/v1/assistant/chat",
    "/api/v1/admin/proposals/write-page",
)


class _Recorder:
    """An ASGI app that reads its whole body and says how much it saw."""

    def __init__(self) -> None:
        self.called = False
        self.seen = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise RuntimeError("client left")
            self.seen += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _client(app: object) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")  # type: ignore[arg-type]


async def _chunks(count: int, size: int) -> AsyncIterator[bytes]:
    for _ in range(count):
        yield b"x" * size


@pytest.mark.parametrize("path", ROUTES)
async def test_unauthenticated_large_body_is_413_before_auth(rig: Rig, path: str) -> None:
    app = rig.app(server=rig.settings.server.model_copy(update={"max_body_bytes": LIMIT}))
    async with client(app) as http:
        response = await http.post(path, content=b"x" * (LIMIT + 1))
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ROUTES)
async def test_unauthenticated_streamed_body_is_413_before_auth(rig: Rig, path: str) -> None:
    app = rig.app(server=rig.settings.server.model_copy(update={"max_body_bytes": LIMIT}))
    async with client(app) as http:
        response = await http.post(path, content=_chunks(100, 1000))
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"


async def test_declared_length_over_limit_never_reaches_the_app() -> None:
    inner = _Recorder()
    async with _client(BodyLimit(inner, LIMIT)) as http:
        response = await http.post("/", content=b"x" * (LIMIT + 1))
    assert (response.status_code, inner.called) == (413, False)


async def test_streamed_body_stops_being_read_at_the_limit() -> None:
    inner = _Recorder()
    async with _client(BodyLimit(inner, LIMIT)) as http:
        response = await http.post("/", content=_chunks(1000, 1000))
    assert response.status_code == 413
    assert inner.seen <= LIMIT


async def test_body_within_limit_passes_whole() -> None:
    inner = _Recorder()
    async with _client(BodyLimit(inner, LIMIT)) as http:
        response = await http.post("/", content=_chunks(4, 1000))
    assert (response.status_code, inner.seen) == (200, 4000)


async def test_nosniff_on_json_html_and_errors(rig: Rig) -> None:
    async with client(rig.app()) as http:
        responses = [
            await http.get("/healthz"),
            await http.get("/api/search", params={"q": ""}),
            await http.get("/nowhere"),
            await http.get("/"),
        ]
    assert [r.headers.get("x-content-type-options") for r in responses] == ["nosniff"] * 4


async def test_www_authenticate_on_rest_401(rig: Rig) -> None:
    async with client(rig.app()) as http:
        response = await http.get("/api/v1/assistant/threads")
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert response.headers["cache-control"] == "no-store"


async def _cacheable(scope: Scope, receive: Receive, send: Send) -> None:
    headers = [(b"cache-control", b"public, max-age=600")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"{}"})


async def test_no_store_on_authenticated_success() -> None:
    async with _client(SecurityHeaders(_cacheable)) as http:
        bearer = await http.get("/x", headers={"Authorization": "Bearer t"})
        api_v1 = await http.get("/api/v1/assistant/threads")
        public = await http.get("/x")
    assert bearer.headers["cache-control"] == "no-store"
    assert api_v1.headers["cache-control"] == "no-store"
    assert public.headers["cache-control"] == "public, max-age=600"


def _answering(cache_control: bytes) -> ASGIApp:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(b"cache-control", cache_control)]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"{}"})

    return app


@pytest.mark.parametrize(
    ("chosen", "sent"),
    [
        (b"private, no-cache, no-transform", "private, no-cache, no-transform"),  # the stream
        (b"private, no-cache", "private, no-cache"),  # an asset: ETag revalidation
        (b"no-store", "no-store"),
        (b"no-cache", "no-store"),  # a shared cache could still keep it
        (b"private, max-age=60", "no-store"),  # reuse without revalidation
    ],
)
async def test_a_revalidating_private_policy_survives_authentication(
    chosen: bytes, sent: str
) -> None:
    async with _client(SecurityHeaders(_answering(chosen))) as http:
        bearer = await http.get("/x", headers={"Authorization": "Bearer t"})
        api_v1 = await http.get("/api/v1/assistant/chat")
    assert bearer.headers["cache-control"] == sent
    assert api_v1.headers["cache-control"] == sent


async def test_headers_reach_unexpected_500s(rig: Rig) -> None:
    app = rig.app()

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("boom")

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
        response = await http.get("/boom")
    assert response.status_code == 500
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/orgs/%00",
        "/api/v1/assistant/threads/%00",
        "/api/v1/proposals/%00/discard",
        "/api/docs/articles/a%00b",
    ],
)
async def test_nul_in_a_path_id_is_400_not_a_postgresql_500(rig: Rig, path: str) -> None:
    """Schemathesis's ST101: ``/api/v1/orgs/%00`` reached PostgreSQL, which refuses NUL in
    text (psycopg.DataError, 500). Refused before auth or any lookup, on every backend."""
    async with client(rig.app()) as http:
        method = http.post if path.endswith("/discard") else http.get
        response = await method(path)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert response.headers["x-content-type-options"] == "nosniff"
