"""``askdocs init [PATH]``: a commented askdocs.toml for the detected tree, which loads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from askdocs.cli import cli
from askdocs.errors import ConfigError
from askdocs.ingest import read_site
from askdocs.settings import load_settings
from tests.conftest import FRIGATE_DOCS, HTTPX_DOCS


@pytest.fixture
def product(tmp_path: Path) -> Path:
    """A MkDocs project: mkdocs.yml with site_url, docs/ with a development/ folder."""
    project = tmp_path / "product"
    shutil.copytree(HTTPX_DOCS, project / "docs")
    (project / "docs" / "development").mkdir()
    (project / "docs" / "development" / "release.md").write_text("# Releasing\n\nTag it.\n")
    (project / "mkdocs.yml").write_text("site_name: P\nsite_url: https://docs.example.org/p/\n")
    return project


def test_init_writes_a_config_that_loads_and_reads_the_tree(product: Path) -> None:
    config = product / "askdocs.toml"
    done = CliRunner().invoke(
        cli, ["init", str(product / "docs"), "--output", str(config), "--json"]
    )
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)
    assert (summary["site"], summary["dialect"], summary["pages"]) == ("docs", "mkdocs", 9)
    text = config.read_text(encoding="utf-8")
    assert "# Detected: mkdocs, mkdocs.yml found at" in text
    assert 'default_address = "https://docs.example.org/p"' in text
    [site] = load_settings(config).sites
    assert site.id == "docs"
    assert site.dialect == "mkdocs"
    assert [(r.path, r.audience) for r in site.roots] == [
        (product / "docs", "user"),
        (product / "docs" / "development", "developer"),
    ]
    snapshot = read_site(site, load_settings(config).corpus)
    audiences = {page.path: page.audience for page in snapshot.pages}
    assert audiences["release.md"] == "developer"
    assert audiences["http2.md"] == "user"
    assert not [path for path in audiences if path.startswith("development/")]


def test_a_plain_folder_gets_one_root_and_the_detected_dialect(tmp_path: Path) -> None:
    shutil.copytree(FRIGATE_DOCS, tmp_path / "frigate")
    config = tmp_path / "askdocs.toml"
    done = CliRunner().invoke(cli, ["init", str(tmp_path / "frigate"), "-o", str(config)])
    assert done.exit_code == 0, done.output
    assert "for site 'frigate' (docusaurus, 12 pages)" in done.output
    [site] = load_settings(tmp_path / "askdocs.toml").sites
    assert [r.audience for r in site.roots] == ["user"]
    assert site.default_address is None


def test_an_existing_file_is_kept_unless_forced(product: Path) -> None:
    config = product / "askdocs.toml"
    config.write_text("# mine\n")
    kept = CliRunner().invoke(cli, ["init", str(product / "docs"), "-o", str(config)])
    assert isinstance(kept.exception, ConfigError)
    assert config.read_text() == "# mine\n"
    forced = CliRunner().invoke(cli, ["init", str(product / "docs"), "-o", str(config), "--force"])
    assert forced.exit_code == 0, forced.output
    assert "[[sites]]" in config.read_text()


def test_a_missing_folder_is_worded_like_everywhere_else(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    done = CliRunner().invoke(cli, ["init", str(missing), "-o", str(tmp_path / "a.toml")])
    assert done.exit_code != 0
    assert str(done.exception) == f"docs folder {missing} does not exist"
