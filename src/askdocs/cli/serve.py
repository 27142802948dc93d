"""``askdocs serve [PATH...]``: the HTTP API (search, Ask AI, and every other surface).

With PATHs (or ``--site ID=PATH``), each folder is registered as a site in the data dir, as
``askdocs index PATH`` registers it, and served with the other sites of the catalog. Start-up
never waits: the background indexer builds a keyword-only index in seconds, so search and
Ask AI answer at once, then embeds the vectors and switches to hybrid search.
"""

from __future__ import annotations

import socket
from pathlib import Path

import click

from askdocs.cli.context import CliContext
from askdocs.errors import ConfigError
from askdocs.settings import Settings


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--site",
    "named",
    multiple=True,
    metavar="ID=PATH",
    help="Serve the folder PATH as site ID (repeatable).",
)
@click.option("--host", default=None, help="Address to bind (default 127.0.0.1).")
@click.option("--port", type=int, default=None, help="Port to listen on (default 8000).")
@click.option(
    "--search-processes",
    type=click.IntRange(0, 32),
    default=None,
    help="Run searches in N worker processes (server.search_processes; default 0: in process).",
)
@click.pass_obj
def serve(
    obj: CliContext,
    paths: tuple[Path, ...],
    named: tuple[str, ...],
    host: str | None,
    port: int | None,
    search_processes: int | None,
) -> None:
    """Serve the HTTP API, and the docs folders PATH... (site id: the folder's name).

    Sites are indexed in the background; start-up never waits.
    """
    settings = with_binding(obj.settings, host, port, search_processes)
    sock = listen(settings.server.host, settings.server.port)  # before anything else
    import uvicorn

    from askdocs.cli.folders import served_folders
    from askdocs.guard.proxies import start_up_warnings
    from askdocs.server.app import create_app
    from askdocs.sites.registry import register_site

    for site in served_folders(paths, named):
        register_site(settings.data_dir, site)
        click.echo(f"askdocs: site {site.id!r} is {site.roots[0].path}")
    app = create_app(settings)
    for note in start_up_warnings(settings):
        click.echo(f"askdocs: warning: {note}", err=True)
    click.echo(
        f"askdocs: serving on http://{_url_host(settings.server.host)}:{sock.getsockname()[1]}"
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        timeout_keep_alive=5,
        timeout_graceful_shutdown=1,  # open streams get 1 s; SIGTERM ends serve within 3 s
        proxy_headers=False,
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])


def listen(host: str, port: int) -> socket.socket:
    """Bind and listen first, so a taken port fails at once, not after the set-up."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio turns Nagle off (TCP_NODELAY) only on accepted sockets whose
    # proto says TCP; with proto 0 every response waited ~40 ms for the delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise ConfigError(
            f"cannot listen on {_url_host(host)}:{port}: {exc.strerror}; "
            "choose another port with --port or ASKDOCS_SERVER__PORT",
            code="port_unavailable",
        ) from exc
    return sock


def with_binding(
    settings: Settings, host: str | None, port: int | None, search_processes: int | None = None
) -> Settings:
    update: dict[str, object] = {}
    if host is not None:
        update["host"] = host
    if port is not None:
        update["port"] = port
    if search_processes is not None:
        update["search_processes"] = search_processes
    server = settings.server.model_copy(update=update)
    return settings.model_copy(update={"server": server})


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
