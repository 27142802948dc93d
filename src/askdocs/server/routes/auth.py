"""``/api/v1/auth``: sign in with a password, the current session, sign out, sessions,
password change and invitations. Single sign-on lives in ``routes/oidc.py``.

Sign-in checks, in order: the request's ``Origin`` (403 ``csrf_failed`` when another
site's), the attempt limits (429 ``sign_in_limited``; see ``askdocs.guard.attempts``), then
the password (401 ``invalid_credentials``, the same answer and cost for an unknown email).
It answers the user and the CSRF token and sets the HttpOnly, SameSite=Lax session cookie
(Secure over HTTPS) and the device cookie. A password change checks the current password
under the same limits. See docs/sign-in.md.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request, Response

from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError, NotFound
from askdocs.server.deps import LimiterDep, VisitorDep
from askdocs.server.signin import (
    AccountsDep,
    SignedInDep,
    clear_session_cookie,
    facts_of,
    password_checked,
    set_device_cookie,
    set_session_cookie,
)
from askdocs.users.accounts import Accounts
from askdocs.users.orgs import OrgDirectory
from askdocs.users.sessions import SessionInfo
from askdocs.users.types import User
from askdocs.users.web import check_origin, optional_identify
from askdocs.users.wire import (
    AuthConfigOut,
    MembershipOut,
    MeOut,
    PasswordIn,
    SessionListOut,
    SessionOut,
    SessionStateOut,
    SignInIn,
    UserOut,
)

router = APIRouter(prefix="/api/v1/auth", tags=["auth"])


def me_of(accounts: Accounts, user: User, session: SessionInfo | None) -> MeOut:
    orgs = OrgDirectory(accounts.db).visible(user.id)
    return MeOut(
        user=UserOut.copy_of(user),
        organisations=[MembershipOut.copy_of(o) for o in orgs if o.role is not None],
        csrf_token=session.csrf_token if session else None,
        method=session.method if session else "token",
    )


@router.get("/config")
async def auth_config(accounts: AccountsDep) -> AuthConfigOut:
    oidc = accounts.settings.auth.oidc
    return AuthConfigOut(password=True, oidc=bool(oidc.issuer), oidc_name=oidc.display_name)


@router.post("/sign-in")
async def sign_in(
    request: Request,
    response: Response,
    accounts: AccountsDep,
    limiter: LimiterDep,
    visitor: VisitorDep,
    body: SignInIn,
) -> MeOut:
    check_origin(facts_of(request))
    settings = accounts.settings
    agent = request.headers.get("user-agent", "")
    (user, new), device = await password_checked(
        request,
        accounts,
        limiter,
        visitor,
        body.email,
        lambda: anyio.to_thread.run_sync(accounts.sign_in, body.email, body.password, agent),
    )
    set_session_cookie(response, request, settings, new.token)
    await set_device_cookie(response, request, accounts, user.email, device)
    response.headers["Cache-Control"] = "no-store"
    return await anyio.to_thread.run_sync(me_of, accounts, user, new.info)


@router.get("/me")
async def me(response: Response, accounts: AccountsDep, signed_in: SignedInDep) -> MeOut:
    response.headers["Cache-Control"] = "no-store"
    user, session = signed_in.principal.user, signed_in.session
    return await anyio.to_thread.run_sync(me_of, accounts, user, session)


@router.get("/session")
async def session_state(
    request: Request, response: Response, accounts: AccountsDep
) -> SessionStateOut:
    """Like ``/me``, but 200 ``{"signedIn": false}`` for a visitor (pages ask this first)."""
    response.headers["Cache-Control"] = "no-store"
    found = await anyio.to_thread.run_sync(
        optional_identify, accounts.settings, accounts, facts_of(request)
    )
    if found is None:
        return SessionStateOut(signed_in=False, me=None)
    me = await anyio.to_thread.run_sync(me_of, accounts, found.principal.user, found.session)
    return SessionStateOut(signed_in=True, me=me)


@router.post("/sign-out", status_code=204)
async def sign_out(request: Request, accounts: AccountsDep, signed_in: SignedInDep) -> Response:
    if signed_in.session is not None:
        await anyio.to_thread.run_sync(accounts.sessions.revoke, signed_in.session.id)
    response = Response(status_code=204)
    clear_session_cookie(response, request, accounts.settings)
    return response


@router.get("/sessions")
async def list_sessions(accounts: AccountsDep, signed_in: SignedInDep) -> SessionListOut:
    found = await anyio.to_thread.run_sync(accounts.sessions.for_user, signed_in.principal.user_id)
    current = signed_in.session.id if signed_in.session else None
    return SessionListOut(
        sessions=[
            SessionOut(
                id=s.id,
                method=s.method,
                created_at=s.created_at,
                last_seen_at=s.last_seen_at,
                expires_at=s.expires_at,
                current=s.id == current,
            )
            for s in found
        ]
    )


@router.delete("/sessions/{session_id}", status_code=204)
async def revoke_session(
    accounts: AccountsDep, signed_in: SignedInDep, session_id: str
) -> Response:
    user_id = signed_in.principal.user_id
    revoked = await anyio.to_thread.run_sync(accounts.sessions.revoke, session_id[:64], user_id)
    if not revoked:
        raise NotFound("no such session", code=ErrorCode.SESSION_NOT_FOUND)
    return Response(status_code=204)


@router.post("/password", status_code=204)
async def change_password(
    request: Request,
    accounts: AccountsDep,
    limiter: LimiterDep,
    visitor: VisitorDep,
    signed_in: SignedInDep,
    body: PasswordIn,
) -> Response:
    """Change your password; every session and bearer token ends, this session is replaced
    by a new one. The current password is checked under the sign-in limits."""
    user = signed_in.principal.user

    async def check() -> User:
        return await anyio.to_thread.run_sync(
            accounts.check_password, user.email, body.current_password
        )

    try:
        await password_checked(request, accounts, limiter, visitor, user.email, check)
    except AuthError as exc:
        if exc.code != ErrorCode.INVALID_CREDENTIALS:
            raise
        raise AuthError(
            "the current password is wrong", code=ErrorCode.INVALID_CREDENTIALS
        ) from exc
    await anyio.to_thread.run_sync(accounts.set_password, user.id, body.new_password)
    response = Response(status_code=204)
    if signed_in.session is not None:
        agent = request.headers.get("user-agent", "")
        new = await anyio.to_thread.run_sync(
            accounts.sessions.create, user.id, signed_in.session.method, agent
        )
        set_session_cookie(response, request, accounts.settings, new.token)
    return response
