"""Dialect detection per root and the navigation order it brings: MkDocs ``nav``,
Docusaurus sidebars, ``sidebar_position``, ``unlisted``; the reader follows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.corpus.dialects.detect import detect_dialect
from askdocs.ingest import CorpusSnapshot, read_site
from askdocs.reader.catalog import categorise, neighbours
from askdocs.settings import CorpusSettings, RootConfig
from tests.corpus.conftest import read, site_of, write

MKDOCS_YML = """site_name: X
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
nav:
  - Home: index.md
  - Getting Started:
      - Install it: guide/install.md
      - guide/usage.md
  - External: https://example.com/
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, "mkdocs.yml", MKDOCS_YML)
    write(tmp_path, "docs/index.md", "# Welcome\n\nHi.\n")
    write(tmp_path, "docs/guide/usage.md", "# Usage\n\nUse it.\n")
    write(tmp_path, "docs/guide/install.md", "Text only.\n")
    return tmp_path / "docs"


def test_mkdocs_nav_gives_titles_order_and_categories(project: Path) -> None:
    snapshot = read(project)
    pages = {p.path: p for p in snapshot.pages}
    assert snapshot.dialects[0][1:] == ("mkdocs", f"mkdocs.yml found at {project.parent}")
    assert (pages["index.md"].title, pages["index.md"].order) == ("Home", 0)
    assert pages["guide/install.md"].title == "Install it"  # the nav label, no H1
    assert pages["guide/usage.md"].title == "Usage"  # the H1: no label in the nav
    assert pages["guide/install.md"].meta["category"] == "getting-started"
    [_general, started] = categorise(snapshot.pages, "en")
    assert [a.slug for a in started.articles] == ["guide/install", "guide/usage"]
    previous, following = neighbours(pages["guide/install.md"], snapshot.pages)
    assert (previous, following and following.slug) == (None, "guide/usage")


def test_docusaurus_sidebars_and_positions(tmp_path: Path) -> None:
    write(tmp_path, "sidebars.js", "module.exports = {docs: [{type: 'category', "
          "label: 'Guides', items: ['guides/zeta', 'guides/alpha']}]};\n")  # fmt: skip
    docs = tmp_path / "docs"
    write(tmp_path, "docusaurus.config.js", "module.exports = {};\n")
    write(docs, "guides/alpha.md", "---\ntitle: Alpha\n---\nA.\n")
    write(docs, "guides/zeta.md", "---\ntitle: Zeta\n---\nZ.\n")
    write(docs, "guides/beta.md", "---\ntitle: Beta\nsidebar_position: 1.5\n---\nB.\n")
    write(docs, "guides/hidden.md", "---\ntitle: Hidden\nunlisted: true\n---\nH.\n")
    root = RootConfig(path=docs)
    snapshot = read(root)
    assert snapshot.dialects[0][1] == "docusaurus"
    orders = {p.title: p.order for p in snapshot.pages}
    assert orders == {"Zeta": 0, "Alpha": 1, "Beta": 150, "Hidden": None}
    [guides] = categorise(snapshot.pages, "en")
    assert [a.title for a in guides.articles] == ["Zeta", "Alpha", "Beta"]
    hidden = next(p for p in snapshot.pages if p.title == "Hidden")
    assert neighbours(hidden, snapshot.pages) == (None, None)
    assert any(c.path == "guides/hidden.md" for c in snapshot.chunks)  # still searchable


@pytest.mark.parametrize(
    ("files", "dialect"),
    [
        ({"mkdocs.yaml": "site_name: x\n"}, "mkdocs"),
        ({"docusaurus.config.ts": "export default {};\n"}, "docusaurus"),
        ({".vitepress/config.mts": "export default {}\n"}, "vitepress"),
        ({"conf.py": "extensions = ['myst_parser']\n"}, "myst"),
        ({"conf.py": "extensions = ['sphinx.ext.autodoc']\n"}, "gfm"),
        ({}, "gfm"),
    ],
)
def test_detection_from_tool_configuration(
    tmp_path: Path, files: dict[str, str], dialect: str
) -> None:
    for rel, text in files.items():
        write(tmp_path, rel, text)
    write(tmp_path, "docs/a/page.md", "# Page\n\nPlain text.\n")
    assert detect_dialect(tmp_path / "docs").dialect == dialect


def test_detection_from_content_and_the_site_override(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs, "a.md", "# A\n\n:::tip\n\nx\n\n:::\n\nimport Tabs from '@theme/Tabs';\n")
    assert detect_dialect(docs).dialect == "docusaurus"
    assert detect_dialect(docs, "myst").dialect == "myst"
    snapshot = read_with(docs, dialect="vitepress")
    assert snapshot.dialects[0][1:] == ("vitepress", "set in the site configuration")


def read_with(docs: Path, **site: object) -> CorpusSnapshot:
    return read_site(site_of(docs, **site), CorpusSettings())
