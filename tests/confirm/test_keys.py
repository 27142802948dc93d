"""Key resolution: configured -> file -> generated and persisted -> process-local."""

from __future__ import annotations

import base64
import logging
import stat
from pathlib import Path

import pytest

from askdocs.confirm.keys import ConfirmationKey
from askdocs.confirm.service import ConfirmationTokens, confirmation_tokens
from askdocs.settings import load_settings

USER = "u-1"


def _tokens(configured: str | None, path: Path) -> ConfirmationTokens:
    return ConfirmationTokens(ConfirmationKey(configured, path))


def test_constructing_touches_nothing_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "confirm"
    tokens = _tokens(None, path)
    assert not path.parent.exists()
    tokens.mint("Op", "{}", USER)
    assert path.exists()


def test_first_run_persists_a_key_that_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "confirm"
    before = _tokens(None, path)
    token = before.mint("DeleteSite", '{"x":1}', USER)
    assert before.key_source == "file"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(bytes.fromhex(path.read_text())) == 32
    assert not list(tmp_path.glob(".*tmp"))  # written via temp + rename
    after = _tokens(None, path)  # a new process reads the same file
    assert after.verify("DeleteSite", '{"x":1}', USER, token)


def test_a_configured_key_wins_and_rotating_it_refuses_old_tokens(tmp_path: Path) -> None:
    first = "11" * 32
    second = base64.b64encode(b"\x02" * 32).decode()
    old = _tokens(first, tmp_path / "unused")
    token = old.mint("Op", "{}", USER)
    assert old.key_source == "configured"
    assert not (tmp_path / "unused").exists()
    assert _tokens(first, tmp_path / "unused").verify("Op", "{}", USER, token)
    rotated = _tokens(second, tmp_path / "unused")
    assert not rotated.verify("Op", "{}", USER, token)
    assert rotated.verify("Op", "{}", USER, rotated.mint("Op", "{}", USER))


def test_a_malformed_configured_key_is_logged_and_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "confirm"
    file_tokens = _tokens(None, path)
    token = file_tokens.mint("Op", "{}", USER)
    with caplog.at_level(logging.WARNING, logger="askdocs.confirm.keys"):
        tokens = _tokens("too-short", path)
        assert tokens.verify("Op", "{}", USER, token)
    assert tokens.key_source == "file"
    assert "ignored" in caplog.text
    assert "too-short" not in caplog.text


def test_process_local_key_when_the_file_cannot_be_written(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    path = blocker / "confirm"  # its parent is a file: cannot be created, even as root
    with caplog.at_level(logging.WARNING, logger="askdocs.confirm.keys"):
        tokens = _tokens(None, path)
        token = tokens.mint("Op", "{}", USER)
    assert tokens.key_source == "process-local"
    assert "process-local" in caplog.text
    assert tokens.verify("Op", "{}", USER, token)  # works for this process
    restarted = _tokens(None, path)
    assert not restarted.verify("Op", "{}", USER, token)  # but not after a restart


def test_a_malformed_key_file_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "confirm"
    path.write_text("garbage")
    tokens = _tokens(None, path)
    tokens.mint("Op", "{}", USER)
    assert tokens.key_source == "process-local"
    assert path.read_text() == "garbage"


def test_instances_over_one_key_file_accept_each_others_tokens(tmp_path: Path) -> None:
    first = confirmation_tokens(load_settings(data_dir=tmp_path))
    token = first.mint("Op", "{}", USER)
    second = confirmation_tokens(load_settings(data_dir=tmp_path))
    assert second.verify("Op", "{}", USER, token)
    other = confirmation_tokens(load_settings(data_dir=tmp_path / "other"))
    assert not other.verify("Op", "{}", USER, token)
