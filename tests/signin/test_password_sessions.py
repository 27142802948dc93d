"""Password sign-in, the session cookie, CSRF and revocation over HTTP (in-process app)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from askdocs.auth.jwt import mint
from askdocs.db.models import utcnow
from askdocs.users.sessions import SessionStore
from tests.assistant.conftest import Harness
from tests.signin.conftest import PASSWORD, accounts, browser, person, sign_in

pytestmark = pytest.mark.anyio
THREADS = "/api/v1/assistant/threads"


async def test_sign_in_sets_an_httponly_lax_session_cookie(harness: Harness) -> None:
    person(harness, "ada@example.com")
    response = await harness.client.post(
        "/api/v1/auth/sign-in", json={"email": "Ada@Example.com", "password": PASSWORD}
    )
    assert response.status_code == 200, response.text
    assert response.json()["user"]["email"] == "ada@example.com"
    cookie = response.headers["set-cookie"].lower()
    assert "askdocs_session=" in cookie
    assert "httponly" in cookie
    assert "samesite=lax" in cookie
    assert "secure" not in cookie  # plain HTTP on this test host
    me = await harness.client.get("/api/v1/auth/me")
    assert me.status_code == 200
    assert me.json()["method"] == "password"


async def test_the_cookie_is_secure_over_https(harness: Harness) -> None:
    person(harness, "ada@example.com")
    async with browser(harness, "https://askdocs.test") as client:
        response = await client.post(
            "/api/v1/auth/sign-in", json={"email": "ada@example.com", "password": PASSWORD}
        )
    assert response.status_code == 200
    assert "secure" in response.headers["set-cookie"].lower()


async def test_wrong_password_and_unknown_email_fail_alike(harness: Harness) -> None:
    person(harness, "ada@example.com")
    answers = []
    for email, password in (
        ("ada@example.com", "wrong password!"),
        ("nobody@example.com", PASSWORD),
    ):
        started = time.perf_counter()
        response = await harness.client.post(
            "/api/v1/auth/sign-in", json={"email": email, "password": password}
        )
        answers.append((response.status_code, response.json(), time.perf_counter() - started))
    assert answers[0][:2] == answers[1][:2]
    assert answers[0][0] == 401
    assert answers[0][1]["error"]["code"] == "invalid_credentials"
    assert "set-cookie" not in response.headers


async def test_attempts_are_rate_limited_per_email(harness: Harness) -> None:
    person(harness, "ada@example.com")
    codes = []
    for _ in range(5):
        response = await harness.client.post(
            "/api/v1/auth/sign-in", json={"email": "ada@example.com", "password": "not it at all"}
        )
        codes.append(response.status_code)
    assert codes == [401, 401, 401, 401, 429]
    assert response.json()["error"]["code"] == "sign_in_limited"
    assert int(response.headers["retry-after"]) > 0
    right = await harness.client.post(
        "/api/v1/auth/sign-in", json={"email": "ada@example.com", "password": PASSWORD}
    )
    assert right.status_code == 429  # the right password too, until the window ends


async def test_changes_need_the_csrf_token(harness: Harness) -> None:
    person(harness, "ada@example.com")
    csrf = await sign_in(harness.client, "ada@example.com")
    refused = await harness.client.post(THREADS, json={})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "csrf_failed"
    wrong = await harness.client.post(THREADS, json={}, headers={"X-CSRF-Token": "x" * 43})
    assert wrong.status_code == 403
    made = await harness.client.post(THREADS, json={}, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.text
    listed = await harness.client.get(THREADS)  # reads need no token
    assert [t["id"] for t in listed.json()["threads"]] == [made.json()["id"]]


async def test_a_cross_site_form_post_with_a_valid_cookie_is_refused(harness: Harness) -> None:
    person(harness, "ada@example.com")
    csrf = await sign_in(harness.client, "ada@example.com")
    form = await harness.client.post(
        THREADS,
        content=b"title=pwned",
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": "https://evil.example",
        },
    )
    assert form.status_code == 403
    assert form.json()["error"]["code"] == "csrf_failed"
    # even a stolen CSRF token does not help a page on another origin
    stolen = await harness.client.post(
        THREADS, json={}, headers={"Origin": "https://evil.example", "X-CSRF-Token": csrf}
    )
    assert stolen.status_code == 403
    assert (await harness.client.get(THREADS)).json()["threads"] == []


async def test_a_cross_site_sign_in_is_refused(harness: Harness) -> None:
    person(harness, "ada@example.com")
    response = await harness.client.post(
        "/api/v1/auth/sign-in",
        json={"email": "ada@example.com", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert response.status_code == 403
    assert "set-cookie" not in response.headers


async def test_a_revoked_session_stops_at_once(harness: Harness) -> None:
    ada = person(harness, "ada@example.com")
    await sign_in(harness.client, "ada@example.com")
    assert (await harness.client.get(THREADS)).status_code == 200
    async with browser(harness) as laptop:
        csrf = await sign_in(laptop, "ada@example.com")
        sessions = (await laptop.get("/api/v1/auth/sessions")).json()["sessions"]
        other = next(s for s in sessions if not s["current"])
        revoked = await laptop.delete(
            f"/api/v1/auth/sessions/{other['id']}", headers={"X-CSRF-Token": csrf}
        )
        assert revoked.status_code == 204
    stopped = await harness.client.get(THREADS)
    assert stopped.status_code == 401
    assert stopped.json()["error"]["code"] == "session_expired"
    assert accounts(harness).sessions.for_user(ada.id)  # the laptop's session lives on


async def test_sign_out_ends_the_session(harness: Harness) -> None:
    person(harness, "ada@example.com")
    csrf = await sign_in(harness.client, "ada@example.com")
    cookie = harness.client.cookies.get("askdocs_session")
    out = await harness.client.post("/api/v1/auth/sign-out", headers={"X-CSRF-Token": csrf})
    assert out.status_code == 204
    async with browser(harness) as replay:  # the old cookie, replayed, is dead
        replay.cookies.set("askdocs_session", cookie or "")
        assert (await replay.get("/api/v1/auth/me")).status_code == 401


async def test_a_platform_admin_ends_every_session_of_an_account(harness: Harness) -> None:
    ada = person(harness, "ada@example.com")
    admin = person(harness, "root@example.com", admin=True)
    await sign_in(harness.client, "ada@example.com")
    token = mint(harness.settings, admin.id)
    ended = await harness.client.delete(
        f"/api/v1/users/{ada.id}/sessions", headers={"Authorization": f"Bearer {token}"}
    )
    assert ended.status_code == 204
    assert (await harness.client.get("/api/v1/auth/me")).status_code == 401


async def test_bearer_tokens_keep_working_and_need_no_csrf(harness: Harness) -> None:
    ada = person(harness, "ada@example.com")
    headers = {"Authorization": f"Bearer {mint(harness.settings, ada.id)}"}
    made = await harness.client.post(THREADS, json={}, headers=headers)
    assert made.status_code == 201
    me = await harness.client.get("/api/v1/auth/me", headers=headers)
    assert me.json()["method"] == "token"
    assert me.json()["csrfToken"] is None


async def test_changing_the_password_ends_other_sessions(harness: Harness) -> None:
    person(harness, "ada@example.com")
    await sign_in(harness.client, "ada@example.com")
    async with browser(harness) as laptop:
        csrf = await sign_in(laptop, "ada@example.com")
        body = {"currentPassword": PASSWORD, "newPassword": "an even better passphrase"}
        changed = await laptop.post(
            "/api/v1/auth/password", json=body, headers={"X-CSRF-Token": csrf}
        )
        assert changed.status_code == 204
        assert (await laptop.get("/api/v1/auth/me")).status_code == 200
    assert (await harness.client.get("/api/v1/auth/me")).status_code == 401


async def test_idle_and_absolute_expiry(harness: Harness) -> None:
    ada = person(harness, "ada@example.com")
    store = SessionStore(harness.runtime.db, idle_seconds=600, absolute_seconds=3600)
    new = store.create(ada.id, "password")
    start = new.info.created_at
    assert store.find(new.token, start + timedelta(seconds=590)) is not None  # touches
    assert store.find(new.token, start + timedelta(seconds=1100)) is not None
    assert store.find(new.token, start + timedelta(seconds=1800)) is None  # idle too long
    late = store.create(ada.id, "password")
    for minutes in range(5, 65, 5):
        moment = late.info.created_at + timedelta(minutes=minutes)
        found = store.find(late.token, moment)
        assert (found is not None) == (minutes < 60), minutes
    assert utcnow() < late.info.expires_at
