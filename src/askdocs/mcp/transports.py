"""Run the MCP server over stdio or streamable HTTP (the SDK's transports, uvicorn for HTTP).

HTTP binds loopback unless told otherwise and always runs with the SDK's DNS-rebinding
protection: a ``Host`` outside the allowed list gets 421, a foreign ``Origin`` 403.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence
from typing import Any

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from askdocs.listen import listen
from askdocs.mcp.backend import DocsBackend
from askdocs.middleware import BodyLimit, SecurityHeaders

MCP_PATH = "/mcp"
MAX_BODY_BYTES = 4 * 1024 * 1024  # the SDK's own JSON-RPC message limit
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def transport_security(
    host: str, extra_hosts: Sequence[str] = (), extra_origins: Sequence[str] = ()
) -> TransportSecuritySettings:
    """Loopback names (any port) always; the bind address when it is a concrete host; extras."""
    names = list(LOOPBACK_NAMES)
    wildcard = host in ("0.0.0.0", "::", "")
    if not wildcard and not is_loopback(host):
        names.append(f"[{host}]" if ":" in host else host)
    hosts = [pattern for name in names for pattern in (name, f"{name}:*")]
    origins = [f"{scheme}://{name}:*" for name in names for scheme in ("http", "https")]
    origins += [f"{scheme}://{name}" for name in names for scheme in ("http", "https")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*hosts, *extra_hosts],
        allowed_origins=[*origins, *extra_origins],
    )


async def serve_stdio(server: MCPServer[Any], backend: DocsBackend) -> None:
    await backend.start()
    try:
        await server.run_stdio_async()
    finally:
        await backend.aclose()


def bind(host: str, port: int) -> socket.socket:
    """Bind before serving, so port 0 works and the real address can be announced."""
    sock = listen(host, port, backlog=128, option="--port or MCP_PORT")
    sock.set_inheritable(True)
    return sock


def endpoint(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{MCP_PATH}"


async def serve_http(
    server: MCPServer[Any],
    backend: DocsBackend,
    sock: socket.socket,
    security: TransportSecuritySettings,
    announce: Callable[[str], None],
) -> None:
    host = sock.getsockname()[0]
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH, transport_security=security, host=host
    )
    config = uvicorn.Config(
        SecurityHeaders(BodyLimit(app, MAX_BODY_BYTES)),
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
        server_header=False,
    )
    await backend.start()
    try:
        announce(endpoint(sock))
        await uvicorn.Server(config).serve(sockets=[sock])
    finally:
        await backend.aclose()
