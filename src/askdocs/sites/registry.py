"""The folder sites ``askdocs index PATH`` registered: ``<data-dir>/sites.json``.

The file holds ``{"sites": [{"id": ..., "path": ...}]}``; it is written to a temporary file
and renamed, so a reader never sees half of it.
"""

from __future__ import annotations

import json
from pathlib import Path

from askdocs.errors import ConfigError
from askdocs.settings import SiteConfig
from askdocs.sites.defaults import folder_site

REGISTRY = "sites.json"


def registered_sites(data_dir: Path) -> list[SiteConfig]:
    """Folder sites registered by ``askdocs index PATH`` in this data dir."""
    path = data_dir / REGISTRY
    if not path.is_file():
        return []
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["sites"]
        return [folder_site(Path(e["path"]), str(e["id"])) for e in entries]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"{path} is not a valid site registry: {exc}") from exc


def register_site(data_dir: Path, site: SiteConfig) -> None:
    """Add or replace ``site`` in the registry (write to a temp file, then rename)."""
    sites = [s for s in registered_sites(data_dir) if s.id != site.id] + [site]
    body = {"sites": [{"id": s.id, "path": str(s.roots[0].path)} for s in sites]}
    data_dir.mkdir(parents=True, exist_ok=True)
    temp = data_dir / f".{REGISTRY}.tmp"
    temp.write_text(json.dumps(body, indent=2), encoding="utf-8")
    temp.replace(data_dir / REGISTRY)
