"""Organisations, members and invitations over REST: who may do what, and what it changes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from askdocs.auth.jwt import mint
from askdocs.db.auth_models import InvitationRow
from askdocs.db.models import utcnow
from askdocs.users.orgs import OrgDirectory
from askdocs.users.types import OrgRole, User
from tests.assistant.conftest import Harness
from tests.signin.conftest import PASSWORD, accounts, browser, person, sign_in

pytestmark = pytest.mark.anyio


def bearer(harness: Harness, user: User) -> dict[str, str]:
    return {"Authorization": f"Bearer {mint(harness.settings, user.id)}"}


async def make_org(harness: Harness, root: User, owner: User, name: str = "Acme") -> str:
    response = await harness.client.post(
        "/api/v1/orgs",
        json={"name": name, "ownerEmail": owner.email},
        headers=bearer(harness, root),
    )
    assert response.status_code == 201, response.text
    org_id = response.json()["id"]
    assert isinstance(org_id, str)
    return org_id


async def test_only_platform_admins_create_organisations(harness: Harness) -> None:
    ada = person(harness, "ada@example.com")
    refused = await harness.client.post(
        "/api/v1/orgs", json={"name": "Mine"}, headers=bearer(harness, ada)
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "admin_required"
    root = person(harness, "root@example.com", admin=True)
    org_id = await make_org(harness, root, ada)
    detail = await harness.client.get(f"/api/v1/orgs/{org_id}", headers=bearer(harness, ada))
    assert [(m["email"], m["role"]) for m in detail.json()["members"]] == [
        ("ada@example.com", "owner")
    ]


async def test_the_first_platform_admins_org_owns_the_configured_sites(harness: Harness) -> None:
    root = person(harness, "root@example.com", admin=True)
    ada = person(harness, "ada@example.com")
    other = await make_org(harness, root, ada, "Ada's")
    own = await make_org(harness, root, root, "Platform")
    later = await make_org(harness, root, root, "Second")
    headers = bearer(harness, root)
    owns = [
        (await harness.client.get(f"/api/v1/orgs/{o}", headers=headers)).json()
        for o in (other, own, later)
    ]
    assert [o["ownsConfiguredSites"] for o in owns] == [False, True, False]


def join(harness: Harness, org_id: str, user: User, role: OrgRole = "member") -> None:
    """``user`` joins (as the operator adds them: over HTTP, joining takes their yes)."""
    OrgDirectory(harness.runtime.db).add_member(org_id, user.email, role, None)


async def test_members_roles_and_removal(harness: Harness) -> None:
    root = person(harness, "root@example.com", admin=True)
    owner, bob, eve = (person(harness, f"{n}@example.com") for n in ("owner", "bob", "eve"))
    org_id = await make_org(harness, root, owner)
    members = f"/api/v1/orgs/{org_id}/members"
    join(harness, org_id, bob)
    # a member cannot add people, an outsider cannot even see the organisation
    by_member = await harness.client.post(
        members, json={"email": "eve@example.com"}, headers=bearer(harness, bob)
    )
    assert by_member.status_code == 403
    by_outsider = await harness.client.get(f"/api/v1/orgs/{org_id}", headers=bearer(harness, eve))
    assert by_outsider.status_code == 404
    assert by_outsider.json()["error"]["code"] == "organisation_not_found"
    promoted = await harness.client.patch(
        f"{members}/{bob.id}", json={"role": "admin"}, headers=bearer(harness, owner)
    )
    assert promoted.status_code == 200
    # an admin manages members but not owners
    coup = await harness.client.patch(
        f"{members}/{owner.id}", json={"role": "member"}, headers=bearer(harness, bob)
    )
    assert coup.status_code == 403
    last = await harness.client.delete(f"{members}/{owner.id}", headers=bearer(harness, root))
    assert last.status_code == 400
    assert last.json()["error"]["code"] == "last_owner"
    gone = await harness.client.delete(f"{members}/{bob.id}", headers=bearer(harness, owner))
    assert gone.status_code == 204
    listed = await harness.client.get("/api/v1/orgs", headers=bearer(harness, bob))
    assert listed.json()["organisations"] == []
    everything = await harness.client.get("/api/v1/orgs", headers=bearer(harness, root))
    assert [o["id"] for o in everything.json()["organisations"]] == [org_id]


async def test_an_owner_invites_a_member_who_accepts_and_signs_in(harness: Harness) -> None:
    root = person(harness, "root@example.com", admin=True)
    owner = person(harness, "owner@example.com")
    org_id = await make_org(harness, root, owner)
    csrf = await sign_in(harness.client, "owner@example.com")
    invited = await harness.client.post(
        "/api/v1/invitations",
        json={"email": "new@example.com", "organisationId": org_id, "role": "member"},
        headers={"X-CSRF-Token": csrf},
    )
    assert invited.status_code == 201, invited.text
    link = invited.json()["link"]
    assert link.startswith("http://askdocs.test/invite/")
    token = link.rsplit("/", 1)[1]
    async with browser(harness) as newcomer:
        seen = await newcomer.get(f"/api/v1/auth/invitations/{token}")
        assert seen.json()["organisationName"] == "Acme"
        assert seen.json()["forYou"] is False
        assert "accountExists" not in seen.json()
        weak = await newcomer.post(
            "/api/v1/auth/invitations/accept", json={"token": token, "password": "short"}
        )
        assert weak.json()["error"]["code"] == "weak_password"
        accepted = await newcomer.post(
            "/api/v1/auth/invitations/accept",
            json={"token": token, "password": PASSWORD, "name": "New"},
        )
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["organisations"][0]["role"] == "member"
        assert (await newcomer.get("/api/v1/auth/me")).status_code == 200
    async with browser(harness) as again:
        reused = await again.post(
            "/api/v1/auth/invitations/accept", json={"token": token, "password": PASSWORD}
        )
        assert reused.status_code == 404
        assert reused.json()["error"]["code"] == "invitation_invalid"
        await sign_in(again, "new@example.com")


async def test_invitation_authority(harness: Harness) -> None:
    root = person(harness, "root@example.com", admin=True)
    owner, bob = person(harness, "owner@example.com"), person(harness, "bob@example.com")
    org_id = await make_org(harness, root, owner)
    join(harness, org_id, bob)
    cases = [
        (owner, {"email": "x@example.com", "platformAdmin": True}, 403),
        (owner, {"email": "x@example.com"}, 403),  # no organisation: platform admins only
        (bob, {"email": "x@example.com", "organisationId": org_id}, 403),
        (owner, {"email": "x@example.com", "organisationId": org_id, "role": "owner"}, 201),
        (root, {"email": "x@example.com", "platformAdmin": True}, 201),
    ]
    for who, body, status in cases:
        response = await harness.client.post(
            "/api/v1/invitations", json=body, headers=bearer(harness, who)
        )
        assert response.status_code == status, (who.email, body, response.text)


async def test_an_expired_invitation_is_refused(harness: Harness) -> None:
    new = accounts(harness).invitations.create("late@example.com")
    with harness.runtime.db.session(write=True) as session:
        session.execute(update(InvitationRow).values(expires_at=utcnow() - timedelta(seconds=1)))
    response = await harness.client.post(
        "/api/v1/auth/invitations/accept", json={"token": new.token, "password": PASSWORD}
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "invitation_invalid"


async def test_users_are_listed_and_created_by_platform_admins_only(harness: Harness) -> None:
    root = person(harness, "root@example.com", admin=True)
    ada = person(harness, "ada@example.com")
    assert (
        await harness.client.get("/api/v1/users", headers=bearer(harness, ada))
    ).status_code == 403
    made = await harness.client.post(
        "/api/v1/users",
        json={"email": "cy@example.com", "password": PASSWORD},
        headers=bearer(harness, root),
    )
    assert made.status_code == 201
    listed = await harness.client.get("/api/v1/users", headers=bearer(harness, root))
    assert [u["email"] for u in listed.json()["users"]] == [
        "ada@example.com",
        "cy@example.com",
        "root@example.com",
    ]
    await sign_in(harness.client, "cy@example.com")


# -- defect 8 of issue 27: joining takes the account's yes; the answer says nothing of it


async def test_org_admins_add_an_existing_account_only_through_an_invitation(
    harness: Harness,
) -> None:
    root = person(harness, "root@example.com", admin=True)
    owner, bob = person(harness, "owner@example.com"), person(harness, "bob@example.com")
    org_id = await make_org(harness, root, owner)
    members = f"/api/v1/orgs/{org_id}/members"
    existing = await harness.client.post(
        members, json={"email": bob.email, "role": "admin"}, headers=bearer(harness, owner)
    )
    unknown = await harness.client.post(
        members,
        json={"email": "nobody@example.com", "role": "admin"},
        headers=bearer(harness, owner),
    )
    assert existing.status_code == unknown.status_code == 202, existing.text
    assert existing.json().keys() == unknown.json().keys() == {"link", "email", "expiresAt"}
    org = await harness.client.get(f"/api/v1/orgs/{org_id}", headers=bearer(harness, owner))
    assert [m["email"] for m in org.json()["members"]] == [owner.email]  # bob said nothing yet
    token = existing.json()["link"].rsplit("/", 1)[1]
    as_inviter = await harness.client.get(
        f"/api/v1/auth/invitations/{token}", headers=bearer(harness, owner)
    )
    assert as_inviter.json()["forYou"] is False
    csrf = await sign_in(harness.client, bob.email)
    assert (await harness.client.get(f"/api/v1/auth/invitations/{token}")).json()["forYou"]
    accepted = await harness.client.post(
        "/api/v1/auth/invitations/accept", json={"token": token}, headers={"X-CSRF-Token": csrf}
    )
    assert accepted.status_code == 200, accepted.text
    org = await harness.client.get(f"/api/v1/orgs/{org_id}", headers=bearer(harness, owner))
    assert {m["email"]: m["role"] for m in org.json()["members"]}[bob.email] == "admin"
