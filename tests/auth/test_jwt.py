from __future__ import annotations

import base64
import json
import time
from pathlib import Path

import jwt as pyjwt
import pytest

from askdocs.auth.jwt import mint, verify
from askdocs.errors import AuthError
from askdocs.keys import standalone_ring
from askdocs.settings import Settings, load_settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(data_dir=tmp_path)


def _b64(obj: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def test_round_trip_keeps_identity(settings: Settings) -> None:
    token = mint(settings, "u1", org="o1", org_role="admin", platform_admin=True)
    claims = verify(token, settings)
    assert (claims.sub, claims.org, claims.org_role, claims.platform_admin) == (
        "u1",
        "o1",
        "admin",
        True,
    )


def signing_key(settings: Settings) -> bytes:
    with standalone_ring(settings) as ring:
        return ring.signing("jwt").secret


def test_minted_tokens_carry_email_and_the_is_admin_alias(settings: Settings) -> None:
    for admin in (True, False):
        token = mint(settings, "u1", email="ada@example.com", platform_admin=admin)
        payload = pyjwt.decode(token, options={"verify_signature": False})
        assert (payload["email"], payload["platformAdmin"], payload["isAdmin"]) == (
            "ada@example.com",
            admin,
            admin,
        )
        assert verify(token, settings).email == "ada@example.com"


@pytest.mark.parametrize(
    ("extra", "admin"),
    [
        ({}, False),  # neither claim: not an admin
        ({"isAdmin": True}, True),  # the alias alone
        ({"platformAdmin": False, "isAdmin": True}, False),  # platformAdmin wins
        ({"platformAdmin": True, "isAdmin": False}, True),
    ],
)
def test_tokens_with_or_without_email_and_is_admin_are_accepted(
    settings: Settings, extra: dict[str, object], admin: bool
) -> None:
    now = int(time.time())
    claims = {"sub": "u1", "iat": now, "exp": now + 60, "iss": "askdocs", "aud": "askdocs-api"}
    token = pyjwt.encode({**claims, **extra}, signing_key(settings), algorithm="HS256")
    verified = verify(token, settings)
    assert (verified.email, verified.platform_admin) == (None, admin)


def test_key_is_stored_once_and_shared(settings: Settings) -> None:
    first = signing_key(settings)
    assert len(first) >= 32
    assert signing_key(load_settings(data_dir=settings.data_dir)) == first
    assert not (settings.data_dir / "jwt-signing-key").exists()  # in the database, not a file


def test_a_stored_key_names_its_version(settings: Settings) -> None:
    token = mint(settings, "u1")
    assert pyjwt.get_unverified_header(token)["kid"] == "1"


@pytest.mark.parametrize("kid", ["0", "2", "x", "1" * 12, ""])
def test_an_unknown_key_id_is_an_invalid_token(settings: Settings, kid: str) -> None:
    token = pyjwt.encode(
        {"sub": "u1", "iat": int(time.time()), "exp": int(time.time()) + 60},
        signing_key(settings),
        algorithm="HS256",
        headers={"kid": kid},
    )
    with pytest.raises(AuthError) as info:
        verify(token, settings)
    assert info.value.code == "invalid_token"


def test_alg_none_is_refused(settings: Settings) -> None:
    now = int(time.time())
    claims = {"sub": "u1", "iat": now, "exp": now + 60, "iss": "askdocs", "aud": "askdocs-api"}
    token = f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(claims)}."
    with pytest.raises(AuthError):
        verify(token, settings)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"aud": "someone-else"}, "invalid_token"),
        ({"iss": "evil"}, "invalid_token"),
        ({"exp": 1}, "token_expired"),
    ],
)
def test_wrong_claims_are_refused(settings: Settings, change: dict[str, object], code: str) -> None:
    now = int(time.time())
    claims = {"sub": "u1", "iat": now, "exp": now + 60, "iss": "askdocs", "aud": "askdocs-api"}
    claims.update(change)
    token = pyjwt.encode(claims, signing_key(settings), algorithm="HS256")
    with pytest.raises(AuthError) as info:
        verify(token, settings)
    assert info.value.code == code


def test_missing_exp_is_refused(settings: Settings) -> None:
    claims = {"sub": "u1", "iat": int(time.time()), "iss": "askdocs", "aud": "askdocs-api"}
    token = pyjwt.encode(claims, signing_key(settings), algorithm="HS256")
    with pytest.raises(AuthError):
        verify(token, settings)


def test_other_algorithm_is_refused(settings: Settings) -> None:
    now = int(time.time())
    claims = {"sub": "u1", "iat": now, "exp": now + 60, "iss": "askdocs", "aud": "askdocs-api"}
    token = pyjwt.encode(claims, signing_key(settings), algorithm="HS512")
    with pytest.raises(AuthError):
        verify(token, settings)


def test_is_admin_alias_and_platform_admin_wins(settings: Settings) -> None:
    now = int(time.time())
    base = {"sub": "u1", "iat": now, "exp": now + 60, "iss": "askdocs", "aud": "askdocs-api"}
    key = signing_key(settings)
    alias = pyjwt.encode({**base, "isAdmin": True}, key, algorithm="HS256")
    both = pyjwt.encode({**base, "isAdmin": True, "platformAdmin": False}, key, algorithm="HS256")
    assert verify(alias, settings).platform_admin is True
    assert verify(both, settings).platform_admin is False


def _signed(settings: Settings, **change: object) -> str:
    now = int(time.time())
    claims: dict[str, object] = {
        "sub": "u1", "iat": now, "exp": now + 60, "iss": "askdocs", "aud": "askdocs-api"
    }  # fmt: skip
    claims.update(change)
    return pyjwt.encode(claims, signing_key(settings), algorithm="HS256")


def test_fractional_exp_is_accepted_and_floored_not_a_500(settings: Settings) -> None:
    exp = time.time() + 60.75
    claims = verify(_signed(settings, exp=exp, iat=time.time()), settings)
    assert claims.expires_at == int(exp)


@pytest.mark.parametrize("claim", ["exp", "iat"])
def test_numeric_string_exp_is_refused(settings: Settings, claim: str) -> None:
    value = str(int(time.time()) + 60)
    with pytest.raises(AuthError) as info:
        verify(_signed(settings, **{claim: value}), settings)
    assert info.value.code == "invalid_token"
