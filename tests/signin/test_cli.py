"""``askdocs users`` and ``askdocs orgs`` in-process: what they print, their refusals and
exit statuses (the subprocess set-up is tests/signin/test_install_process.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from askdocs.cli import main
from askdocs.db import Database
from askdocs.settings import load_settings
from askdocs.users.accounts import Accounts

PASSWORD = "correct horse battery staple"


def run(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str,
    stdin: str = "",
) -> tuple[int, str, str]:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        main(["--data-dir", str(data), *args])
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_users_and_orgs_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    code, out, _ = run(data, capsys, monkeypatch, "users", "create", "--email", "Root@Example.com",
                       "--platform-admin", "--password-stdin", stdin=PASSWORD + "\n")  # fmt: skip
    assert code == 0
    assert out.splitlines()[0] == "created user root@example.com (platform admin)"
    code, out, _ = run(data, capsys, monkeypatch, "orgs", "create", "--name", "Docs",
                       "--owner", "root@example.com")  # fmt: skip
    assert "owns the configured sites" in out
    org = out.splitlines()[-1]
    run(data, capsys, monkeypatch, "users", "create", "--email", "ada@example.com")
    code, out, _ = run(data, capsys, monkeypatch, "orgs", "add-member", org,
                       "--email", "ada@example.com", "--role", "admin")  # fmt: skip
    assert out.strip() == f"ada@example.com is admin of {org}"
    code, out, err = run(data, capsys, monkeypatch, "orgs", "remove-member", org,
                         "--email", "root@example.com")  # fmt: skip
    assert code == 1
    assert "error [last_owner]" in err
    code, out, _ = run(data, capsys, monkeypatch, "--json", "orgs", "members", "nope")
    assert code == 1
    assert json.loads(out)["error"]["code"] == "organisation_not_found"
    code, out, _ = run(data, capsys, monkeypatch, "orgs", "list")
    assert out.strip() == f"{org}\tDocs\t2 member(s)"
    db = Database.open(load_settings(data_dir=data))
    try:
        accounts = Accounts(load_settings(data_dir=data), db)
        assert accounts.check_password("root@example.com", PASSWORD).platform_admin
    finally:
        db.close()


def test_passwords_come_from_stdin_only_and_follow_the_policy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    code, _, err = run(data, capsys, monkeypatch, "users", "create", "--email", "a@example.com",
                       "--password-stdin", stdin="")  # fmt: skip
    assert code == 2
    assert "standard input held no password" in err
    code, _, err = run(data, capsys, monkeypatch, "users", "create", "--email", "a@example.com",
                       "--password-stdin", stdin="short\n")  # fmt: skip
    assert code == 1
    assert "error [weak_password]" in err
    code, out, _ = run(data, capsys, monkeypatch, "users", "list")
    assert out == ""  # nothing was created by the refused commands


def test_invite_prints_a_link_and_end_sessions_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    code, out, _ = run(data, capsys, monkeypatch, "users", "invite", "--email", "x@example.com",
                       "--platform-admin")  # fmt: skip
    assert code == 0
    assert out.splitlines()[-1].startswith("http://127.0.0.1:8000/invite/")
    run(data, capsys, monkeypatch, "users", "create", "--email", "x2@example.com")
    code, out, _ = run(
        data, capsys, monkeypatch, "users", "end-sessions", "--email", "x2@example.com"
    )
    assert out.strip() == "ended 0 session(s) of x2@example.com; its bearer tokens stop working"
