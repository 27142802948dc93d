"""The folders ``askdocs serve PATH... --site ID=PATH`` serves, as folder sites.

A plain PATH's site id is the folder's name made id-safe (as ``askdocs index PATH`` does);
``--site ID=PATH`` names it. Every folder must exist, and two folders may not share an id.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click
from pydantic import ValidationError

from askdocs.cli.engine import site_id_for
from askdocs.cli.paths import require_folder
from askdocs.errors import ConfigError
from askdocs.settings import SiteConfig
from askdocs.sites import folder_site


def served_folders(paths: Sequence[Path], named: Sequence[str]) -> list[SiteConfig]:
    """Folder sites for the positional PATHs, then for each ``ID=PATH``."""
    pairs = [(site_id_for(path, None), path) for path in paths]
    pairs += [_split(spec) for spec in named]
    sites = [_site(site_id, path) for site_id, path in pairs]
    ids = [site.id for site in sites]
    twice = sorted({site_id for site_id in ids if ids.count(site_id) > 1})
    if twice:
        raise ConfigError(
            f"two folders would both be site {twice[0]!r}: name one with --site ID=PATH"
        )
    return sites


def _split(spec: str) -> tuple[str, Path]:
    site_id, sep, path = spec.partition("=")
    if not sep or not site_id or not path:
        raise click.BadParameter(
            f"{spec!r}: expected ID=PATH, e.g. docs=./docs", param_hint="--site"
        )
    return site_id, Path(path)


def _site(site_id: str, path: Path) -> SiteConfig:
    require_folder(path)
    try:
        return folder_site(path.resolve(), site_id)
    except ValidationError as exc:
        raise ConfigError(
            f"{site_id!r} is not a valid site id: lowercase letters, digits, '-' and '_', "
            "starting with a letter or digit, at most 63 characters"
        ) from exc
