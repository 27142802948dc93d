"""``/api/v1/orgs`` and ``/api/v1/users``: organisations, members, accounts, invitations.

Every route needs a signed-in caller (bearer JWT or session cookie with CSRF). Authority is
re-read per call (``askdocs.users.orgs``): platform admins see and manage everything; an
organisation's owners and admins manage its members; anybody else gets 404 for an
organisation they are not in and 403 ``admin_required`` for what their role does not allow.
Nobody joins an organisation without saying yes: adding a member by email makes an
invitation the account accepts (202, the same answer whether or not the address has an
account, so it says nothing about which addresses do).
"""

from __future__ import annotations

from dataclasses import dataclass

import anyio
from fastapi import APIRouter, Request, Response

from askdocs.admin.authority import refusal
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.server.origin import public_origin
from askdocs.server.signin import AccountsDep, Caller
from askdocs.users.accounts import Accounts
from askdocs.users.orgs import OrgDirectory
from askdocs.users.ownership import owns_configured_sites
from askdocs.users.passwords import check_policy
from askdocs.users.types import OrgRole, Principal
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


@router.post("/orgs/{org_id}/members", status_code=202)
async def add_member(
    request: Request, accounts: AccountsDep, caller: Caller, org_id: str, body: MemberIn
) -> InviteOut:
    """Invite ``email`` into the organisation as ``role``: they join when they accept."""
    wanted = Wanted(body.email, org_id[:64], body.role, platform_admin=False)
    return await anyio.to_thread.run_sync(_invite, request, accounts, caller, wanted)


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


@dataclass(frozen=True)
class Wanted:
    """An invitation asked for: who, into which organisation and role, platform admin."""

    email: str
    organisation_id: str | None
    role: OrgRole | None
    platform_admin: bool


def _invite(request: Request, accounts: Accounts, caller: Principal, wanted: Wanted) -> InviteOut:
    """Check the caller may invite, make the link; nothing here depends on whether the
    address has an account."""
    org_id = wanted.organisation_id
    role = (wanted.role or "member") if org_id else None
    _orgs(accounts).check_invite(caller.user_id, org_id, role, wanted.platform_admin)
    new = accounts.invitations.create(
        wanted.email,
        organisation_id=org_id,
        role=role,
        platform_admin=wanted.platform_admin,
        created_by=caller.user_id,
    )
    base = public_origin(request)
    link, expires = new.link(base), new.invitation.expires_at
    return InviteOut(link=link, email=new.invitation.email, expires_at=expires)


@router.post("/invitations", status_code=201)
async def invite(
    request: Request, accounts: AccountsDep, caller: Caller, body: InviteIn
) -> InviteOut:
    wanted = Wanted(body.email, body.organisation_id, body.role, body.platform_admin)
    return await anyio.to_thread.run_sync(_invite, request, accounts, caller, wanted)


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


@router.post("/users/{user_id}/sso-link", status_code=204)
async def allow_sso_link(accounts: AccountsDep, caller: Caller, user_id: str) -> Response:
    """A platform admin lets the account's next verified single sign-on link it."""
    _platform(caller)
    allowed = await anyio.to_thread.run_sync(
        accounts.oidc_links.allow, user_id[:64], caller.user_id
    )
    if not allowed:
        raise NotFound("no such user", code=ErrorCode.USER_NOT_FOUND)
    return Response(status_code=204)


@router.post("/users/{user_id}/reset-link", status_code=201)
async def reset_link(
    request: Request, accounts: AccountsDep, caller: Caller, user_id: str
) -> InviteOut:
    """A platform admin makes a one-time password-reset link for an account."""
    _platform(caller)
    new = await anyio.to_thread.run_sync(accounts.reset_link, user_id[:64], caller.user_id)
    base = public_origin(request)
    link, expires = new.link(base), new.invitation.expires_at
    return InviteOut(link=link, email=new.invitation.email, expires_at=expires)


@router.delete("/users/{user_id}/sessions", status_code=204)
async def end_sessions(accounts: AccountsDep, caller: Caller, user_id: str) -> Response:
    """A platform admin ends every session and bearer token of an account at once."""
    _platform(caller)
    await anyio.to_thread.run_sync(accounts.end_sign_ins, user_id)
    return Response(status_code=204)
