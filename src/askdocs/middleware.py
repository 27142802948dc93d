"""ASGI middleware that runs before any route, dependency or authentication.

``BodyLimit`` refuses a request body over the limit (``server.max_body_bytes``; routes
such as Ask AI check their own smaller limit in order) with ``413 body_too_large``:
a declared ``Content-Length`` is refused before a byte is read, a streamed (chunked) body
as soon as the running count passes the limit; the handler then sees a disconnect and
whatever it still sends is dropped. Nothing buffers more than the limit.

``NulPath`` refuses a path that holds a NUL character (``%00``) with ``400 invalid_request``:
no id, slug or file name askdocs knows has one, and PostgreSQL cannot even compare a text
with it (a lookup of ``/api/v1/orgs/%00`` was a 500 there).

``SecurityHeaders`` adds ``X-Content-Type-Options: nosniff`` to every response (JSON,
SSE, HTML, MCP), ``Cache-Control: no-store`` to every response to an authenticated
request (an ``Authorization`` header, or any ``/api/v1/`` route),
``WWW-Authenticate: Bearer`` to a 401 that lacks one, and ``Strict-Transport-Security``
to every response when ``server.public_url`` is https. A route that chose a private policy
that never lets a cache reuse the response unchecked keeps it (``revalidated``): the chat
stream's ``private, no-cache, no-transform`` (seed 002; ``no-transform`` so no proxy
buffers or recompresses the frames) and an asset's ``private, no-cache`` with its ETag, so a
bearer caller's browser still revalidates instead of downloading the image again.

``Forwarded`` runs first of all: from a peer in ``server.trusted_proxies`` it takes the
client address, scheme and ``Host`` the proxy's headers name (``guard.proxies``) into the
request itself, so every later part (sign-in's origin check and cookies, visitor identity,
site by host) sees the request as the visitor sent it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from askdocs.error_codes import ErrorCode
from askdocs.guard.proxies import Arrival, TrustedProxies, arrival
from askdocs.settings import ServerSettings

NOSNIFF = (b"x-content-type-options", b"nosniff")
NO_STORE = (b"cache-control", b"no-store")
BEARER_CHALLENGE = (b"www-authenticate", b'Bearer realm="askdocs"')
HSTS = (b"strict-transport-security", b"max-age=31536000")
AUTHENTICATED_PREFIXES: tuple[str, ...] = ("/api/v1/",)


def too_large_body(limit: int) -> bytes:
    message = f"the request body is over {limit} bytes"
    return json.dumps({"error": {"code": ErrorCode.BODY_TOO_LARGE, "message": message}}).encode()


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


async def send_too_large(send: Send, limit: int) -> None:
    body = too_large_body(limit)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        NO_STORE,
        NOSNIFF,
    ]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, before the app runs."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit
        declared = _declared_length(scope)
        if declared is not None and (declared < 0 or declared > limit):
            await send_too_large(send, limit)
            return
        guard = _CountingReceive(receive, send, limit)
        try:
            await self.app(scope, guard.receive, guard.send)
        except Exception:
            if not guard.refused:
                raise


class NulPath:
    """Refuse a request whose (decoded) path holds NUL with 400, before the app runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "\x00" in scope.get("path", ""):
            message = "the path holds a NUL character"
            body = json.dumps({"error": {"code": ErrorCode.INVALID_REQUEST, "message": message}})
            headers = [(b"content-type", b"application/json"), NO_STORE, NOSNIFF]
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            await send({"type": "http.response.body", "body": body.encode()})
            return
        await self.app(scope, receive, send)


@dataclass
class _CountingReceive:
    """Counts body bytes; past the limit it answers 413 itself and tells the app the
    client left, then swallows the app's own response."""

    inner_receive: Receive
    inner_send: Send
    limit: int
    seen: int = 0
    refused: bool = False
    started: bool = field(default=False)

    async def receive(self) -> Message:
        if self.refused:
            return {"type": "http.disconnect"}
        message = await self.inner_receive()
        if message["type"] != "http.request":
            return message
        self.seen += len(message.get("body", b""))
        if self.seen <= self.limit:
            return message
        self.refused = True
        if not self.started:
            self.started = True
            await send_too_large(self.inner_send, self.limit)
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        if self.refused:
            return
        if message["type"] == "http.response.start":
            self.started = True
        await self.inner_send(message)


