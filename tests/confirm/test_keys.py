"""Where the confirmation key comes from: configured (text or an operator's key file), else
the database, shared by every instance on it and across restarts."""

from __future__ import annotations

import base64
import logging
import stat
from pathlib import Path

import pytest

from askdocs.confirm.service import ConfirmationTokens
from askdocs.db import Database
from askdocs.keys import KeyRing
from askdocs.settings import load_settings

USER = "u-1"


@pytest.fixture
def db(tmp_path: Path) -> Database:
    return Database.from_url(f"sqlite:///{tmp_path / 'askdocs.db'}")


def _tokens(db: Database, data_dir: Path, **admin: object) -> ConfirmationTokens:
    settings = load_settings(data_dir=data_dir, admin=admin)
    return ConfirmationTokens(KeyRing(settings, lambda: db))


def test_constructing_touches_nothing(db: Database, tmp_path: Path) -> None:
    opened: list[int] = []

    def database() -> Database:
        opened.append(1)
        return db

    tokens = ConfirmationTokens(KeyRing(load_settings(data_dir=tmp_path), database))
    assert not opened
    tokens.mint("Op", "{}", USER)
    assert opened


def test_instances_on_one_database_accept_each_others_tokens(db: Database, tmp_path: Path) -> None:
    first = _tokens(db, tmp_path)
    token = first.mint("DeleteSite", '{"x":1}', USER)
    assert first.key_source == "database"
    assert _tokens(db, tmp_path).verify("DeleteSite", '{"x":1}', USER, token)  # a restart
    other = Database.from_url(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        assert not _tokens(other, tmp_path).verify("DeleteSite", '{"x":1}', USER, token)
    finally:
        other.close()


def test_a_configured_key_wins_and_changing_it_refuses_old_tokens(
    db: Database, tmp_path: Path
) -> None:
    first = "11" * 32
    second = base64.b64encode(b"\x02" * 32).decode()
    old = _tokens(db, tmp_path, confirmation_token_key=first)
    token = old.mint("Op", "{}", USER)
    assert old.key_source == "configured"
    assert _tokens(db, tmp_path, confirmation_token_key=first).verify("Op", "{}", USER, token)
    changed = _tokens(db, tmp_path, confirmation_token_key=second)
    assert not changed.verify("Op", "{}", USER, token)
    assert changed.verify("Op", "{}", USER, changed.mint("Op", "{}", USER))


def test_a_malformed_configured_key_is_logged_and_skipped(
    db: Database, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stored = _tokens(db, tmp_path)
    token = stored.mint("Op", "{}", USER)
    with caplog.at_level(logging.WARNING, logger="askdocs.keys.specs"):
        tokens = _tokens(db, tmp_path, confirmation_token_key="too-short")
        assert tokens.verify("Op", "{}", USER, token)
    assert tokens.key_source == "database"
    assert "ignored" in caplog.text
    assert "too-short" not in caplog.text


def test_an_operator_key_file_is_made_once_and_read(db: Database, tmp_path: Path) -> None:
    path = tmp_path / "keys" / "confirm"
    first = _tokens(db, tmp_path, confirmation_token_key_file=path)
    token = first.mint("Op", "{}", USER)
    assert first.key_source == "configured"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(bytes.fromhex(path.read_text())) == 32
    assert _tokens(db, tmp_path, confirmation_token_key_file=path).verify("Op", "{}", USER, token)


def test_a_rotated_key_refuses_old_tokens_after_the_grace(db: Database, tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    keys = KeyRing(settings, lambda: db)
    tokens = ConfirmationTokens(keys)
    token = tokens.mint("Op", "{}", USER)
    keys.rotate("confirmation", 3600)
    assert tokens.verify("Op", "{}", USER, token)  # within the grace period
    assert tokens.mint("Op", "{}", USER) != token  # the new version signs
    keys.rotate("confirmation", 0)
    assert not tokens.verify("Op", "{}", USER, token)
