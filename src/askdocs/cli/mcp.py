"""``askdocs mcp``: the MCP server for coding agents (stdio by default, or streamable HTTP)."""

from __future__ import annotations

from pathlib import Path

import anyio
import click

from askdocs.cli.context import CliContext
from askdocs.cli.logs import log_through_root
from askdocs.mcp.app import McpRun, assemble


def _say(message: str) -> None:
    click.echo(f"askdocs mcp: {message}", err=True)


@click.command("mcp")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    envvar="MCP_TRANSPORT",
    help="stdio (default; spawned by the MCP host) or http (streamable HTTP). Env: MCP_TRANSPORT.",
)
@click.option("--host", help="HTTP: address to bind (default 127.0.0.1, loopback only).")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    envvar="MCP_PORT",
    help="HTTP: port to listen on (default 3002; 0 picks a free one). Env: MCP_PORT.",
)
@click.option(
    "--docs",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="Local mode: index and search this docs folder in-process.",
)
@click.option(
    "--api-url",
    envvar="ASKDOCS_API_URL",
    help="Server mode: the askdocs HTTP API the tools call. Env: ASKDOCS_API_URL.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    help="HTTP: another Host header value to accept, e.g. mcp.example.com:3002 (repeatable).",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    help="HTTP: another Origin to accept, e.g. https://tools.example.com (repeatable).",
)
@click.pass_obj
def mcp(
    obj: CliContext,
    transport: str | None,
    host: str | None,
    port: int | None,
    docs: Path | None,
    api_url: str | None,
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
) -> None:
    """Serve search_docs, get_article, list_catalog (and ask) to MCP hosts.

    Local mode (no API URL): indexes --docs (or the configured sites) incrementally in the
    background and searches in-process. Server mode (--api-url / ASKDOCS_API_URL): every
    tool calls the askdocs HTTP API with the caller's bearer token.
    """
    settings = obj.settings
    chosen = transport or settings.mcp.transport
    run = McpRun(
        transport="http" if chosen == "http" else "stdio",
        docs=docs,
        api_url=api_url or settings.mcp.api_url,
    )
    log_through_root()  # before the SDK's server configures logging (each record once)
    server, backend = assemble(settings, run, begin_early=True)  # the SDK loads in here
    from askdocs.mcp.transports import (
        bind,
        is_loopback,
        serve_http,
        serve_stdio,
        transport_security,
    )

    if run.transport == "stdio":
        _say(f"{run.mode} mode over stdio")
        anyio.run(serve_stdio, server, backend)
        return
    bind_host = host or settings.mcp.host
    sock = bind(bind_host, settings.mcp.port if port is None else port)
    if not is_loopback(bind_host) and not allowed_hosts and not settings.mcp.allowed_hosts:
        _say("bound beyond loopback: pass --allowed-host NAME:PORT for the names clients use")
    public = public_names(settings.server.public_url)  # behind a proxy at the public URL
    security = transport_security(
        bind_host,
        [*settings.mcp.allowed_hosts, *allowed_hosts, *public[:1]],
        [*settings.mcp.allowed_origins, *allowed_origins, *public[1:]],
    )
    announce = lambda url: _say(f"{run.mode} mode, listening on {url}")  # noqa: E731
    anyio.run(serve_http, server, backend, sock, security, announce)


def public_names(public_url: str | None) -> list[str]:
    """``[host, origin]`` of ``server.public_url`` (the Host and Origin a proxy passes on)."""
    if not public_url:
        return []
    return [public_url.split("://", 1)[1], public_url]
