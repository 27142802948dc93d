"""Battery categories for password sign-in and browser sessions (issue #27): ``sign_in``
(the per-account limit, the owner not locked out by an attacker elsewhere, the limit on
password changes, the same timing for unknown and known emails), ``csrf`` (every
cookie-authenticated change of ``/openapi.json`` forged three ways) and ``sessions``
(fixation, sign-out, password change, member removal). Another client is another loopback
address (127.0.0.2, ...), as the server sees it."""

from __future__ import annotations

import statistics
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
from bench.battery.accounts import PASSWORD, Browser, code_of, world
from bench.battery.categories import Mode, Result
from bench.battery.rig import Rig

ATTACKER, OWNER, TIMER = "127.0.0.2", "127.0.0.3", "127.0.0.4"
OWNER_WAIT = 30.0  # seconds the owner may be slowed, not locked out (a bound)


def sign_in(rig: Rig, mode: Mode) -> Result:
    result = Result("sign_in")
    people = world(rig)
    for email in ("limit@battery.test", "victim@battery.test", "pw@battery.test"):
        people.person(email)
    _account_limit(rig, result)
    _owner_not_locked_out(rig, result)
    _password_change_limit(rig, result)
    gap = _timing(rig, result, people, 12 if mode.full else 6)
    result.figure = f"known_minus_unknown_median_ms={gap:.0f}"
    return result


def _account_limit(rig: Rig, result: Result) -> None:
    """Wrong passwords for one account from one client: refused (429) before the 12th."""
    with Browser(rig, ATTACKER) as attacker:
        statuses = [attacker.sign_in("limit@battery.test", "wrong").status_code for _ in range(12)]
    result.probes += len(statuses)
    if 429 not in statuses:
        result.fail(f"12 wrong passwords, never 429: {sorted(set(statuses))}")


def _owner_not_locked_out(rig: Rig, result: Result) -> None:
    """The owner signed in once from their browser; then 30 wrong passwords from an
    attacker's client; the owner, from that browser, still signs in with the right password
    (after a back-off of at most 30 s)."""
    with Browser(rig, OWNER) as owner:
        first = owner.sign_in("victim@battery.test")
        owner.send("POST", "/api/v1/auth/sign-out")
        with Browser(rig, ATTACKER) as attacker:
            for _ in range(30):
                attacker.sign_in("victim@battery.test", "wrong guess")
        result.probes += 31
        if first.status_code != 200:
            result.fail(f"the owner's first sign-in -> {first.status_code} (probe blind)")
        deadline = time.monotonic() + OWNER_WAIT
        answer = owner.sign_in("victim@battery.test")
        while answer.status_code == 429 and time.monotonic() < deadline:
            time.sleep(min(_retry_after(answer), max(0.0, deadline - time.monotonic())))
            answer = owner.sign_in("victim@battery.test")  # polling, with the bound above
    result.probes += 1
    if answer.status_code != 200:
        result.fail(f"the owner is locked out: {answer.status_code} {code_of(answer)}")


def _retry_after(answer: httpx.Response) -> float:
    value = answer.headers.get("retry-after", "1")
    return max(0.5, min(float(value) if value.isdigit() else 1.0, OWNER_WAIT))


def _password_change_limit(rig: Rig, result: Result) -> None:
    """A stolen session guessing the current password: 429 within 15 tries."""
    with Browser(rig, ATTACKER) as thief:
        if thief.sign_in("pw@battery.test").status_code != 200:
            result.fail("pw@ cannot sign in")
            return
        body = {"currentPassword": "a wrong guess", "newPassword": "another long passphrase"}
        statuses = [
            thief.send("POST", "/api/v1/auth/password", json=body).status_code for _ in range(15)
        ]
    result.probes += len(statuses)
    if 429 not in statuses:
        result.fail(f"15 wrong current passwords, never 429: {sorted(set(statuses))}")


