"""Admin changes made through one replica take effect on the other within the change poll
(``server.change_poll_seconds``): organisation sites and inference providers, which each
replica keeps in memory. Memberships and grants are read per request and need no signal."""

from __future__ import annotations

import time
from collections.abc import Callable

import anyio
import pytest

from askdocs.users.service import UserService
from tests.assistant.conftest import Harness
from tests.replicas.conftest import POLL_SECONDS, Replicas
from tests.support.timing import bounded


async def until(check: Callable[[], bool], limit: float) -> float:
    """Seconds until ``check()`` held (polled every 20 ms); fails after ``limit``."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < limit, "the change never arrived"
        await anyio.sleep(0.02)
    return time.monotonic() - started


@pytest.mark.anyio
async def test_a_site_created_on_one_replica_is_served_by_the_other(replicas: Replicas) -> None:
    _, org, header = replicas.owner_with_org("owner@a.io")
    args = {"organisationId": org, "id": "newsite", "name": "New site"}
    proposed = await replicas.a.client.post(
        "/api/v1/admin/proposals/create-site", json=args, headers=header
    )
    assert proposed.status_code == 200, proposed.text
    token = proposed.json()["confirmationToken"]
    assert await _search_code(replicas.a, header) == "site_not_found"
    applied = await replicas.b.client.post(  # a token minted on A applies on B
        "/api/v1/admin/apply/create-site", json={**args, "confirmationToken": token}, headers=header
    )
    assert applied.status_code == 200, applied.text
    waited = await until(lambda: replicas.a.app.catalog.entry("newsite") is not None, 30)
    assert waited < bounded(POLL_SECONDS)
    assert await _search_code(replicas.a, header) != "site_not_found"  # A serves it now
    token = (
        await replicas.b.client.post(
            "/api/v1/admin/proposals/delete-site", json={"siteId": "newsite"}, headers=header
        )
    ).json()["confirmationToken"]
    deleted = await replicas.a.client.post(
        "/api/v1/admin/apply/delete-site",
        json={"siteId": "newsite", "confirmationToken": token},
        headers=header,
    )
    assert deleted.status_code == 200, deleted.text
    await until(lambda: replicas.b.app.catalog.entry("newsite") is None, bounded(POLL_SECONDS))


async def _search_code(replica: Harness, header: dict[str, str]) -> str | None:
    found = await replica.client.get(
        "/api/search", params={"q": "x", "site": "newsite"}, headers=header
    )
    return found.json().get("error", {}).get("code") if found.status_code != 200 else None


@pytest.mark.anyio
async def test_an_embedding_provider_switch_reaches_the_other_replica(replicas: Replicas) -> None:
    _, header = replicas.a.user("root@x.io", admin=True)
    args = {
        "name": "Embed",
        "capability": "embedding",
        "kind": "openai-compatible",
        "baseUrl": replicas.models.url,
        "model": "e5",
        "active": True,
    }
    proposed = await replicas.a.client.post(
        "/api/v1/admin/proposals/create-inference-provider", json=args, headers=header
    )
    assert proposed.status_code == 200, proposed.text
    token = proposed.json()["confirmationToken"]
    applied = await replicas.a.client.post(
        "/api/v1/admin/apply/create-inference-provider",
        json={**args, "confirmationToken": token},
        headers=header,
    )
    assert applied.status_code == 200, applied.text
    engine = replicas.b.app.engine
    await until(lambda: engine.embedding_settings.provider == "openai-compatible", 30)
    assert engine.embedding_settings.model == "e5"
    assert replicas.b.app.changes is not None
    assert replicas.b.app.changes.applied >= 1


@pytest.mark.anyio
async def test_memberships_take_effect_on_the_other_replica_at_once(replicas: Replicas) -> None:
    _, org, owner_header = replicas.owner_with_org("owner@a.io")
    member, member_header = replicas.a.user("member@a.io")
    UserService(replicas.a.runtime.db).add_member(org, member.id, "member")
    before = await replicas.b.client.get(f"/api/v1/orgs/{org}", headers=member_header)
    assert before.status_code == 200, before.text
    removed = await replicas.a.client.delete(
        f"/api/v1/orgs/{org}/members/{member.id}", headers=owner_header
    )
    assert removed.status_code == 204, removed.text
    after = await replicas.b.client.get(f"/api/v1/orgs/{org}", headers=member_header)
    assert after.status_code == 404, after.text  # no poll: B reads memberships per request
