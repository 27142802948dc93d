"""A thread or a turn may name a site only when the caller may see it: a public site, or a
site of an organisation the caller belongs to, re-read from the database on every call.
Anything else is dropped exactly like an unknown id (the thread is still created)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete

from askdocs.db.admin_models import SiteRow
from askdocs.db.models import MembershipRow, ThreadRow
from askdocs.users.service import UserService
from tests.assistant.conftest import Harness

THREADS = "/api/v1/assistant/threads"
ORG_SITES = {  # id -> (organisation, public)
    "alpha": ("a", False),
    "bravo": ("b", False),
    "charlie": ("b", True),
}


def _world(harness: Harness) -> dict[str, Any]:
    db = harness.runtime.db
    users = UserService(db)
    member, headers = harness.user("member@a.io")
    owner_b, _ = harness.user("owner@b.io")
    orgs = {
        "a": users.create_organisation("Org A", member.id).id,
        "b": users.create_organisation("Org B", owner_b.id).id,
    }
    with db.session(write=True) as session:
        for ident, (org, public) in ORG_SITES.items():
            roots = [{"path": "", "audience": "user"}]
            session.add(
                SiteRow(
                    id=ident,
                    organisation_id=orgs[org],
                    name=ident,
                    roots=roots,
                    hostnames=[],
                    public=public,
                )
            )
    harness.admin.sync_sites()
    return {"member": member, "headers": headers, "orgs": orgs}


def _stored_site(harness: Harness, thread_id: str) -> str | None:
    with harness.runtime.db.session() as session:
        row = session.get(ThreadRow, thread_id)
        assert row is not None
        return row.site_id


async def _create(harness: Harness, headers: dict[str, str], site: str) -> str:
    response = await harness.client.post(THREADS, json={"siteId": site}, headers=headers)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("site", "kept"),
    [
        ("docs", True),  # a configured public site
        ("alpha", True),  # a private site of the caller's own organisation
        ("charlie", True),  # another organisation's public site
        ("bravo", False),  # another organisation's private site: dropped
        ("nosuch", False),  # unknown: dropped the same way
    ],
)
async def test_a_thread_keeps_only_a_site_the_caller_may_see(
    harness: Harness, site: str, kept: bool
) -> None:
    world = _world(harness)
    assert {"alpha", "bravo", "charlie"} <= {s.id for s in harness.runtime.service.sites}
    thread = await _create(harness, world["headers"], site)
    assert _stored_site(harness, thread) == (site if kept else None)
    listed = await harness.client.get(THREADS, headers=world["headers"])
    assert listed.json()["threads"][0].get("siteId") == (site if kept else None)


@pytest.mark.anyio
async def test_a_turn_cannot_point_at_a_foreign_private_site(harness: Harness) -> None:
    world = _world(harness)
    thread = await _create(harness, world["headers"], "alpha")
    body = {"threadId": thread, "message": "what is here?", "siteId": "bravo"}
    response = await harness.client.post(
        "/api/v1/assistant/chat", json=body, headers=world["headers"]
    )
    assert response.status_code == 200
    await harness.wait_idle(thread)
    system = harness.models.requests[-1]["messages"][0]["content"]
    assert "site: alpha" in system  # the foreign id fell back to the thread's own site
    assert "bravo" not in system


@pytest.mark.anyio
async def test_leaving_the_organisation_drops_its_site_at_once(harness: Harness) -> None:
    world = _world(harness)
    thread = await _create(harness, world["headers"], "alpha")
    assert _stored_site(harness, thread) == "alpha"
    with harness.runtime.db.session(write=True) as session:
        session.execute(delete(MembershipRow).where(MembershipRow.user_id == world["member"].id))
    assert harness.runtime.visible_site(world["member"].id, "alpha") is None
    assert harness.runtime.visible_site(world["member"].id, "charlie") == "charlie"
    body = {"threadId": thread, "message": "what is here?"}
    response = await harness.client.post(
        "/api/v1/assistant/chat", json=body, headers=world["headers"]
    )
    assert response.status_code == 200
    await harness.wait_idle(thread)
    system = harness.models.requests[-1]["messages"][0]["content"]
    assert "alpha" not in system  # the thread's own site is re-checked on every turn
    fresh = await _create(harness, world["headers"], "alpha")
    assert _stored_site(harness, fresh) is None
