"""``askdocs sites`` lists every site of the catalog with where it comes from."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from askdocs.cli import cli
from askdocs.sites import folder_site
from askdocs.sites.registry import register_site


def test_sites_lists_config_then_cli_sites_with_their_source(tmp_path: Path) -> None:
    data = tmp_path / "data"
    register_site(data, folder_site(tmp_path / "mydocs", "mydocs"))
    config = tmp_path / "askdocs.toml"
    config.write_text(f'[[sites]]\nid = "handbook"\n[[sites.roots]]\npath = "{tmp_path}"\n')
    result = CliRunner().invoke(
        cli, ["--data-dir", str(data), "--config", str(config), "sites", "--json"]
    )
    assert result.exit_code == 0, result.output
    listed = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert [(s["id"], s["source"]) for s in listed] == [("handbook", "config"), ("mydocs", "cli")]
