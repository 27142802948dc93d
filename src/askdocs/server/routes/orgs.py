"""``/api/v1/orgs`` and ``/api/v1/users``: organisations, members, accounts, invitations.

Every route needs a signed-in caller (bearer JWT or session cookie with CSRF). Authority is
re-read per call (``askdocs.users.orgs``): platform admins see and manage everything; an
organisation's owners and admins manage its members; anybody else gets 404 for an
organisation they are not in and 403 ``admin_required`` for what their role does not allow.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request, Response

from askdocs.admin.authority import refusal
from askdocs.server.origin import public_origin
from askdocs.server.signin import AccountsDep, Caller
from askdocs.users.accounts import Accounts
from askdocs.users.orgs import OrgDirectory
from askdocs.users.ownership import owns_configured_sites
from askdocs.users.passwords import check_policy
from askdocs.users.types import Principal
from askdocs.users.wire import (
    InviteIn,
    InviteOut,
    MemberIn,
    MemberOut,
    MembershipOut,
    OrgCreateIn,
    OrgListOut,
    OrgOut,
    RoleIn,
    UserCreateIn,
    UserListOut,
    UserOut,
)

router = APIRouter(prefix="/api/v1", tags=["organisations"])


def _orgs(accounts: Accounts) -> OrgDirectory:
    return OrgDirectory(accounts.db)


@router.get("/orgs")
async def list_orgs(accounts: AccountsDep, caller: Caller) -> OrgListOut:
    found = await anyio.to_thread.run_sync(_orgs(accounts).visible, caller.user_id)
    return OrgListOut(organisations=[MembershipOut.copy_of(o) for o in found])


@router.post("/orgs", status_code=201)
async def create_org(accounts: AccountsDep, caller: Caller, body: OrgCreateIn) -> OrgOut:
    def run() -> OrgOut:
        owner = accounts.users.by_email(body.owner_email) if body.owner_email else caller.user
        org = _orgs(accounts).create(body.name, owner.id, caller.user_id)
        return _org_out(accounts, org.id, caller)

    return await anyio.to_thread.run_sync(run)


def _org_out(accounts: Accounts, org_id: str, caller: Principal) -> OrgOut:
    org, members = _orgs(accounts).get(org_id, caller.user_id)
    return OrgOut(
        id=org.id,
        name=org.name,
        members=[MemberOut.copy_of(m) for m in members],
        owns_configured_sites=owns_configured_sites(accounts.db, org.id),
    )


@router.get("/orgs/{org_id}")
async def get_org(accounts: AccountsDep, caller: Caller, org_id: str) -> OrgOut:
    return await anyio.to_thread.run_sync(_org_out, accounts, org_id, caller)


@router.post("/orgs/{org_id}/members", status_code=201)
async def add_member(
    accounts: AccountsDep, caller: Caller, org_id: str, body: MemberIn
) -> MemberOut:
    directory = _orgs(accounts)
    member = await anyio.to_thread.run_sync(
        directory.add_member, org_id, body.email, body.role, caller.user_id
    )
    return MemberOut.copy_of(member)


@router.patch("/orgs/{org_id}/members/{user_id}")
async def set_role(
    accounts: AccountsDep, caller: Caller, org_id: str, user_id: str, body: RoleIn
) -> OrgOut:
    directory = _orgs(accounts)
    await anyio.to_thread.run_sync(directory.set_role, org_id, user_id, body.role, caller.user_id)
    return await anyio.to_thread.run_sync(_org_out, accounts, org_id, caller)


@router.delete("/orgs/{org_id}/members/{user_id}", status_code=204)
async def remove_member(
    accounts: AccountsDep, caller: Caller, org_id: str, user_id: str
) -> Response:
    directory = _orgs(accounts)
    await anyio.to_thread.run_sync(directory.remove_member, org_id, user_id, caller.user_id)
    return Response(status_code=204)


@router.post("/invitations", status_code=201)
async def invite(
    request: Request, accounts: AccountsDep, caller: Caller, body: InviteIn
) -> InviteOut:
    def run() -> InviteOut:
        role = body.role if body.organisation_id else None
        if body.organisation_id and role is None:
            role = "member"
        _orgs(accounts).check_invite(
            caller.user_id, body.organisation_id, role, body.platform_admin
        )
        new = accounts.invitations.create(
            body.email,
            organisation_id=body.organisation_id,
            role=role,
            platform_admin=body.platform_admin,
            created_by=caller.user_id,
        )
        base = public_origin(request)
        return InviteOut(
            link=new.link(base), email=new.invitation.email, expires_at=new.invitation.expires_at
        )

    return await anyio.to_thread.run_sync(run)


def _platform(caller: Principal) -> None:
    if not caller.platform_admin:
        raise refusal()


@router.get("/users")
async def list_users(accounts: AccountsDep, caller: Caller) -> UserListOut:
    _platform(caller)
    found = await anyio.to_thread.run_sync(accounts.users.all)
    return UserListOut(users=[UserOut.copy_of(u) for u in found])


@router.post("/users", status_code=201)
async def create_user(accounts: AccountsDep, caller: Caller, body: UserCreateIn) -> UserOut:
    _platform(caller)

    def run() -> UserOut:
        if body.password is not None:
            check_policy(body.password, accounts.settings.auth.min_password_chars)
        user = accounts.users.create_user(body.email, body.name, platform_admin=body.platform_admin)
        if body.password is not None:
            accounts.set_password(user.id, body.password)
        return UserOut.copy_of(user)

    return await anyio.to_thread.run_sync(run)


@router.delete("/users/{user_id}/sessions", status_code=204)
async def end_sessions(accounts: AccountsDep, caller: Caller, user_id: str) -> Response:
    """A platform admin ends every session of an account at once."""
    _platform(caller)
    await anyio.to_thread.run_sync(accounts.sessions.revoke_all, user_id)
    return Response(status_code=204)