class SecurityHeaders:
    """``nosniff`` everywhere; ``no-store`` when authenticated; a Bearer challenge on 401."""

    def __init__(
        self,
        app: ASGIApp,
        authenticated_prefixes: Sequence[str] = AUTHENTICATED_PREFIXES,
        hsts: bool = False,
    ) -> None:
        self.app = app
        self.prefixes = tuple(authenticated_prefixes)
        self.always = [NOSNIFF, HSTS] if hsts else [NOSNIFF]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        authenticated = self._authenticated(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": _headers(message, authenticated, self.always)}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _authenticated(self, scope: Scope) -> bool:
        if scope.get("path", "").startswith(self.prefixes):
            return True
        return any(name == b"authorization" for name, _ in scope.get("headers", ()))


def revalidated(value: bytes) -> bool:
    """Whether a route's ``Cache-Control`` already keeps an authenticated response out of
    shared caches and out of unchecked reuse: ``no-store``, or ``private`` with
    ``no-cache``."""
    directives = {part.strip().split(b"=")[0] for part in value.lower().split(b",")}
    return b"no-store" in directives or {b"private", b"no-cache"} <= directives


def _headers(
    message: Message, authenticated: bool, always: list[tuple[bytes, bytes]]
) -> list[tuple[bytes, bytes]]:
    headers = [(bytes(k).lower(), bytes(v)) for k, v in message.get("headers", ())]
    names = {name for name, _ in headers}
    headers += [header for header in always if header[0] not in names]
    status = int(message["status"])
    if authenticated and not any(k == NO_STORE[0] and revalidated(v) for k, v in headers):
        headers = [h for h in headers if h[0] != NO_STORE[0]]
        headers.append(NO_STORE)
    if status == 401 and BEARER_CHALLENGE[0] not in names:
        headers.append(BEARER_CHALLENGE)
    return headers


class Forwarded:
    """The request as the outermost trusted proxy received it (scheme, client, ``Host``)."""

    def __init__(self, app: ASGIApp, trusted: TrustedProxies) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.trusted:
            scope = forwarded_scope(scope, self.trusted)
        await self.app(scope, receive, send)


def forwarded_scope(scope: Scope, trusted: TrustedProxies) -> Scope:
    raw: list[tuple[bytes, bytes]] = list(scope.get("headers", ()))
    joined: dict[str, str] = {}
    for name, value in raw:
        key = name.decode("latin-1").lower()
        text = value.decode("latin-1")
        joined[key] = f"{joined[key]}, {text}" if key in joined else text
    peer = scope.get("client")
    seen = Arrival(peer[0] if peer else None, scope.get("scheme", "http"), joined.get("host"))
    came = arrival(seen, joined, trusted)
    if came == seen:
        return scope
    headers = [(n, v) for n, v in raw if n.lower() != b"host"]
    if came.host is not None:
        headers.append((b"host", came.host.encode("latin-1")))
    client = (came.client, peer[1] if peer else 0) if came.client else peer
    return {**scope, "scheme": came.scheme, "client": client, "headers": headers}


def harden(app: Starlette, server: ServerSettings) -> None:
    """Wrap ``app``'s whole stack (its error middleware included, so even a 500 carries
    the headers) in ``Forwarded``, ``SecurityHeaders``, ``NulPath`` and ``BodyLimit``."""
    build = app.build_middleware_stack
    trusted = TrustedProxies(server.trusted_proxies)
    hsts = (server.public_url or "").startswith("https://")

    def build_hardened() -> ASGIApp:
        guarded = NulPath(BodyLimit(build(), server.max_body_bytes))
        return Forwarded(SecurityHeaders(guarded, hsts=hsts), trusted)

    setattr(app, "build_middleware_stack", build_hardened)  # noqa: B010
