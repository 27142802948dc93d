"""Defects 3 and 7 of issue 27: password changes share the sign-in limiter, and a
stranger's wrong passwords slow the stranger down without locking the owner out (device
cookies for the owner's browsers, a reset link for a new one)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from askdocs.users.types import User
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import model_server
from tests.signin.conftest import PASSWORD, accounts, person, sign_in

pytestmark = pytest.mark.anyio
SIGN_IN = "/api/v1/auth/sign-in"
WRONG = "not the password at all"


def client_from(harness: Harness, address: str) -> httpx.AsyncClient:
    """Another browser, on another machine (its own address, so its own visitor id)."""
    app = harness.client._transport.app  # type: ignore[attr-defined]
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://askdocs.test")


async def attempt(client: httpx.AsyncClient, email: str, password: str) -> httpx.Response:
    return await client.post(SIGN_IN, json={"email": email, "password": password})


async def strangers_guess(harness: Harness, email: str, count: int) -> list[int]:
    statuses = []
    for n in range(count):
        async with client_from(harness, f"203.0.113.{n + 1}") as stranger:
            statuses.append((await attempt(stranger, email, WRONG)).status_code)
    return statuses


async def test_targeted_lockout_ten_wrong_passwords_do_not_lock_the_owner_out(
    harness: Harness,
) -> None:
    person(harness, "ada@example.com")
    async with client_from(harness, "192.0.2.10") as laptop:
        await sign_in(laptop, "ada@example.com")  # the owner's browser is recognised now
        assert laptop.cookies.get("askdocs_device")
        statuses = await strangers_guess(harness, "ada@example.com", 10)
        assert statuses[:4] == [401] * 4  # auth.sign_in_attempts_per_email is 4 here
        assert set(statuses[4:]) == {429}
        again = await attempt(laptop, "ada@example.com", PASSWORD)
        assert again.status_code == 200, again.text
    async with client_from(harness, "192.0.2.11") as new_browser:  # never signed in before
        paused = await attempt(new_browser, "ada@example.com", PASSWORD)
        assert paused.status_code == 429
        assert paused.json()["error"]["code"] == "sign_in_limited"
        assert int(paused.headers["retry-after"]) > 0


async def test_right_passwords_never_pause_the_account(harness: Harness) -> None:
    """Only failed checks count against an account: signing in from ever new browsers on
    one machine (private windows, test runs) is never paused by its own successes."""
    person(harness, "ada@example.com")
    for _ in range(harness.settings.auth.sign_in_attempts_per_email + 3):
        async with client_from(harness, "192.0.2.30") as fresh:
            assert (await attempt(fresh, "ada@example.com", PASSWORD)).status_code == 200


async def test_a_reset_link_signs_in_while_strangers_are_paused(harness: Harness) -> None:
    ada = person(harness, "ada@example.com")
    await strangers_guess(harness, "ada@example.com", 6)
    link = accounts(harness).reset_link(ada.id).token
    async with client_from(harness, "192.0.2.20") as new_browser:
        shown = await new_browser.get(f"/api/v1/auth/reset/{link}")
        assert shown.json()["email"] == "ada@example.com"
        done = await new_browser.post(
            "/api/v1/auth/reset", json={"token": link, "password": "a brand new passphrase"}
        )
        assert done.status_code == 200, done.text
        assert (await new_browser.get("/api/v1/auth/me")).status_code == 200
        again = await new_browser.post(
            "/api/v1/auth/reset", json={"token": link, "password": "a brand new passphrase"}
        )
        assert again.json()["error"]["code"] == "reset_link_invalid"
        signed = await attempt(new_browser, "ada@example.com", "a brand new passphrase")
        assert signed.status_code == 200  # recognised from now on


async def test_an_invitation_is_no_reset_link(harness: Harness) -> None:
    person(harness, "ada@example.com")
    token = accounts(harness).invitations.create("ada@example.com").token
    used = await harness.client.post(
        "/api/v1/auth/reset", json={"token": token, "password": "a brand new passphrase"}
    )
    assert used.status_code == 404
    assert used.json()["error"]["code"] == "reset_link_invalid"


@pytest.fixture
async def roomy(tmp_path: Path, docs_root: Path) -> AsyncIterator[Harness]:
    """Per account 10 attempts from strangers, per account and client 3."""
    with model_server() as models:
        url = f"sqlite:///{tmp_path / 'roomy.db'}"
        auth = {"sign_in_attempts_per_email": 10, "sign_in_attempts_per_account_client": 3}
        async with open_harness(tmp_path / "data", url, docs_root, models, auth=auth) as built:
            yield built


async def test_one_client_is_slowed_down_per_account(roomy: Harness) -> None:
    person(roomy, "ada@example.com")
    async with client_from(roomy, "203.0.113.50") as stranger:
        statuses = [
            (await attempt(stranger, "ada@example.com", WRONG)).status_code for _ in range(4)
        ]
        assert statuses == [401, 401, 401, 429]
    async with client_from(roomy, "203.0.113.51") as other:
        assert (await attempt(other, "ada@example.com", WRONG)).status_code == 401


async def test_password_change_attempts_hit_the_sign_in_limiter(harness: Harness) -> None:
    ada: User = person(harness, "ada@example.com")
    csrf = await sign_in(harness.client, ada.email)
    body = {"currentPassword": WRONG, "newPassword": "an even better passphrase"}
    statuses = []
    for _ in range(40):
        answer = await harness.client.post(
            "/api/v1/auth/password", json=body, headers={"X-CSRF-Token": csrf}
        )
        statuses.append(answer.status_code)
        if answer.status_code == 429:
            assert answer.json()["error"]["code"] == "sign_in_limited"
            assert int(answer.headers["retry-after"]) > 0
            break
    assert statuses[-1] == 429
    assert statuses.count(401) <= harness.settings.auth.sign_in_attempts_per_device
