"""``askdocs corpus PATH [--json]`` in-process and as a real subprocess."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from click.testing import CliRunner

from askdocs.cli import cli
from askdocs.errors import ConfigError
from tests.conftest import FRIGATE_DOCS, REPO
from tests.corpus.conftest import write


def test_json_lists_frigate_pages(data_dir: Path) -> None:
    result = CliRunner().invoke(
        cli, ["--data-dir", str(data_dir), "corpus", str(FRIGATE_DOCS), "--json"]
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {
        *("pages", "errors", "revision", "dialects", "constructs", "not_understood"),
        *("raw_markers_in_chunks", "bare_file_name_titles", "unresolved_links"),
    }
    assert payload["dialects"][0]["dialect"] == "docusaurus"
    assert payload["raw_markers_in_chunks"] == 0
    assert len(payload["pages"]) == 12
    assert payload["errors"] == []
    page = next(p for p in payload["pages"] if p["path"] == "configuration/zones.md")
    assert set(page) == {"path", "title", "slug", "locale", "audience", "sections", "chunks"}
    assert (page["slug"], page["locale"], page["audience"]) == ("configuration/zones", "en", "user")
    assert page["chunks"] > 0
    assert {"id", "heading", "level"} <= set(page["sections"][0])


def test_human_summary_shows_errors_and_warnings(docs: Path, data_dir: Path) -> None:
    write(docs, "ok.md", "# Ok\n\nText.\n")
    write(docs, "bad.md", "---\naudience: admin\n---\n")
    write(docs, "i18n/de/x.md", "# X\n")
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), "corpus", str(docs)])
    assert result.exit_code == 0, result.output
    assert "ok.md  [en, user]  'Ok': 1 sections, 1 chunks" in result.output
    assert "error: bad.md: line 2, field 'audience'" in result.output
    assert "warning: i18n/de/x.md: locale 'de' is not configured" in result.output
    assert "1 pages, 1 chunks, 1 warnings, 0 unresolved links, 1 errors" in result.output


def test_missing_root_is_a_configuration_error(tmp_path: Path, data_dir: Path) -> None:
    result = CliRunner().invoke(
        cli, ["--data-dir", str(data_dir), "corpus", str(tmp_path / "nope")]
    )
    assert isinstance(result.exception, ConfigError)


def test_subprocess_json_and_exit_codes(tmp_path: Path) -> None:
    askdocs = str(REPO / ".venv" / "bin" / "askdocs")
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "ASKDOCS_DATA_DIR": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [askdocs, "corpus", str(FRIGATE_DOCS), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["pages"]) == 12
    missing = subprocess.run(
        [askdocs, "corpus", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert missing.returncode == 2
    assert "does not exist" in missing.stderr


def test_check_exits_non_zero_on_bad_front_matter_or_unresolved_links(
    docs: Path, data_dir: Path
) -> None:
    write(docs, "ok.md", "# Ok\n\n## Part\n\nSee [part](#part) and [other](other.md#top).\n")
    write(docs, "other.md", "# Top\n\nText.\n")
    run = ["--data-dir", str(data_dir), "corpus", str(docs), "--check"]
    clean = CliRunner().invoke(cli, run)
    assert clean.exit_code == 0, clean.output
    assert "0 unresolved links, 0 errors" in clean.output
    write(docs, "bad.md", "---\ntitle: [unclosed\n---\n# Bad\n")
    write(docs, "links.md", "# Links\n\n[gone](gone.md) and [nowhere](#nowhere).\n")
    broken = CliRunner().invoke(cli, run)
    assert broken.exit_code == 1
    assert "error: bad.md: line 2: invalid YAML front matter" in broken.output
    assert "unresolved link: links.md: gone.md (no such page)" in broken.output
    assert "unresolved link: links.md: #nowhere (anchor not found)" in broken.output
    without = CliRunner().invoke(cli, run[:-1])
    assert without.exit_code == 0  # without --check, listing is not failing
