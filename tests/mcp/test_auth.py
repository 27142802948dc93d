"""Transport-boundary auth: the SDK token verifier, the stdio token, the mode decisions."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from askdocs.core import Core
from askdocs.db import Database
from askdocs.errors import AuthError, ConfigError
from askdocs.mcp.app import McpRun, boundary_auth
from askdocs.mcp.auth import (
    JwtTokenVerifier,
    LocalUsers,
    context_from_access_token,
    require_shared_key,
    stdio_auth,
    stdio_token,
)
from askdocs.settings import load_settings
from askdocs.users import UserService
from tests.mcp.conftest import BAD_TOKENS, KEY, Tokens, seeded_tokens


def test_verifier_exposes_the_typed_context(tokens: Tokens) -> None:
    token = tokens.valid()
    access = anyio.run(JwtTokenVerifier(tokens.settings).verify_token, token)
    assert access is not None
    context = context_from_access_token(access)
    assert context.wire() == {
        "sub": "user-1",
        "email": None,
        "org": "org-1",
        "orgRole": "admin",
        "platformAdmin": False,
    }
    assert context.token == token
    assert token not in repr(context)


def test_the_email_claim_reaches_the_context(tokens: Tokens) -> None:
    token = tokens.valid(email="user-1@example.com")
    access = anyio.run(JwtTokenVerifier(tokens.settings).verify_token, token)
    assert access is not None
    assert context_from_access_token(access).wire()["email"] == "user-1@example.com"


def test_legacy_is_admin_and_no_org_claims_are_accepted(tokens: Tokens) -> None:
    access = anyio.run(JwtTokenVerifier(tokens.settings).verify_token, tokens.legacy_admin())
    assert access is not None
    context = context_from_access_token(access)
    assert (context.org, context.org_role, context.platform_admin) == (None, None, True)


@pytest.mark.parametrize("kind", [*BAD_TOKENS, "garbage"])
def test_verifier_refuses_bad_tokens(tokens: Tokens, kind: str) -> None:
    token = "x.y.z" if kind == "garbage" else tokens.bad(kind)
    assert anyio.run(JwtTokenVerifier(tokens.settings).verify_token, token) is None


def test_stdio_token_is_required() -> None:
    with pytest.raises(AuthError, match="ASKDOCS_MCP_TOKEN is not set") as caught:
        stdio_token({})
    assert caught.value.code == "missing_token"


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("expired", "token_expired"),
        ("wrong-audience", "invalid_token"),
        ("alg-none", "invalid_token"),
    ],
)
def test_stdio_auth_says_why_a_token_was_refused(tokens: Tokens, kind: str, code: str) -> None:
    with pytest.raises(AuthError, match="ASKDOCS_MCP_TOKEN was refused") as caught:
        stdio_auth(tokens.settings, tokens.bad(kind))
    assert caught.value.code == code


def test_server_mode_wants_the_api_key_not_a_fresh_one(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    with pytest.raises(ConfigError, match="signing key"):
        require_shared_key(settings, {})
    require_shared_key(settings, {"ASKDOCS_JWT_SIGNING_KEY": KEY})
    assert not (tmp_path / "jwt-signing-key").exists()
    assert not (tmp_path / "askdocs.db").exists()  # the check made no database either


def test_server_mode_verifies_with_the_key_in_the_api_database(tmp_path: Path) -> None:
    from askdocs.auth.jwt import mint

    settings = load_settings(data_dir=tmp_path)
    token = mint(settings, "user-1", mcp=True)  # the API stored its key in its database
    require_shared_key(settings, {})
    fixed = stdio_auth(settings, token)
    assert fixed.sub == "user-1"


def test_boundary_decisions(tokens: Tokens) -> None:
    settings = tokens.settings
    local_stdio = McpRun("stdio", None, None)
    assert boundary_auth(settings, local_stdio, {}) == (None, None)
    with pytest.raises(ConfigError):  # local HTTP never checks a token without its user
        boundary_auth(settings, McpRun("http", None, None), {})
    core = Core(settings)
    fixed, verifier = boundary_auth(settings, McpRun("http", None, None), {}, core.database)
    assert fixed is None
    assert isinstance(verifier, JwtTokenVerifier)
    anyio.run(core.aclose)
    server_stdio = McpRun("stdio", None, "http://127.0.0.1:9")
    fixed, verifier = boundary_auth(settings, server_stdio, {"ASKDOCS_MCP_TOKEN": tokens.valid()})
    assert verifier is None
    assert fixed is not None
    assert fixed.sub == "user-1"
    with pytest.raises(AuthError):
        boundary_auth(settings, server_stdio, {})


def test_local_verifier_refuses_deleted_users_and_rereads_authority(tmp_path: Path) -> None:
    """Defect 6 in process: with the local user check a token is only as good as its user
    in the database now, whatever the token itself claims."""
    tokens = seeded_tokens(tmp_path / "data")
    core = Core(tokens.settings)
    verifier = JwtTokenVerifier(tokens.settings, LocalUsers(core.database))
    token = tokens.valid(platform_admin=True)  # the token claims more than the user has
    access = anyio.run(verifier.verify_token, token)
    assert access is not None
    context = context_from_access_token(access)
    assert (context.sub, context.org, context.org_role) == (tokens.sub, tokens.org, "admin")
    assert context.platform_admin is False  # the database's value, not the token's
    db = Database.open(tokens.settings)
    try:
        UserService(db).add_member(tokens.org, tokens.sub, "member")
        assert context_from_access_token(anyio.run(verifier.verify_token, token)).org_role == (  # type: ignore[arg-type]
            "member"
        )
        UserService(db).delete(tokens.sub)
    finally:
        db.close()
    assert anyio.run(verifier.verify_token, token) is None
    anyio.run(core.aclose)
