"""Battery categories ``private_sites`` and ``feedback_invitations`` (issue #27).

``private_sites``: an organisation's private site holding a canary word, created and
written through the admin API, read on every surface (reader catalog, article and page,
search, Ask AI on its hostname, ``llms.txt``, ``llms-full.txt``, ``/docs/{slug}.md``, MCP in
server mode) by a visitor, by an account of no organisation (session cookie and bearer
token) and by a member of another organisation: never the canary, always the answer of a
site that does not exist. Its own member reads it on the same surfaces first (the control:
the probes can see the canary).

``feedback_invitations``: feedback on an answer of another visitor or site, on another
user's assistant reply; adding an existing account to an organisation goes through an
invitation it accepts, and the answer does not tell whether the address has an account;
an invitation is accepted once, by its own address.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import anyio
import httpx
from askdocs.admin.names import grantable_tools
from bench.battery.accounts import Browser, code_of, world
from bench.battery.categories import Mode, Result
from bench.battery.mcp import mcp_token, servers, session
from bench.battery.rig import Rig

from askdocs.admin.grants import ensure_first_admin_grant
from askdocs.db.admin_models import ToolGrantRow

PRIVATE = "battery-private"
HOST = "private.battery.test"
CANARY = "quixotrystal"
INDEX_WAIT = 240.0  # seconds for the private site's first index (a bound)
_sites: dict[str, PrivateSite] = {}


@dataclass
class PrivateSite:
    org: str
    owner: httpx.Client  # the organisation's owner, by bearer token
    canary: str
    member: str  # a member's email


def private_site(rig: Rig) -> PrivateSite:
    """The private site, created once per rig through the admin API and indexed."""
    if rig.url in _sites:
        return _sites[rig.url]
    people = world(rig)
    owner_id = people.person("private-owner@battery.test")
    org = people.users.create_organisation("Battery private org", owner_id).id
    member_id = people.person("private-member@battery.test")
    people.users.add_member(org, member_id, "member")
    ensure_first_admin_grant(people.db)
    with people.db.session(write=True) as db:
        for tool in grantable_tools():
            if db.get(ToolGrantRow, (owner_id, tool)) is None:
                db.add(ToolGrantRow(user_id=owner_id, tool_name=tool))
    owner = httpx.Client(base_url=rig.url, timeout=120, headers=people.bearer(owner_id, org=org))
    rig.stack.callback(owner.close)
    site = {"id": PRIVATE, "name": "Battery private", "public": False, "hostnames": [HOST]}
    _change(owner, "create-site", site)
    text = f"---\ntitle: The {CANARY} canary\n---\n# Canary\n\nThe canary word is {CANARY}.\n"
    page = {"siteId": PRIVATE, "path": "canary.md", "content": text}
    _change(owner, "write-page", page)
    owner.post(f"/api/v1/admin/sites/{PRIVATE}/reindex")
    _sites[rig.url] = PrivateSite(org, owner, CANARY, "private-member@battery.test")
    _indexed(rig, member_id)
    return _sites[rig.url]


def _change(owner: httpx.Client, operation: str, body: dict[str, object]) -> None:
    proposed = owner.post(f"/api/v1/admin/proposals/{operation}", json=body)
    proposed.raise_for_status()
    token = proposed.json()["confirmationToken"]
    owner.post(
        f"/api/v1/admin/apply/{operation}", json={**body, "confirmationToken": token}
    ).raise_for_status()


def _indexed(rig: Rig, member_id: str) -> None:
    headers = world(rig).bearer(member_id)
    deadline = time.monotonic() + INDEX_WAIT
    with httpx.Client(base_url=rig.url, timeout=60, headers=headers) as http:
        while time.monotonic() < deadline:
            found = http.get("/api/search", params={"q": CANARY, "site": PRIVATE})
            if CANARY in found.text:
                return
            time.sleep(1.0)  # polling: the background indexer builds the new site
    raise RuntimeError("the private site was never indexed")


SURFACES: list[tuple[str, str, dict[str, str]]] = [
    ("catalog", "/api/docs/catalog", {"locale": "en", "site": PRIVATE}),
    ("article", "/api/docs/articles/canary", {"locale": "en", "site": PRIVATE}),
    ("page", "/docs/canary", {"site": PRIVATE}),
    ("search", "/api/search", {"q": CANARY, "site": PRIVATE}),
    ("llms.txt", "/llms.txt", {"site": PRIVATE}),
    ("llms-full.txt", "/llms-full.txt", {"site": PRIVATE}),
    ("markdown", "/docs/canary.md", {"site": PRIVATE}),
]


def private_sites(rig: Rig, mode: Mode) -> Result:
    result = Result("private_sites")
    site = private_site(rig)
    people = world(rig)
    outsider = people.person("private-outsider@battery.test")
    stranger = people.person("private-stranger@battery.test")
    other_org = people.users.create_organisation(f"Other {time.monotonic_ns()}", stranger).id
    member = people.users.by_email(site.member).id
    seen = _readers(rig, result, site, people.bearer(member), expect_canary=True)
    if not {"catalog", "article", "search"} <= seen:
        result.fail(f"the member sees the canary only on {sorted(seen)}: the probes are blind")
    for name, headers, cookie_email in (
        ("visitor", {}, None),
        ("no organisation (bearer)", people.bearer(outsider), None),
        ("no organisation (session)", {}, "private-outsider@battery.test"),
        ("another organisation", people.bearer(stranger, org=other_org), None),
    ):
        leaked = _readers(
            rig, result, site, headers, expect_canary=False, cookie_email=cookie_email
        )
        if leaked:
            result.fail(f"{name}: the canary leaked on {sorted(leaked)}")
    _ask(rig, result, site)
    _over_mcp(rig, result, site, member, outsider)
    result.figure = f"surfaces={len(SURFACES) + 2} member_saw={len(seen)}"
    return result


def _readers(
    rig: Rig,
    result: Result,
    site: PrivateSite,
    headers: dict[str, str],
    *,
    expect_canary: bool,
    cookie_email: str | None = None,
) -> set[str]:
    """The surfaces that showed the canary to this caller (each a probe)."""
    shown: set[str] = set()
    with Browser(rig) as browser:
        if cookie_email:
            browser.sign_in(cookie_email)
        for name, path, params in SURFACES:
            answer = browser.http.get(path, params=params, headers=headers)
            result.probes += 1
            if site.canary in answer.text:
                shown.add(name)
            elif not expect_canary and answer.status_code not in (404, 400):
                result.fail(f"{name}: {answer.status_code} (not the answer of a missing site)")
    return shown


def _ask(rig: Rig, result: Result, site: PrivateSite) -> None:
    body = {"messages": [{"role": "user", "content": f"What is the {site.canary} word?"}]}
    answer = httpx.post(rig.url + "/api/ask", json=body, headers={"Host": HOST}, timeout=60)
    result.probes += 1
    if site.canary in answer.text or answer.status_code == 200:
        result.fail(
            f"Ask AI on the private site's hostname answered a visitor: {answer.status_code}"
        )


def _over_mcp(rig: Rig, result: Result, site: PrivateSite, member: str, outsider: str) -> None:
    remote, _ = servers(rig)

    async def read(user: str) -> list[str]:
        texts = []
        async with session(remote.url, mcp_token(rig, user)) as client:
            for tool, args in (
                ("list_catalog", {"site": PRIVATE}),
                ("search_docs", {"query": site.canary, "site": PRIVATE}),
                ("get_article", {"slug_or_path": "canary", "site": PRIVATE}),
            ):
                called = await client.call_tool(tool, args)
                texts.append(" ".join(getattr(c, "text", "") for c in called.content))
        return texts

    mine = anyio.run(read, member)
    theirs = anyio.run(read, outsider)
    result.probes += 6
    if not any(site.canary in text for text in mine):
        result.fail("MCP: the member sees no canary (the probe is blind)")
    if any(site.canary in text for text in theirs):
        result.fail("MCP: the canary leaked to an account outside the organisation")


# -- feedback and invitations -----------------------------------------------------------


def feedback_invitations(rig: Rig, mode: Mode) -> Result:
    result = Result("feedback_invitations")
    _feedback(rig, result)
    _invitations(rig, result)
    return result


def _feedback(rig: Rig, result: Result) -> None:
    """Ratings of answers that are not the caller's: refused, nothing stored."""
    for answer_id in ("00000000-0000-0000-0000-000000000000", "not-an-answer", "../x"):
        answer = httpx.post(
            rig.url + "/api/ask/feedback",
            json={"answerId": answer_id, "rating": "down"},
            timeout=30,
        )
        result.probes += 1
        if answer.status_code < 400 or answer.status_code >= 500:
            result.fail(f"Ask AI feedback on answer {answer_id!r}: {answer.status_code}")
    people = world(rig)
    rater = people.person("rater@battery.test")
    for reply in ("00000000-0000-0000-0000-000000000000", "x" * 64):
        answer = httpx.post(
            rig.url + f"/api/v1/assistant/messages/{reply}/feedback",
            json={"rating": "down"},
            headers=people.bearer(rater),
            timeout=30,
        )
        result.probes += 1
        if answer.status_code not in (400, 404, 405):
            result.fail(f"assistant feedback on another's reply: {answer.status_code}")


