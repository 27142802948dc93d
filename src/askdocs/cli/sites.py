"""``askdocs sites``: every site the server would serve, and where each comes from."""

from __future__ import annotations

import json

import anyio
import click

from askdocs.app import App
from askdocs.cli.context import CliContext
from askdocs.corpus.sources import missing_root
from askdocs.sites import CatalogEntry


@click.command("sites")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per site.")
@click.pass_obj
def sites(obj: CliContext, as_json: bool) -> None:
    """List the sites of the catalog: config file, then CLI-registered, then admin-created."""
    app = App(obj.settings)
    try:
        app.stored()  # organisation sites join the catalog from the database
        entries = app.catalog.entries()
    finally:
        anyio.run(app.aclose)
    for entry in entries:
        click.echo(json.dumps(entry_json(entry)) if as_json else entry_line(entry))


def entry_json(entry: CatalogEntry) -> dict[str, object]:
    site = entry.site
    return {
        "id": site.id,
        "source": entry.source.value,
        "organisation": entry.organisation,
        "public": site.public,
        "live": site.live,
        "hostnames": list(site.hostnames),
        "roots": [str(root.path) for root in site.roots],
        "state": docs_state(entry),
    }


def docs_state(entry: CatalogEntry) -> str:
    """``docs_root_missing`` when a required root is missing or unreadable, else ``ok``."""
    return "ok" if missing_root(entry.site) is None else "docs_root_missing"


def entry_line(entry: CatalogEntry) -> str:
    site = entry.site
    flags = ("public" if site.public else "private") + ("" if site.live else ", not live")
    roots = ", ".join(str(root.path) for root in site.roots)
    missing = missing_root(site)
    state = f"  [docs_root_missing: {missing}]" if missing is not None else ""
    return f"{site.id:<20} {entry.source.value:<8} {flags:<10} {roots}{state}"
