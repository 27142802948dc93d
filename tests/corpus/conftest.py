"""Helpers for corpus tests: small docs trees written into tmp folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.ingest import CorpusSnapshot, read_site
from askdocs.settings import CorpusSettings, RootConfig, SiteConfig


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def site_of(*roots: Path | RootConfig, **options: object) -> SiteConfig:
    configs = [r if isinstance(r, RootConfig) else RootConfig(path=r) for r in roots]
    return SiteConfig(id="test", name="test", roots=configs, **options)  # type: ignore[arg-type]


def read(*roots: Path | RootConfig, settings: CorpusSettings | None = None) -> CorpusSnapshot:
    return read_site(site_of(*roots), settings or CorpusSettings())


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    return root
