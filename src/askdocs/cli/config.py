"""``askdocs config check``: validate the configuration and show where each value comes from.

Every setting is printed with its effective value (secrets masked, URL passwords hidden)
and its origin: ``default``, ``FILE:LINE``, the ``ASKDOCS_*`` variable, or ``argument``.
An unknown key or an invalid value ends the command with one line per problem (exit 2).
"""

from __future__ import annotations

import json

import click

from askdocs.cli.context import CliContext
from askdocs.config.origins import DEFAULT, Row, effective
from askdocs.settings import load_with_origins


@click.group("config")
def config() -> None:
    """Check the configuration and show where each setting comes from."""


@config.command("check")
@click.option("--changed", is_flag=True, help="Only the settings that are not defaults.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.pass_obj
def check(obj: CliContext, changed: bool, as_json: bool) -> None:
    """Validate the settings and print each effective value with its origin."""
    settings, origins = load_with_origins(obj.config_file, data_dir=obj.data_dir)
    rows = [row for row in effective(settings, origins) if not changed or row.origin != DEFAULT]
    if as_json:
        click.echo(json.dumps({"valid": True, "settings": [vars(row) for row in rows]}))
        return
    width = max((len(row.key) for row in rows), default=0)
    for row in rows:
        click.echo(_line(row, width))
    source = origins.file or "no config file"
    click.echo(f"configuration is valid ({source}; {len(rows)} settings shown)", err=True)


def _line(row: Row, width: int) -> str:
    return f"{row.key.ljust(width)}  {row.value}  ({row.origin})"
