"""Bearer tokens at the HTTP edge: forged, misdirected or stale tokens are 401."""

from __future__ import annotations

import base64
import json
import time

import jwt as pyjwt
import pytest

from askdocs.users.service import UserService
from tests.assistant.conftest import Harness

THREADS = "/api/v1/assistant/threads"


def _b64(obj: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def _claims(harness: Harness, sub: str, **changes: object) -> dict[str, object]:
    now = int(time.time())
    claims: dict[str, object] = {
        "sub": sub,
        "iat": now,
        "exp": now + 600,
        "iss": harness.settings.auth.jwt_issuer,
        "aud": harness.settings.auth.jwt_audience,
    }
    claims.update(changes)
    return {k: v for k, v in claims.items() if v is not None}


def _signed(harness: Harness, claims: dict[str, object], algorithm: str = "HS256") -> str:
    return pyjwt.encode(claims, harness.app.keys.signing("jwt").secret, algorithm=algorithm)


@pytest.mark.anyio
async def test_valid_token_is_accepted(harness: Harness) -> None:
    user, _ = harness.user("a@x.io")
    token = _signed(harness, _claims(harness, user.id))
    response = await harness.client.get(THREADS, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200


@pytest.mark.anyio
@pytest.mark.parametrize(
    "forge",
    ["alg_none", "wrong_audience", "wrong_issuer", "no_exp", "expired", "hs512", "bad_sig"],
)
async def test_forged_tokens_are_401(harness: Harness, forge: str) -> None:
    user, _ = harness.user("a@x.io")
    claims = _claims(harness, user.id)
    token = {
        "alg_none": lambda: f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(claims)}.",
        "wrong_audience": lambda: _signed(harness, _claims(harness, user.id, aud="other")),
        "wrong_issuer": lambda: _signed(harness, _claims(harness, user.id, iss="evil")),
        "no_exp": lambda: _signed(harness, _claims(harness, user.id, exp=None)),
        "expired": lambda: _signed(harness, _claims(harness, user.id, exp=int(time.time()) - 900)),
        "hs512": lambda: _signed(harness, claims, "HS512"),
        "bad_sig": lambda: pyjwt.encode(claims, "x" * 40, algorithm="HS256"),
    }[forge]()
    response = await harness.client.get(THREADS, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert response.json()["error"]["code"] in {"invalid_token", "token_expired"}


@pytest.mark.anyio
@pytest.mark.parametrize("header", [None, "", "Bearer", "Basic abc", "Bearer  "])
async def test_missing_credentials_are_401(harness: Harness, header: str | None) -> None:
    headers = {"Authorization": header} if header is not None else {}
    response = await harness.client.get(THREADS, headers=headers)
    assert response.status_code == 401


@pytest.mark.anyio
async def test_token_of_a_deleted_user_is_401(harness: Harness) -> None:
    user, headers = harness.user("gone@x.io")
    assert (await harness.client.get(THREADS, headers=headers)).status_code == 200
    UserService(harness.runtime.db).delete(user.id)
    response = await harness.client.get(THREADS, headers=headers)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unknown_user"


@pytest.mark.anyio
async def test_authority_is_read_from_the_database(harness: Harness) -> None:
    """A token claiming platformAdmin and an org role grants neither."""
    from askdocs.auth.jwt import verify
    from askdocs.users.principal import resolve

    user, _ = harness.user("plain@x.io")
    claims = _claims(harness, user.id, platformAdmin=True, org="org-1", orgRole="owner")
    principal = resolve(
        UserService(harness.runtime.db),
        verify(_signed(harness, claims), harness.settings, harness.app.keys),
    )
    assert principal.platform_admin is False
    assert principal.org is None
    assert principal.org_role is None
