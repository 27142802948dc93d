"""``askdocs serve [PATH...]``: the HTTP API (search, Ask AI, and every other surface).

With PATHs (or ``--site ID=PATH``), each folder is registered as a site in the data dir, as
``askdocs index PATH`` registers it, and served with the other sites of the catalog. Start-up
never waits: the background indexer builds a keyword-only index in seconds, so search and
Ask AI answer at once, then embeds the vectors and switches to hybrid search.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from askdocs.cli.context import CliContext
from askdocs.cli.serve_progress import IndexWatch, watch
from askdocs.listen import listen as bind_listening
from askdocs.listen import url_host as _url_host
from askdocs.settings import Settings

if TYPE_CHECKING:
    from askdocs.app import App


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
@click.option(
    "--port", type=click.IntRange(1, 65535), default=None, help="Port to listen on (default 8000)."
)
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
    progress = _watch(app.state.askdocs, obj) if settings.server.index_in_background else None
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        if progress is not None:
            progress.stop()


def _watch(app: App, obj: CliContext) -> IndexWatch | None:
    """Each site's indexing on stderr while serving: live on a terminal, else log records."""
    if obj.verbosity < 0:
        return None
    return watch(app.core.index_states, terminal=sys.stderr.isatty())


def listen(host: str, port: int) -> socket.socket:
    """Bind and listen first, so a taken port or a foreign address fails at once."""
    return bind_listening(host, port, option="--port or ASKDOCS_SERVER__PORT")


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
