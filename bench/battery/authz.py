"""Battery categories for authority: the authorisation matrix (role x operation against the
documented policy, docs/admin-tools.md "Two authorities"), and confirmation-token tampering.
Every refused call is checked against snapshots of the database tables and of the admin
sites folder taken around it: a refusal writes nothing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from bench.battery.categories import Mode, Result
from bench.battery.rig import Rig
from tests.admin.world import db_state, tree_state

from askdocs.admin.grants import ensure_first_admin_grant
from askdocs.admin.table import grantable_tools
from askdocs.auth.jwt import mint
from askdocs.db import Database
from askdocs.db.admin_models import SiteRow, ToolGrantRow
from askdocs.settings import Settings
from askdocs.users.service import UserService

ADMIN = "/api/v1/admin"
ROLES = ("anonymous", "member", "owner", "platform_admin")


@dataclass(frozen=True)
class People:
    headers: dict[str, dict[str, str]]  # role -> Authorization header ({} for anonymous)
    db: Database
    sites_dir: Path

    def snapshot(self) -> tuple[object, object]:
        return db_state(self.db), tree_state(self.sites_dir)


_seeded: dict[str, People] = {}


def people(rig: Rig) -> People:
    """An organisation with an owner and a member (every admin tool granted to both), a
    platform admin outside it, and its site ``alpha`` with one page; seeded once per rig."""
    if rig.url in _seeded:
        return _seeded[rig.url]
    settings = Settings.model_validate(
        {"data_dir": rig.data_dir, "database_url": rig.env["ASKDOCS_DATABASE_URL"]}
    )
    db = Database.open(settings)
    users = UserService(db)
    root = users.create_user("root@battery.test", platform_admin=True)
    owner = users.create_user("owner@battery.test")
    member = users.create_user("member@battery.test")
    org = users.create_organisation("Battery org", owner.id).id
    users.add_member(org, member.id, "member")
    ensure_first_admin_grant(db, grantable_tools())
    with db.session(write=True) as session:
        for user in (owner, member):
            for tool in grantable_tools():
                session.add(ToolGrantRow(user_id=user.id, tool_name=tool))
        roots = [{"path": "", "audience": "user"}]
        session.add(
            SiteRow(id="alpha", organisation_id=org, name="Alpha", roots=roots, hostnames=[])
        )
    sites_dir = rig.data_dir / "sites"
    (sites_dir / "alpha").mkdir(parents=True, exist_ok=True)
    (sites_dir / "alpha" / "install.md").write_text("# Install\n\nRun pip.\n")
    bearer = {
        "anonymous": None,
        "member": mint(settings, member.id, org=org),
        "owner": mint(settings, owner.id, org=org),
        "platform_admin": mint(settings, root.id),
    }
    headers = {role: {"Authorization": f"Bearer {t}"} if t else {} for role, t in bearer.items()}
    _seeded[rig.url] = People(headers, db, sites_dir)
    return _seeded[rig.url]


WRITE = {"siteId": "alpha", "path": "guide/battery.md", "content": "# Battery\n\nWritten.\n"}
# (method, path, body, {role: expected status}): docs/admin-tools.md's two authorities
MATRIX: list[tuple[str, str, dict[str, Any] | None, dict[str, int]]] = [
    ("GET", "/api/v1/assistant/threads", None,
     {"anonymous": 401, "member": 200, "owner": 200, "platform_admin": 200}),
    ("GET", f"{ADMIN}/sites", None,
     {"anonymous": 401, "member": 403, "owner": 200, "platform_admin": 403}),
    ("GET", f"{ADMIN}/sites/alpha/pages", None,
     {"anonymous": 401, "member": 403, "owner": 200, "platform_admin": 403}),
    ("GET", f"{ADMIN}/providers", None,
     {"anonymous": 401, "member": 403, "owner": 403, "platform_admin": 200}),
    ("POST", f"{ADMIN}/proposals/write-page", WRITE,
     {"anonymous": 401, "member": 403, "owner": 200, "platform_admin": 403}),
    ("POST", f"{ADMIN}/proposals/delete-site", {"siteId": "alpha"},
     {"anonymous": 401, "member": 403, "owner": 200, "platform_admin": 403}),
    ("POST", f"{ADMIN}/apply/write-page", {**WRITE, "confirmationToken": "0" * 64},
     {"anonymous": 401, "member": 403, "owner": 403, "platform_admin": 403}),
    ("POST", f"{ADMIN}/sites/alpha/reindex", None,
     {"anonymous": 401, "member": 403, "platform_admin": 403}),
]  # fmt: skip


def authz_matrix(rig: Rig, mode: Mode) -> Result:
    """Every (role, operation) cell answers the status the policy table says; every refusal
    leaves the database and the sites folder exactly as they were."""
    result = Result("authz_matrix")
    crew = people(rig)
    cells = agreed = 0
    with httpx.Client(base_url=rig.url, timeout=30) as http:
        for method, path, body, expected in MATRIX:
            for role, status in expected.items():
                before = crew.snapshot() if status >= 400 else None
                response = http.request(method, path, json=body, headers=crew.headers[role])
                cells += 1
                result.probes += 1
                if response.status_code != status:
                    result.fail(f"{role} {method} {path}: {response.status_code}, not {status}")
                    continue
                if before is not None and crew.snapshot() != before:
                    result.fail(f"{role} {method} {path}: refused but wrote")
                    continue
                agreed += 1
    result.figure = f"cells_matching_policy={agreed}/{cells}"
    return result


def token_tampering(rig: Rig, mode: Mode) -> Result:
    """A WritePage proposal's confirmation token, tampered, replayed, moved to another
    operation, argument set or user: never accepted, nothing written. The genuine token,
    applied 20 times at once, succeeds exactly once."""
    result = Result("token_tampering")
    crew = people(rig)
    owner = crew.headers["owner"]
    with httpx.Client(base_url=rig.url, timeout=60) as http:
        proposed = http.post(f"{ADMIN}/proposals/write-page", json=WRITE, headers=owner)
        if proposed.status_code != 200:
            result.fail(f"proposal -> {proposed.status_code}")
            return result
        token = str(proposed.json()["confirmationToken"])
        before = crew.snapshot()
        for name, attempt in _tampers(token, crew):
            response = attempt(http)
            result.probes += 1
            if response.status_code < 400 or response.status_code >= 500:
                result.fail(f"{name}: {response.status_code}")
        if crew.snapshot() != before:
            result.fail("a tampered apply wrote")
        successes = _concurrent_applies(rig.url, token, owner, 20)
        result.probes += 20
        if successes != 1:
            result.fail(f"{successes} of 20 concurrent applies succeeded")
        replay = http.post(f"{ADMIN}/apply/write-page", json={**WRITE, "confirmationToken": token},
                           headers=owner)  # fmt: skip
        result.probes += 1
        if replay.status_code != 403:
            result.fail(f"replay after apply: {replay.status_code}")
    tampered = result.probes - 21
    result.figure = f"tampered={tampered} accepted=0 concurrent_successes={successes}/20"
    if result.failures:
        result.figure = f"tampered={tampered} concurrent_successes={successes}/20"
    return result


Attempt = Callable[[httpx.Client], httpx.Response]


def _tampers(token: str, crew: People) -> list[tuple[str, Attempt]]:
    def apply(path: str, body: dict[str, Any], role: str = "owner") -> Attempt:
        def send(http: httpx.Client) -> httpx.Response:
            return http.post(f"{ADMIN}/apply/{path}", json=body, headers=crew.headers[role])

        return send

    def flip(i: int) -> str:
        return token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1 :]

    forged = [flip(i) for i in sorted({0, 1, len(token) // 3, len(token) // 2, len(token) - 1})]
    variants = [*forged, token[:-1], token + "A", token.upper(), token[::-1], "", " " + token]
    cases: list[tuple[str, Attempt]] = [
        (f"variant {n}", apply("write-page", {**WRITE, "confirmationToken": v}))
        for n, v in enumerate(variants)
    ]
    genuine = {**WRITE, "confirmationToken": token}
    delete_page = {"siteId": "alpha", "path": "install.md", "confirmationToken": token}
    cases += [
        ("other content", apply("write-page", {**genuine, "content": "# Evil\n"})),
        ("other path", apply("write-page", {**genuine, "path": "guide/evil.md"})),
        ("other operation", apply("delete-page", delete_page)),
        ("other site op", apply("delete-site", {"siteId": "alpha", "confirmationToken": token})),
        ("unknown field", apply("write-page", {**genuine, "force": True})),
        ("by a member", apply("write-page", genuine, "member")),
        ("by the platform admin", apply("write-page", genuine, "platform_admin")),
        ("anonymous", apply("write-page", genuine, "anonymous")),
    ]  # fmt: skip
    return cases


def _concurrent_applies(url: str, token: str, headers: dict[str, str], count: int) -> int:
    statuses: list[int] = []
    barrier = threading.Barrier(count)

    def one() -> None:
        with httpx.Client(base_url=url, timeout=60) as http:
            barrier.wait(30)
            body = {**WRITE, "confirmationToken": token}
            statuses.append(
                http.post(f"{ADMIN}/apply/write-page", json=body, headers=headers).status_code
            )

    workers = [threading.Thread(target=one) for _ in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    return statuses.count(200)


AUTHZ_CATEGORIES = [authz_matrix, token_tampering]
