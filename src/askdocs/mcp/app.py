"""Assemble ``askdocs mcp``: pick the mode, check auth at the boundary, build server and backend.

Modes: *local* (no API URL) runs the engine in-process over ``--docs`` or the configured
sites; *server* (an API URL) forwards every tool call to the askdocs HTTP API.
Auth: stdio in local mode has none (the parent process owns the pipe); stdio in server mode
verifies ``ASKDOCS_MCP_TOKEN`` once at start; HTTP verifies the bearer on every request in
both modes, because any local process or web page could otherwise reach the port, and in
local mode also checks that the token's user still exists in the data dir's database.
Server mode accepts only MCP tokens (``askdocs token create --mcp``), and its applies
carry the approval proof the API demands of them (``askdocs.auth.approval``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from askdocs.errors import ConfigError
from askdocs.settings import Settings
from askdocs.sites import folder_site

if TYPE_CHECKING:  # the MCP SDK loads in ``assemble``, after a local backend has begun
    from mcp.server.mcpserver import MCPServer

    from askdocs.db import Database
    from askdocs.mcp.auth import AuthContext, JwtTokenVerifier
    from askdocs.mcp.backend import DocsBackend

Transport = Literal["stdio", "http"]


@dataclass(frozen=True)
class McpRun:
    """What the command line decided."""

    transport: Transport
    docs: Path | None
    api_url: str | None

    @property
    def mode(self) -> str:
        return "server" if self.api_url else "local"


Opener = Callable[[], "Database"]


def build_backend(settings: Settings, run: McpRun) -> tuple[DocsBackend, Opener | None]:
    """The backend, and in local mode its ``Core``'s database opener (the token check's)."""
    if run.api_url:
        from functools import partial

        from askdocs.auth.approval import mint_approval
        from askdocs.keys import KeyRing
        from askdocs.mcp.auth import database_opener
        from askdocs.mcp.remote import RemoteBackend

        keys = KeyRing(settings, database_opener(settings))  # the shared, configured key
        remote = RemoteBackend(
            run.api_url,
            timeout_seconds=settings.mcp.api_timeout_seconds,
            public_url=settings.server.public_url,
            approve=partial(mint_approval, settings, keys),
        )
        return remote, None
    from askdocs.core import Core
    from askdocs.mcp.local import LocalBackend

    sites = [folder_site(run.docs.resolve())] if run.docs else None
    core = Core(settings, sites=sites)
    local = LocalBackend(core, index_wait_seconds=settings.mcp.index_wait_seconds)
    return local, core.database  # the backend read ``core.chat``: a bad one failed now


def boundary_auth(
    settings: Settings,
    run: McpRun,
    env: Mapping[str, str] | None = None,
    database: Opener | None = None,
) -> tuple[AuthContext | None, JwtTokenVerifier | None]:
    """Check credentials before anything starts; raise AuthError/ConfigError otherwise.
    Local mode over HTTP re-reads each token's user through ``database`` (the ``Core``'s)."""
    if run.transport == "stdio" and not run.api_url:
        return None, None  # local stdio: the parent process owns the pipe
    from askdocs.auth.jwt import mcp_audience
    from askdocs.keys import KeyRing
    from askdocs.mcp.auth import (
        JwtTokenVerifier,
        LocalUsers,
        database_opener,
        require_shared_key,
        stdio_auth,
        stdio_token,
    )

    if run.transport == "http":
        if run.api_url:
            require_shared_key(settings, env)
        if database is None and not run.api_url:  # never a token check without the user check
            raise ConfigError("local mode over HTTP checks each token's user: no database")
        opener = database or database_opener(settings)
        keys = KeyRing(settings, opener)
        keys.signing("jwt")  # fail now on a bad key, not on the first request
        if run.api_url:  # MCP tokens only; the API re-checks the user
            return None, JwtTokenVerifier(settings, keys=keys, audience=mcp_audience(settings))
        return None, JwtTokenVerifier(settings, LocalUsers(opener), keys)
    token = stdio_token(env)
    require_shared_key(settings, env)  # before verify, which would create a local key
    return stdio_auth(settings, token), None


def validate(run: McpRun) -> None:
    if run.api_url and run.docs:
        raise ConfigError("--docs (local mode) and --api-url (server mode) exclude each other")
    if run.docs is not None and not run.docs.is_dir():
        raise ConfigError(f"--docs {run.docs}: not a folder")
    if run.api_url and not run.api_url.startswith(("http://", "https://")):
        raise ConfigError(f"the API URL must start with http:// or https://: {run.api_url!r}")


def assemble(
    settings: Settings,
    run: McpRun,
    env: Mapping[str, str] | None = None,
    *,
    begin_early: bool = False,
) -> tuple[MCPServer[Any], DocsBackend]:
    """Check, build the backend (nothing runs yet), check the credentials, then build the
    server. ``begin_early`` (the command line) lets the backend begin its background work
    before the MCP SDK is imported and the server built (local mode: the docs are read and
    parsed meanwhile, on two cores)."""
    validate(run)
    backend, database = build_backend(settings, run)
    fixed, verifier = boundary_auth(settings, run, env, database)
    if begin_early:
        backend.begin()
    from askdocs.mcp.operations import docs_operations
    from askdocs.mcp.server import ServerOptions, build_server

    options = ServerOptions(
        operations=docs_operations(settings),
        timeout_seconds=settings.mcp.tool_timeout_seconds,
        ask_enabled=settings.chat.provider != "none",
        ask_timeout_seconds=max(
            settings.mcp.tool_timeout_seconds, settings.chat.timeout_seconds + 10
        ),
        fixed_auth=fixed,
        token_verifier=verifier,
        issuer_url=run.api_url or "http://127.0.0.1",
    )
    return build_server(backend, options), backend
