"""``askdocs init [PATH]``: write a commented ``askdocs.toml`` for the docs tree at PATH.

It looks at the tree (the pure survey is ``askdocs.cli.survey``) and writes one site: its id
from the folder name, the dialect detected and why, one root per audience (a ``developer``-like
subfolder becomes a developer root), and the published site's address when the tool's
configuration names one. ``askdocs serve --config askdocs.toml`` then serves it.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from askdocs.cli.context import CliContext
from askdocs.cli.paths import require_folder
from askdocs.cli.survey import Survey, render_config, survey
from askdocs.errors import ConfigError
from askdocs.settings import load_settings


@click.command("init")
@click.argument("path", required=False, default=".", type=click.Path(path_type=Path))
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, dir_okay=False),
    default=Path("askdocs.toml"),
    show_default=True,
    help="The config file to write.",
)
@click.option("--site", "site_id", help="Site id (default: from the folder name).")
@click.option("--force", is_flag=True, help="Replace an existing config file.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@click.pass_obj
def init(
    obj: CliContext | None,
    path: Path,
    output: Path,
    site_id: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Write a commented askdocs.toml for the docs folder PATH (default: here)."""
    require_folder(path)
    if output.exists() and not force:
        raise ConfigError(f"{output} already exists; pass --force to replace it")
    found = survey(path.resolve(), output.absolute().parent, site_id)
    output.write_text(render_config(found), encoding="utf-8")
    _check(output)
    if as_json:
        click.echo(json.dumps(_summary(found, output)))
        return
    click.echo(
        f"wrote {output} for site {found.site_id!r} ({found.dialect}, {found.pages} pages); "
        f"serve it with: askdocs serve --config {output}"
    )


def _check(output: Path) -> None:
    """The file must load as settings; a mistake here is a bug, reported as one."""
    load_settings(output)


def _summary(found: Survey, output: Path) -> dict[str, object]:
    return {
        "config": str(output),
        "site": found.site_id,
        "dialect": found.dialect,
        "pages": found.pages,
        "roots": [{"path": r.path, "audience": r.audience} for r in found.roots],
    }
