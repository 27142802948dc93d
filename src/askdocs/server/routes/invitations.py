"""``/api/v1/auth/invitations``: read an invitation and accept it (the link's page calls these).

Accepting creates the account with the chosen password and signs it in (session cookie), or,
when the address already has an account, adds that account to the organisation: that needs
the account signed in (401 ``invitation_sign_in_required`` otherwise). A used, expired or
unknown link is 404 ``invitation_invalid``.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request, Response

from askdocs.db.models import OrganisationRow
from askdocs.server.routes.auth import me_of
from askdocs.server.signin import AccountsDep, MaybeCaller, facts_of, set_session_cookie
from askdocs.users.accounts import Accounts
from askdocs.users.types import User
from askdocs.users.web import check_origin
from askdocs.users.wire import AcceptIn, InvitationOut, MeOut

router = APIRouter(prefix="/api/v1/auth/invitations", tags=["auth"])


def _describe(accounts: Accounts, token: str, caller: User | None) -> InvitationOut:
    """What the link offers. Whether the address has an account is not said (the link's
    holder may be the inviter): only whether the caller is that account."""
    invitation = accounts.invitations.peek(token)
    with accounts.db.session() as session:
        org = session.get(OrganisationRow, invitation.organisation_id or "")
        org_name = org.name if org is not None else None
    return InvitationOut(
        email=invitation.email,
        organisation_id=invitation.organisation_id,
        organisation_name=org_name,
        role=invitation.role,
        platform_admin=invitation.platform_admin,
        expires_at=invitation.expires_at,
        for_you=caller is not None and caller.email == invitation.email,
    )


@router.get("/{token}")
async def read_invitation(accounts: AccountsDep, caller: MaybeCaller, token: str) -> InvitationOut:
    user = caller.user if caller else None
    return await anyio.to_thread.run_sync(_describe, accounts, token[:200], user)


@router.post("/accept")
async def accept_invitation(
    request: Request, response: Response, accounts: AccountsDep, caller: MaybeCaller, body: AcceptIn
) -> MeOut:
    check_origin(facts_of(request))
    signed_in = caller.user if caller else None

    def run() -> MeOut:
        accepted = accounts.accept(
            body.token, password=body.password, name=body.name, signed_in=signed_in
        )
        agent = request.headers.get("user-agent", "")
        new = accounts.sessions.create(accepted.user.id, "invitation", agent)
        set_session_cookie(response, request, accounts.settings, new.token)
        return me_of(accounts, accepted.user, new.info)

    response.headers["Cache-Control"] = "no-store"
    return await anyio.to_thread.run_sync(run)