def _invitations(rig: Rig, result: Result) -> None:
    site = private_site(rig)
    people = world(rig)
    existing = people.person("invitee-existing@battery.test")
    added, missing = (
        site.owner.post(f"/api/v1/orgs/{site.org}/members", json={"email": email, "role": "member"})
        for email in ("invitee-existing@battery.test", f"nobody-{time.monotonic_ns()}@battery.test")
    )
    result.probes += 2
    if (added.status_code, code_of(added)) != (missing.status_code, code_of(missing)):
        result.fail(
            f"adding a member tells who has an account: {added.status_code} / {missing.status_code}"
        )
    if people.users.role_in(existing, site.org) is not None:
        result.fail("an existing account was added to an organisation without its consent")
    invited = site.owner.post(
        "/api/v1/invitations",
        json={"email": "invitee-new@battery.test", "organisationId": site.org, "role": "member"},
    )
    link = str(invited.json().get("link", "")) if invited.status_code < 400 else ""
    token = link.rsplit("/", 1)[-1]
    result.probes += 1
    if not token:
        result.fail(f"no invitation to accept: {invited.status_code} {code_of(invited)}")
        return
    accept = {"token": token, "name": "New", "password": "a long new passphrase 1"}
    first = httpx.post(rig.url + "/api/v1/auth/invitations/accept", json=accept, timeout=60)
    again = httpx.post(rig.url + "/api/v1/auth/invitations/accept", json=accept, timeout=60)
    result.probes += 2
    if first.status_code >= 400:
        result.fail(f"accepting the invitation: {first.status_code} {code_of(first)} (probe blind)")
    if again.status_code < 400:
        result.fail("an invitation was accepted twice")
