"""Command-line conventions: global options anywhere, JSON errors, exit codes, one wording
for a missing folder, a taken port refused first, progress records without a terminal."""

from __future__ import annotations

import json
import logging
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from askdocs.cli import ENVIRONMENT, cli, main
from askdocs.cli.progress import LogProgress
from tests.conftest import REPO
from tests.support.process import clean_env

NOT_INDEXED = "nothing indexed yet — run `askdocs index PATH`"
HANG_BOUND = 300  # a stuck index run fails the test, never stalls CI


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = 0
    try:
        main(argv)
    except SystemExit as ended:
        code = int(ended.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("where", ["before", "after"])
def test_global_options_before_or_after_the_command(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = ["--data-dir", str(tmp_path), "--json", "-q"]
    argv = [*options, "search", "hello"] if where == "before" else ["search", "hello", *options]
    code, out, err = run_main(argv, capsys)
    assert code == 1
    assert json.loads(out) == {"error": {"code": "not_indexed", "message": NOT_INDEXED}}
    assert err == ""


def test_text_error_goes_to_stderr_with_the_same_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(["search", "hello", "--data-dir", str(tmp_path)], capsys)
    assert (code, out) == (1, "")
    assert err == f"error [not_indexed]: {NOT_INDEXED}\n"


@pytest.mark.parametrize("as_json", [False, True])
def test_a_data_dir_that_is_a_file_is_one_line_and_exit_2(
    as_json: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    for data_dir in (file, file / "below"):
        argv = ["--data-dir", str(data_dir), "search", "x", *(["--json"] if as_json else [])]
        code, out, err = run_main(argv, capsys)
        assert code == 2
        text = out if as_json else err
        assert len(text.strip().splitlines()) == 1
        message = json.loads(out)["error"]["message"] if as_json else err
        assert f"data dir {data_dir}" in message
        assert "Traceback" not in out + err


def test_usage_errors_are_json_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(["search", "--json", "--limit", "0"], capsys)
    assert code == 2
    assert json.loads(out)["error"]["code"] == "usage_error"


def test_one_wording_for_a_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope"
    messages = set()
    for command in ("index", "corpus"):
        code, out, _ = run_main(
            ["--data-dir", str(tmp_path), command, str(missing), "--json"], capsys
        )
        assert code == 2
        messages.add(json.loads(out)["error"]["message"])
    assert messages == {f"docs folder {missing} does not exist"}


def test_help_lists_the_environment_variables_scripts_and_code_read() -> None:
    shown = CliRunner().invoke(cli, ["--help"]).output
    assert "ASKDOCS_PORT" in shown
    used = set()
    for path in [*(REPO / "scripts").iterdir(), *(REPO / "src" / "askdocs").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"environ(?:\.get)?\(?\[?\"(ASKDOCS_[A-Z0-9_]+)", text))
        used |= set(re.findall(r"envvar=\"(ASKDOCS_[A-Z0-9_]+)\"", text))
        used |= set(re.findall(r"\$\{(ASKDOCS_[A-Z0-9_]+)", text))
    assert used
    assert sorted(name for name in used if name not in ENVIRONMENT) == []


def test_the_environment_variables_are_documented() -> None:
    docs = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    docs += (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"ASKDOCS_[A-Z0-9_]+", ENVIRONMENT)) - {"ASKDOCS_SECTION__KEY"}
    assert sorted(name for name in listed if name not in docs) == []


def test_serve_refuses_a_taken_port_before_any_set_up(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "askdocs", "--data-dir", str(tmp_path / "data")]
        done = subprocess.run(
            [*command, "serve", "--port", str(port), "--json"],
            capture_output=True,
            text=True,
            env=clean_env(),
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "port_unavailable"
    assert "serving on" not in done.stdout + done.stderr
    assert not (tmp_path / "data").exists()  # nothing was set up


def test_progress_without_a_terminal_is_periodic_log_records(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    reporter = LogProgress("docs", interval=10.0, clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="askdocs.progress"):
        for done, at in [(0, 0.0), (64, 4.0), (128, 11.0), (192, 15.0), (256, 22.0)]:
            now[0] = at
            reporter(done, 256)
        reporter.finish()
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "docs: 0/256 chunks embedded (0%), 0 s",
        "docs: 128/256 chunks embedded (50%), 11 s",
        "docs: 256/256 chunks embedded (100%), 22 s",
    ]


def test_index_piped_prints_progress_records_and_quiet_none(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Alpha\n\nAlpha text about installing.\n")
    command = [sys.executable, "-m", "askdocs", "index", str(docs), "--data-dir", str(tmp_path)]
    loud = subprocess.run(
        command, capture_output=True, text=True, env=clean_env(), check=False, timeout=HANG_BOUND
    )
    assert loud.returncode == 0, loud.stderr
    assert re.search(r"INFO askdocs.progress: docs: 1/1 chunks embedded \(100%\)", loud.stderr)
    (docs / "b.md").write_text("# Beta\n\nBeta text.\n")
    quiet = subprocess.run(
        [*command, "-q"], capture_output=True, text=True, env=clean_env(), timeout=HANG_BOUND
    )
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stderr == ""
