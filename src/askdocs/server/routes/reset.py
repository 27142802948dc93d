"""``/api/v1/auth/reset``: a one-time password-reset link (the page ``/reset/<token>`` calls
these), the lockout bypass for a browser the account never signed in from.

A platform administrator makes the link (``POST /api/v1/users/{id}/reset-link``, or
``askdocs users reset-link``) and hands it over. Using it sets the new password, which ends
every session and bearer token of the account, signs this browser in and recognises it
(device cookie). The sign-in limits do not apply: the link is the proof. A used, expired or
unknown link is 404 ``reset_link_invalid``.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request, Response

from askdocs.server.routes.auth import me_of
from askdocs.server.signin import AccountsDep, facts_of, set_device_cookie, set_session_cookie
from askdocs.users.web import check_origin
from askdocs.users.wire import MeOut, ResetIn, ResetOut

router = APIRouter(prefix="/api/v1/auth/reset", tags=["auth"])


@router.get("/{token}")
async def read_reset_link(accounts: AccountsDep, token: str) -> ResetOut:
    """Whose password the link resets, and until when it works."""
    link = await anyio.to_thread.run_sync(accounts.invitations.peek, token[:200], "reset")
    return ResetOut(email=link.email, expires_at=link.expires_at)


@router.post("")
async def reset_password(
    request: Request, response: Response, accounts: AccountsDep, body: ResetIn
) -> MeOut:
    check_origin(facts_of(request))
    agent = request.headers.get("user-agent", "")
    user, new = await anyio.to_thread.run_sync(
        accounts.reset_password, body.token, body.password, agent
    )
    set_session_cookie(response, request, accounts.settings, new.token)
    await set_device_cookie(response, request, accounts, user.email, None)
    response.headers["Cache-Control"] = "no-store"
    return await anyio.to_thread.run_sync(me_of, accounts, user, new.info)