def _timing(rig: Rig, result: Result, people: Any, rounds: int) -> float:
    """Sign-in with an unknown email and with a known one (wrong password): the medians
    must not tell them apart (argon2 runs for both)."""
    known = [people.person(f"timing-{n}@battery.test") for n in range(rounds)]
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    with Browser(rig, TIMER) as client:
        for n in range(len(known)):
            for kind, email in (
                ("known", f"timing-{n}@battery.test"),
                ("unknown", f"nobody-{n}@battery.test"),
            ):
                started = time.monotonic()
                client.sign_in(email, "not the password")
                times[kind].append(time.monotonic() - started)
                result.probes += 1
    gap = statistics.median(times["known"]) - statistics.median(times["unknown"])
    slower = max(statistics.median(times["known"]), statistics.median(times["unknown"]))
    if abs(gap) > 0.04 and abs(gap) > 0.6 * slower:
        result.fail(f"timing tells known emails apart: {gap * 1000:.0f} ms")
    return gap * 1000


# -- CSRF ------------------------------------------------------------------------------

# changes a credential in the body authenticates (no session to forge): a foreign Origin
# must still be refused (login CSRF: signing the victim's browser in to the attacker's account)
LOGINS = {
    "/api/v1/auth/sign-in": {"email": "csrf@battery.test", "password": "not the password"},
    "/api/v1/auth/reset": {"token": "r" * 32, "password": "a long enough passphrase"},
}
FORGERIES = ("no token", "wrong token", "foreign origin")


def csrf(rig: Rig, mode: Mode) -> Result:
    """Every change under ``/api/v1`` that a session cookie authenticates, forged: without
    the CSRF token, with another token, and with the right token from a foreign Origin.
    Each must be ``403 csrf_failed``, and nothing may change (the database and the sites
    folder are compared around the whole run). Sign-in and the reset link, which a
    credential in the body authenticates, must refuse a foreign Origin (login CSRF)."""
    from bench.battery.authz import people as crew

    result = Result("csrf")
    people = world(rig)
    people.person("csrf@battery.test")
    changes = _changes(rig)
    with Browser(rig) as victim:
        if victim.sign_in("csrf@battery.test").status_code != 200:
            result.fail("csrf@ cannot sign in")
            return result
        before = _state(crew(rig))
        for method, path in changes:
            for forgery in FORGERIES:
                answer = victim.http.request(
                    method, path, json={}, headers=_forged(victim, forgery)
                )
                result.probes += 1
                if (answer.status_code, code_of(answer)) != (403, "csrf_failed"):
                    result.fail(
                        f"{forgery}: {method} {path} -> {answer.status_code} {code_of(answer)}"
                    )
        if victim.http.get("/api/v1/auth/me").status_code != 200:
            result.fail("the session did not survive the forgeries")
    for path, body in LOGINS.items():
        answer = httpx.post(rig.url + path, json=body, headers={"Origin": "https://evil.invalid"})
        result.probes += 1
        if (answer.status_code, code_of(answer)) != (403, "csrf_failed"):
            result.fail(f"login from a foreign origin: {path} -> {answer.status_code}")
    if _state(crew(rig)) != before:
        result.fail("a forged request changed something")
    result.figure = f"operations={len(changes)} forgeries_accepted={result.failures}"
    return result


def _state(crew: Any) -> tuple[object, object]:
    """The admin tables and the sites folder; index runs aside (the background indexer)."""
    tables, tree = crew.snapshot()
    return {name: rows for name, rows in tables.items() if "run" not in name}, tree


def _forged(victim: Browser, forgery: str) -> dict[str, str]:
    if forgery == "no token":
        return {}
    if forgery == "wrong token":
        return {"X-CSRF-Token": "0" * len(victim.csrf or "x" * 43)}
    return {"X-CSRF-Token": victim.csrf, "Origin": "https://evil.invalid"}


def _changes(rig: Rig) -> list[tuple[str, str]]:
    spec = httpx.get(rig.url + "/openapi.json", timeout=60).json()
    found = []
    for template, operations in spec["paths"].items():
        if not template.startswith("/api/v1/") or template in LOGINS:
            continue
        for method in operations:
            if method.upper() in ("POST", "PUT", "PATCH", "DELETE"):
                found.append((method.upper(), _filled(template)))
    return sorted(found)


def _filled(template: str) -> str:
    """Path parameters as ids nobody has (the CSRF check comes before any lookup)."""
    out, inside = [], False
    for char in template:
        if char == "{":
            inside = True
            out.append("battery-x")
        elif char == "}":
            inside = False
        elif not inside:
            out.append(char)
    return "".join(out)


