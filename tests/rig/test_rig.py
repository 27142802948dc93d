"""Over the rig (issue #26): https through nginx to two replicas on one PostgreSQL and Redis.

- Chromium signs in through https with a password and through the OpenID provider; every
  write the pages make succeeds (no ``403 csrf_failed``), and the session cookie is
  ``Secure`` and ``HttpOnly``;
- 100 concurrent valid asks from 10 visitors: exactly 7 answered per visitor, wherever
  they landed, and not one ``503``;
- an empty new public site of one organisation leaves ``/readyz`` 200 on both replicas
  while it is indexed, and ``/readyz?site=`` tells its state;
- a replica killed with -9 is routed around, and starts again.

All tests are sync (Chromium's sync driver holds this thread's event loop); the burst runs
on its own event loop in a worker thread.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import redis
from playwright.sync_api import Browser, Page, expect

from askdocs.guard.limits import utc_day
from tests.rig.conftest import DAILY_VISITOR_LIMIT, Watched, rig_page
from tests.rig.rig import PASSWORD, ROOT_EMAIL, SITE_ID, Rig, upstream_of

pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.node,
    pytest.mark.postgres,
    pytest.mark.redis,
]
VISITORS = 10
ASKS_PER_VISITOR = 10
QUESTION = {"messages": [{"role": "user", "content": "How do I install Widget with pip?"}]}
SAMPLE_SECONDS = 120.0  # how long readiness is watched while a new site is indexed, at most


def session_cookie(page: Page) -> dict[str, Any]:
    cookies = page.context.cookies()
    return dict(next(c for c in cookies if c["name"] == "askdocs_session"))


def assert_writes_succeeded(watched: Watched, *expected: str) -> None:
    failed = [w for w in watched.writes if w[2] >= 400]
    assert failed == []
    paths = [url for _, url, _ in watched.writes]
    for part in expected:
        assert any(part in url for url in paths), (part, paths)


def test_password_sign_in_through_https(rig: Rig, browser: Browser) -> None:
    with rig_page(browser) as watched:
        page = watched.page
        page.goto(f"{rig.url}/sign-in?next=/admin")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.locator("#email").fill(ROOT_EMAIL)
        page.locator("#password").fill(PASSWORD)
        page.locator("#signin-submit").click()
        page.wait_for_url(f"{rig.url}/admin")
        expect(page.locator("#account-who")).to_have_text(ROOT_EMAIL)
        session = session_cookie(page)
        assert (session["secure"], session["httpOnly"], session["sameSite"]) == (True, True, "Lax")
        page.locator("#invite-email").fill("newcomer@example.com")
        page.locator("#invite-form button[type=submit]").click()
        link = page.locator("#invite-link")
        expect(link).to_be_visible()
        assert link.input_value().startswith(f"{rig.url}/invite/")  # the public origin
        page.locator("#sign-out").click()
        page.wait_for_url(f"{rig.url}/sign-in")
    assert_writes_succeeded(watched, "/auth/sign-in", "/invitations", "/auth/sign-out")


def test_single_sign_on_through_https(rig: Rig, browser: Browser) -> None:
    assert rig.oidc is not None
    with rig_page(browser) as watched:
        page = watched.page
        page.goto(f"{rig.url}/sign-in?next=/assistant")
        page.locator("#signin-sso").click()
        page.wait_for_url(f"{rig.oidc.issuer}/interaction/**")
        page.locator("#provider-email").fill("grace@example.com")
        page.locator("#provider-submit").click()
        page.wait_for_url(f"{rig.url}/assistant")
        expect(page.locator("#composer-input")).to_be_visible()
        session = session_cookie(page)
        assert (session["secure"], session["httpOnly"]) == (True, True)
        with page.expect_response(lambda r: r.url.endswith("/api/v1/auth/sign-out")) as out:
            page.locator("#sign-out").click()  # the assistant page signs out in place
        assert out.value.status == 204
    assert_writes_succeeded(watched, "/auth/sign-out")


def site_count(rig: Rig) -> int:
    day, _ = utc_day(int(time.time()))
    value = redis.Redis.from_url(rig.redis.url).get(f"askdocs:limits:day:{day}:site:{SITE_ID}")
    return int(value or 0)


async def burst(rig: Rig) -> list[tuple[int, str, str, int]]:
    """100 asks at once: (status, error code or "", replica, visitor number)."""
    limits = httpx.Limits(max_connections=VISITORS * ASKS_PER_VISITOR)
    async with rig.async_client(limits=limits) as http:

        async def ask(visitor: int) -> tuple[int, str, str, int]:
            headers = {"X-Forwarded-For": f"203.0.113.{visitor + 1}"}
            response = await http.post("/api/ask", json=QUESTION, headers=headers)
            failed = response.status_code >= 400
            code = response.json()["error"]["code"] if failed else ""
            return response.status_code, code, upstream_of(response), visitor

        visitors = [v for v in range(VISITORS) for _ in range(ASKS_PER_VISITOR)]
        return list(await asyncio.gather(*(ask(v) for v in visitors)))


def test_100_concurrent_asks_are_counted_exactly_across_both_replicas(rig: Rig) -> None:
    before = site_count(rig)
    with ThreadPoolExecutor(1) as worker:
        answers = worker.submit(asyncio.run, burst(rig)).result()
    answered = VISITORS * DAILY_VISITOR_LIMIT
    outcomes = Counter((status, code) for status, code, _, _ in answers)
    assert outcomes == {(200, ""): answered, (429, "visitor_daily_limit"): 100 - answered}
    per_visitor = Counter(visitor for status, _, _, visitor in answers if status == 200)
    assert set(per_visitor.values()) == {DAILY_VISITOR_LIMIT}
    assert {replica for _, _, replica, _ in answers} == {r.upstream for r in rig.replicas}
    assert site_count(rig) - before == answered  # counted once each, by whichever replica


def test_an_empty_new_organisation_site_leaves_readyz_200(rig: Rig) -> None:
    with rig.client() as http:
        signed = http.post("/api/v1/auth/sign-in", json={"email": ROOT_EMAIL, "password": PASSWORD})
        csrf = {"X-CSRF-Token": signed.json()["csrfToken"]}
        body = {"id": "fresh", "name": "Fresh", "public": True}
        proposed = http.post("/api/v1/admin/proposals/create-site", json=body, headers=csrf)
        assert proposed.status_code == 200, proposed.text
        token = proposed.json()["confirmationToken"]
        applied = http.post(
            "/api/v1/admin/apply/create-site",
            json={**body, "confirmationToken": token},
            headers=csrf,
        )
        assert applied.status_code == 200, applied.text
    creator = rig.replica_of(applied)
    site_states = watch_readiness(rig, creator.url)
    assert site_states[-1]["ready"] is True
    assert site_states[-1]["empty"] is True


def watch_readiness(rig: Rig, creator: str) -> list[dict[str, Any]]:
    """Sample ``/readyz`` on every replica until the creating replica says the new site
    is ready (indexed, empty), each sample 200; the new site's states as they came."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + SAMPLE_SECONDS
    with httpx.Client(timeout=10) as http:
        while time.monotonic() < deadline:
            for replica in rig.replicas:
                response = http.get(replica.url + "/readyz")
                assert response.status_code == 200, (replica.name, response.text)
                listed = {s["site"]: s for s in response.json()["sites"]}
                if replica.url == creator:  # it knows the site: listed, holding nothing
                    assert listed["fresh"]["holds_readiness"] is False
            own = http.get(creator + "/readyz", params={"site": "fresh"})
            [state] = own.json()["sites"]
            seen.append(state)
            if state["ready"]:
                assert own.status_code == 200
                return seen
            assert own.status_code == 503  # the site itself is still building
            time.sleep(0.2)
    raise AssertionError(f"the new site was never indexed: {seen[-3:]}")


def test_a_killed_replica_is_routed_around_and_starts_again(rig: Rig) -> None:
    """The rig's own tools (for the replica tests): kill -9 one replica, the proxy keeps
    answering from the other, the replica starts again on its port and data dir."""
    victim, survivor = rig.replicas
    victim.kill()
    with rig.client() as http:
        served = {upstream_of(http.get("/api/search", params={"q": "install"})) for _ in range(6)}
    assert served == {survivor.upstream}
    victim.start()
    victim.wait_ready()
    with httpx.Client(base_url=victim.url) as direct:
        assert direct.get("/api/search", params={"q": "install"}).status_code == 200
