"""``askdocs users create`` and ``askdocs token create`` in-process (CliRunner)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from askdocs.auth.jwt import verify
from askdocs.cli import cli
from askdocs.db import Database
from askdocs.errors import InvalidInput, NotFound
from askdocs.settings import load_settings
from askdocs.users.service import UserService


def _run(data_dir: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_create_user_then_token(tmp_path: Path) -> None:
    out = _run(
        tmp_path,
        "users",
        "create",
        "--email",
        "Ops@Example.com",
        "--name",
        "Ops",
        "--platform-admin",
    )
    user_id = out.strip().splitlines()[-1]
    token = _run(tmp_path, "token", "create", "--email", "ops@example.com", "--ttl", "120")
    claims = verify(token.strip().splitlines()[-1], load_settings(data_dir=tmp_path))
    assert claims.sub == user_id
    assert claims.platform_admin is True
    assert claims.expires_at - claims.issued_at == 120
    db = Database.open(load_settings(data_dir=tmp_path))
    try:
        user = UserService(db).by_email("ops@example.com")
    finally:
        db.close()
    assert (user.id, user.display_name, user.platform_admin) == (user_id, "Ops", True)


def test_duplicate_users_and_unknown_emails_fail(tmp_path: Path) -> None:
    _run(tmp_path, "users", "create", "--email", "a@x.io")
    runner = CliRunner()
    with pytest.raises(InvalidInput):
        runner.invoke(
            cli,
            ["--data-dir", str(tmp_path), "users", "create", "--email", "a@x.io"],
            catch_exceptions=False,
        )
    with pytest.raises(NotFound):
        runner.invoke(
            cli,
            ["--data-dir", str(tmp_path), "token", "create", "--email", "b@x.io"],
            catch_exceptions=False,
        )


def test_token_for_an_org_the_user_belongs_to(tmp_path: Path) -> None:
    _run(tmp_path, "users", "create", "--email", "a@x.io")
    db = Database.open(load_settings(data_dir=tmp_path))
    try:
        users = UserService(db)
        org = users.create_organisation("Acme", users.by_email("a@x.io").id)
    finally:
        db.close()
    token = _run(tmp_path, "token", "create", "--email", "a@x.io", "--org", org.id)
    claims = verify(token.strip().splitlines()[-1], load_settings(data_dir=tmp_path))
    assert (claims.org, claims.org_role) == (org.id, "owner")
    other = _run(tmp_path, "token", "create", "--email", "a@x.io", "--org", "not-mine")
    assert verify(other.strip().splitlines()[-1], load_settings(data_dir=tmp_path)).org is None
