"""Defect 9 of issue 27: a password change, which the UI says "ends every session", ends
every bearer token too: each account has a token version that a password change bumps, and
every bearer and session check compares it."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from askdocs.auth.jwt import mint
from askdocs.db import Database
from askdocs.mcp.auth import JwtTokenVerifier, LocalUsers, database_opener
from askdocs.users import UserService
from tests.assistant.conftest import Harness
from tests.mcp.conftest import seeded_tokens
from tests.signin.conftest import PASSWORD, accounts, person, sign_in

NEW_PASSWORD = "an even better passphrase"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.anyio
async def test_bearer_tokens_survive_a_password_change_no_more(harness: Harness) -> None:
    ada = person(harness, "ada@example.com")
    old = mint(harness.settings, ada.id, token_version=ada.token_version)
    assert (await harness.client.get("/api/v1/auth/me", headers=bearer(old))).status_code == 200
    csrf = await sign_in(harness.client, "ada@example.com")
    body = {"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD}
    changed = await harness.client.post(
        "/api/v1/auth/password", json=body, headers={"X-CSRF-Token": csrf}
    )
    assert changed.status_code == 204
    refused = await harness.client.get("/api/v1/auth/me", headers=bearer(old))
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "token_revoked"
    now = accounts(harness).users.get(ada.id)
    assert now is not None
    assert now.token_version == ada.token_version + 1
    fresh = mint(harness.settings, ada.id, token_version=now.token_version)
    assert (await harness.client.get("/api/v1/auth/me", headers=bearer(fresh))).status_code == 200


@pytest.mark.anyio
async def test_a_session_from_before_the_version_bump_is_refused(harness: Harness) -> None:
    """The session check compares the version itself, not only the revocation list."""
    ada = person(harness, "ada@example.com")
    await sign_in(harness.client, "ada@example.com")
    assert (await harness.client.get("/api/v1/auth/me")).status_code == 200
    accounts(harness).users.bump_token_version(ada.id)
    ended = await harness.client.get("/api/v1/auth/me")
    assert ended.status_code == 401
    assert ended.json()["error"]["code"] == "session_expired"


@pytest.mark.anyio
async def test_ending_every_sign_in_ends_bearer_tokens_too(harness: Harness) -> None:
    ada = person(harness, "ada@example.com")
    admin = person(harness, "root@example.com", admin=True)
    old = mint(harness.settings, ada.id)
    ended = await harness.client.delete(
        f"/api/v1/users/{ada.id}/sessions", headers=bearer(mint(harness.settings, admin.id))
    )
    assert ended.status_code == 204
    refused = await harness.client.get("/api/v1/auth/me", headers=bearer(old))
    assert refused.json()["error"]["code"] == "token_revoked"


def test_mcp_local_token_checks_compare_the_token_version(tmp_path: Path) -> None:
    tokens = seeded_tokens(tmp_path / "data")
    verifier = JwtTokenVerifier(tokens.settings, LocalUsers(database_opener(tokens.settings)))
    token = tokens.valid()
    assert anyio.run(verifier.verify_token, token) is not None
    db = Database.open(tokens.settings)
    try:
        users = UserService(db)
        users.set_password(tokens.sub, PASSWORD, 10)  # the first password: nothing to end
        assert anyio.run(verifier.verify_token, token) is not None
        users.set_password(tokens.sub, NEW_PASSWORD, 10)  # a change
    finally:
        db.close()
    assert anyio.run(verifier.verify_token, token) is None
