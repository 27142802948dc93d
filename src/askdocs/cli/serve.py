"""``askdocs serve``: the HTTP API (search, Ask AI, and every other mounted surface)."""

from __future__ import annotations

import click

from askdocs.cli.context import CliContext
from askdocs.settings import Settings


@click.command()
@click.option("--host", default=None, help="Address to bind (default 127.0.0.1).")
@click.option("--port", type=int, default=None, help="Port to listen on (default 8000).")
@click.pass_obj
def serve(obj: CliContext, host: str | None, port: int | None) -> None:
    """Serve the HTTP API. Sites are indexed in the background; start-up never waits."""
    import uvicorn

    from askdocs.server.app import create_app

    settings = with_binding(obj.settings, host, port)
    app = create_app(settings)
    click.echo(
        f"askdocs: serving on http://{_url_host(settings.server.host)}:{settings.server.port}"
    )
    uvicorn.run(
        app,
        host=settings.server.host,
        port=settings.server.port,
        log_level="warning",
        timeout_keep_alive=5,
        proxy_headers=False,
        server_header=False,
    )


def with_binding(settings: Settings, host: str | None, port: int | None) -> Settings:
    update: dict[str, object] = {}
    if host is not None:
        update["host"] = host
    if port is not None:
        update["port"] = port
    server = settings.server.model_copy(update=update)
    return settings.model_copy(update={"server": server})


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
