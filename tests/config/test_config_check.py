"""``askdocs config check``: every effective setting with where it came from; secrets and
URL passwords never printed; a typo fails start-up of every command with a did-you-mean."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from askdocs.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = 0
    try:
        main(argv)
    except SystemExit as ended:
        code = int(ended.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_each_value_says_where_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "askdocs.toml"
    config.write_text('[server]\nport = 8001\n\n[auth]\njwt_signing_key = "k" \n')
    monkeypatch.setenv("ASKDOCS_DATABASE_URL", "postgresql://askdocs:hunter2@db/askdocs")
    argv = ["--config", str(config), "--data-dir", str(tmp_path), "config", "check", "--json"]
    code, out, _ = _run(argv, capsys)
    assert code == 0
    rows = {row["key"]: row for row in json.loads(out)["settings"]}
    assert rows["server.port"] == {"key": "server.port", "value": "8001", "origin": f"{config}:2"}
    assert rows["auth.jwt_signing_key"]["value"] == "********"
    assert rows["database_url"] == {
        "key": "database_url",
        "value": "postgresql://askdocs:***@db/askdocs",
        "origin": "ASKDOCS_DATABASE_URL",
    }
    assert rows["data_dir"]["origin"] == "argument"
    assert rows["server.host"]["origin"] == "default"
    assert "hunter2" not in out
    assert '"k"' not in out


def test_changed_prints_only_what_is_not_a_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "askdocs.toml"
    config.write_text('[[sites]]\nid = "docs"\n[[sites.roots]]\npath = "docs"\n')
    code, out, err = _run(["--config", str(config), "config", "check", "--changed"], capsys)
    assert code == 0
    keys = [line.split()[0] for line in out.splitlines() if f"({config}" in line]
    assert keys == ["sites[0].id", "sites[0].roots[0].path"]
    assert "(default)" not in out
    shown = rf"{re.escape(str(tmp_path / 'docs'))}  \({re.escape(str(config))}:4\)"
    assert re.search(rf"^sites\[0\]\.roots\[0\]\.path +{shown}$", out, re.M)
    assert "configuration is valid" in err


@pytest.mark.parametrize(
    ("text", "env", "expected"),
    [
        (
            '[[sites]]\nid = "docs"\npublik = false\n[[sites.roots]]\npath = "."\n',
            {},
            ':3: unknown key "publik" in [[sites]] #1; did you mean "public"?',
        ),
        ("[server]\nprot = 8001\n", {}, ':2: unknown key "prot" in [server]; did you mean "port"?'),
        (
            "",
            {"ASKDOCS_SERVER__PROT": "8001"},
            "ASKDOCS_SERVER__PROT: unknown setting server.prot; did you mean ASKDOCS_SERVER__PORT?",
        ),
    ],
)
@pytest.mark.parametrize("command", [["serve"], ["config", "check"], ["sites"]])
def test_a_typo_fails_start_up_with_did_you_mean(
    text: str,
    env: dict[str, str],
    expected: str,
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = tmp_path / "askdocs.toml"
    config.write_text(text)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    argv = ["--config", str(config), "--data-dir", str(tmp_path), *command]
    code, out, err = _run(argv, capsys)
    assert code == 2
    assert out == ""
    [line] = err.splitlines()
    assert line.startswith("error: ")
    assert line.endswith(expected)
    code, out, _ = _run([*argv, "--json"], capsys)
    assert code == 2
    assert json.loads(out)["error"]["code"] == "config_error"
    assert json.loads(out)["error"]["message"].endswith(expected)