# -- sessions --------------------------------------------------------------------------


def sessions(rig: Rig, mode: Mode) -> Result:
    """Fixation (a cookie planted before sign-in is not the session after it), sign-out
    (the old cookie is refused), a password change (every other session and every bearer
    token of the account refused), member removal (the organisation's private data is gone
    at once for a session that stays signed in)."""
    result = Result("sessions")
    people = world(rig)
    user = people.person("sessions@battery.test")
    checks = [_fixation, _sign_out, _password_change]
    for check in checks:
        check(rig, result, user)
    _member_removal(rig, result)
    result.figure = f"checks={len(checks) + 1}"
    return result


def _me(http: httpx.Client, headers: dict[str, str] | None = None) -> int:
    return http.get("/api/v1/auth/me", headers=headers or {}).status_code


def _fixation(rig: Rig, result: Result, user: str) -> None:
    cookie = world(rig).settings.auth.session_cookie
    planted = "planted-by-the-attacker-0123456789abcdef"
    host = urlsplit(rig.url).hostname or "127.0.0.1"
    with Browser(rig) as browser:
        browser.http.cookies.set(cookie, planted, domain=host, path="/")
        browser.sign_in("sessions@battery.test")
        issued = {c.value for c in browser.http.cookies.jar if c.name == cookie}
    result.probes += 2
    if not issued or planted in issued:
        result.fail("the planted session cookie survived sign-in")
    with httpx.Client(base_url=rig.url, timeout=30) as attacker:
        attacker.cookies.set(cookie, planted, domain=host, path="/")
        if _me(attacker) == 200:
            result.fail("the planted cookie signs the attacker in")


def _sign_out(rig: Rig, result: Result, user: str) -> None:
    cookie = world(rig).settings.auth.session_cookie
    with Browser(rig) as browser:
        browser.sign_in("sessions@battery.test")
        stolen = next((c.value for c in browser.http.cookies.jar if c.name == cookie), "") or ""
        browser.send("POST", "/api/v1/auth/sign-out")
    with httpx.Client(base_url=rig.url, timeout=30, cookies={cookie: stolen}) as thief:
        result.probes += 1
        if _me(thief) != 401:
            result.fail("a signed-out session still works")


def _password_change(rig: Rig, result: Result, user: str) -> None:
    people = world(rig)
    token = people.bearer(user)
    with Browser(rig) as laptop, Browser(rig) as phone:
        laptop.sign_in("sessions@battery.test")
        phone.sign_in("sessions@battery.test")
        new = "a brand new passphrase 42"
        body = {"currentPassword": PASSWORD, "newPassword": new}
        changed = laptop.send("POST", "/api/v1/auth/password", json=body)
        result.probes += 3
        if changed.status_code != 204:
            result.fail(f"password change -> {changed.status_code} {code_of(changed)}")
        if _me(phone.http) != 401:
            result.fail("another session survived the password change")
        with httpx.Client(base_url=rig.url, timeout=30) as api:
            if _me(api, token) != 401:
                result.fail("a bearer token survived the password change")
    people.accounts.set_password(user, PASSWORD)  # as it was, for the checks after


def _member_removal(rig: Rig, result: Result) -> None:
    from bench.battery.private import PRIVATE, private_site

    site = private_site(rig)
    people = world(rig)
    people.person("leaver@battery.test")
    leaver = people.users.by_email("leaver@battery.test")
    people.users.add_member(site.org, leaver.id, "member")
    with Browser(rig) as browser:
        browser.sign_in("leaver@battery.test")
        path = f"/api/docs/articles/canary?locale=en&site={PRIVATE}"
        before = browser.http.get(path).status_code
        removed = site.owner.delete(f"/api/v1/orgs/{site.org}/members/{leaver.id}")
        after = browser.http.get(path)
    result.probes += 3
    if before != 200:
        result.fail(f"a member cannot read the private site ({before}): the probe is blind")
    if removed.status_code != 204:
        result.fail(f"removing the member -> {removed.status_code}")
    if after.status_code != 404 or site.canary in after.text:
        result.fail(f"a removed member still reads the private site: {after.status_code}")
