"""Battery categories ``sso`` and ``open_redirects`` (issue #27).

``sso``: single sign-on callbacks against the battery's scripted OpenID provider
(``oidc_op``), each id token signed with the provider's key so the claim is what is tested:
state (tampered, replayed, without its cookie), nonce, ``iss``, ``aud``, ``exp``, ``alg``
(``none``, HS256 with the public key), ``email_verified`` (missing, ``"false"``, ``false``,
``"true"``), an unverified userinfo email, a domain that only a second ``@`` makes allowed,
and an existing platform administrator's address on a new subject (account linking). Only
the control (a verified address of the allowed domain) signs in.

``open_redirects``: where a sign-in sends the browser next. Server side, the single sign-on
callback's redirect for each ``next``; in Chromium, the password sign-in page with each
``next`` (``/<tab>/host``, CR-LF, ``//host``, ``/\\host``, schemes): the browser must stay on
this server.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import httpx
from bench.battery.accounts import PASSWORD, world
from bench.battery.categories import Mode, Result
from bench.battery.oidc_op import Flow
from bench.battery.rig import Rig

START = "/api/v1/auth/oidc/start"
CALLBACK = "/api/v1/auth/oidc/callback"


class Outcome:
    def __init__(self, signed_in: str | None, location: str) -> None:
        self.signed_in = signed_in  # the email the session belongs to, if any
        self.location = location  # where the callback sent the browser


def sign_on(rig: Rig, flow: Flow | None, *, next_path: str = "/", tamper: str = "") -> Outcome:
    """One single sign-on round trip, as a browser makes it (cookies kept)."""
    with httpx.Client(base_url=rig.url, timeout=60, follow_redirects=False) as browser:
        if flow is not None:
            rig.oidc.next_flow(flow)
        started = browser.get(START, params={"next": next_path})
        to_provider = started.headers.get("location", "")
        back = httpx.get(to_provider, timeout=60, follow_redirects=False).headers.get(
            "location", ""
        )
        callback = _tampered(back, tamper)
        if tamper == "no state cookie":
            browser.cookies.clear()
        if tamper == "replay":  # the callback again, with the state cookie, in another browser
            sealed = dict(browser.cookies)
            browser.get(callback)
            return _replayed(rig, callback, sealed)
        answer = browser.get(callback)
        return Outcome(_signed_in(browser), answer.headers.get("location", ""))


def _replayed(rig: Rig, callback: str, cookies: dict[str, str]) -> Outcome:
    with httpx.Client(base_url=rig.url, timeout=60, cookies=cookies) as other:
        answer = other.get(callback, follow_redirects=False)
        return Outcome(_signed_in(other), answer.headers.get("location", ""))


def _signed_in(browser: httpx.Client) -> str | None:
    me = browser.get("/api/v1/auth/me")
    return str(me.json()["user"]["email"]) if me.status_code == 200 else None


def _tampered(url: str, tamper: str) -> str:
    if tamper == "state":
        head, _, tail = url.partition("state=")
        return head + "state=" + ("A" if not tail.startswith("A") else "B") + tail[1:]
    return url


def _cases(rig: Rig) -> list[tuple[str, Flow, str, bool]]:
    """(name, flow, tamper, whether it must sign in)."""
    now = int(time.time())
    ok = "sso-user@corp.test"
    return [
        ("control", Flow(ok), "", True),
        ("state tampered", Flow(ok), "state", False),
        ("state replayed", Flow("sso-replay@corp.test"), "replay", False),
        ("no state cookie", Flow("sso-nocookie@corp.test"), "no state cookie", False),
        ("nonce", Flow("sso-nonce@corp.test", {"nonce": "not-the-nonce"}), "", False),
        ("iss", Flow("sso-iss@corp.test", {"iss": "https://evil.invalid"}), "", False),
        ("aud", Flow("sso-aud@corp.test", {"aud": "someone-else"}), "", False),
        ("exp", Flow("sso-exp@corp.test", {"exp": now - 3600, "iat": now - 7200}), "", False),
        ("alg none", Flow("sso-none@corp.test", alg="none"), "", False),
        ("alg HS256 (key confusion)", Flow("sso-hs@corp.test", alg="HS256"), "", False),
        ("email_verified missing", Flow("sso-nv1@corp.test", drop=("email_verified",)), "", False),
        (
            'email_verified "false"',
            Flow("sso-nv2@corp.test", {"email_verified": "false"}),
            "",
            False,
        ),
        ("email_verified false", Flow("sso-nv3@corp.test", {"email_verified": False}), "", False),
        ('email_verified "true"', Flow("sso-nv4@corp.test", {"email_verified": "true"}), "", False),
        (
            "unverified userinfo email",
            Flow(
                "sso-ui@corp.test",
                drop=("email", "email_verified"),
                userinfo={
                    "sub": "sub-sso-ui@corp.test",
                    "email": "sso-ui@corp.test",
                    "email_verified": False,
                },
            ),
            "",
            False,
        ),
        ("two @ in the address", Flow("x@evil.example@corp.test"), "", False),
        ("another domain", Flow("sso@other.test"), "", False),
        ("an admin's address, new subject", Flow("sso-admin@corp.test"), "", False),
    ]


def sso(rig: Rig, mode: Mode) -> Result:
    result = Result("sso")
    world(rig).person("sso-admin@corp.test", platform_admin=True)
    signed = 0
    for name, flow, tamper, must in _cases(rig):
        outcome = sign_on(rig, flow, tamper=tamper)
        result.probes += 1
        ok = outcome.signed_in is not None
        signed += ok
        if must and outcome.signed_in != flow.email:
            result.fail(f"{name}: did not sign in ({outcome.location[:80]})")
        elif not must and ok:
            result.fail(f"{name}: signed in as {outcome.signed_in}")
    result.figure = f"cases={result.probes} signed_in={signed} (1 expected)"
    return result


# -- open redirects --------------------------------------------------------------------

NEXTS = [
    "/\t/evil.invalid/phish",
    "/\n/evil.invalid/phish",
    "/\r\n/evil.invalid/phish",
    "//evil.invalid/phish",
    "/\\evil.invalid/phish",
    "\\\\evil.invalid/phish",
    "https://evil.invalid/phish",
    "http:evil.invalid",
    "javascript:alert(1)",
    " //evil.invalid/phish",
    "/\t\\evil.invalid",
    "///evil.invalid/phish",
    "/%2F/evil.invalid/phish",
    "/\u3000/evil.invalid",
    "/.//evil.invalid/phish",
]


def _same_origin(rig: Rig, location: str) -> bool:
    """Whether a browser following ``location`` stays on this server: resolved as browsers
    resolve it (tabs and newlines dropped, ``\\`` read as ``/`` in http URLs)."""
    cleaned = location.replace("\\", "/")
    resolved = urlsplit(urljoin(rig.url + "/sign-in", cleaned))
    origin = urlsplit(rig.url)
    return (resolved.scheme, resolved.netloc) == (origin.scheme, origin.netloc)


def open_redirects(rig: Rig, mode: Mode) -> Result:
    result = Result("open_redirects")
    for n, nxt in enumerate(NEXTS):
        outcome = sign_on(rig, Flow(f"sso-next-{n}@corp.test"), next_path=nxt)
        result.probes += 1
        if not _same_origin(rig, outcome.location):
            result.fail(f"single sign-on next {nxt!r} -> {outcome.location[:60]!r}")
    left = _browser(rig, result)
    result.figure = f"nexts={len(NEXTS)} browser_left_the_site={left}"
    return result


def _browser(rig: Rig, result: Result) -> int:
    from bench.battery.browser import CHROMIUM
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        result.fail("Chromium is not installed: run scripts/install-test-deps")
        return 0
    people = world(rig)
    own = urlsplit(rig.url).netloc
    left = 0
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            for n, nxt in enumerate(NEXTS):
                email = f"redirect-{n}@battery.test"
                people.person(email)
                foreign: list[str] = []
                page = browser.new_page()
                page.route("**/*", _guard(own, foreign))
                page.goto(f"{rig.url}/sign-in?next={quote(nxt, safe='')}")
                page.locator("#email").fill(email)
                page.locator("#password").fill(PASSWORD)
                page.locator("#signin-submit").click()
                _settled(page, foreign)
                result.probes += 1
                if foreign or urlsplit(page.url).netloc not in (own, ""):
                    left += 1
                    where = (foreign or [page.url])[0][:60]
                    result.fail(f"sign-in page next {nxt!r} left the site: {where}")
                page.close()
        finally:
            browser.close()
    return left


def _guard(own: str, foreign: list[str]) -> Callable[[Any], None]:
    """A route handler: requests to another host are recorded and never sent."""

    def guard(route: Any) -> None:
        if urlsplit(route.request.url).netloc not in (own, ""):
            foreign.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    return guard


def _settled(page: object, foreign: list[str], bound: float = 20.0) -> None:
    """Until the page left the sign-in page or tried to (polling, with a bound)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline and not foreign:
        if not urlsplit(page.url).path.startswith("/sign-in"):  # type: ignore[attr-defined]
            return
        page.wait_for_timeout(100)  # type: ignore[attr-defined]
