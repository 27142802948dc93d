"""``/api/v1/auth/oidc``: single sign-on through the configured OpenID Connect provider.

``start`` seals a fresh state (state, nonce, PKCE verifier, where to go next) into a
short-lived HttpOnly cookie and redirects to the provider. ``callback`` checks it all (see
``askdocs.auth.oidc``), finds the linked account or creates one (``Accounts.oidc_user``: an
existing account with the same email only when an administrator allowed the link), starts
a session and redirects to ``next``. Failures redirect to ``/sign-in?error=<code>`` so the
page can say what happened.
"""

from __future__ import annotations

import hmac
import time
from typing import Any
from urllib.parse import urlencode

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from askdocs.auth.oidc import OidcClient
from askdocs.auth.oidc_state import STATE_COOKIE, FlowState, seal, unseal
from askdocs.auth.redirects import safe_next
from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError, NotFound, ServiceUnavailable
from askdocs.keys import KeyRing
from askdocs.server.origin import public_origin, request_origin
from askdocs.server.signin import (
    AccountsDep,
    cookie_secure,
    recognised_device,
    set_device_cookie,
    set_session_cookie,
)
from askdocs.settings import Settings

router = APIRouter(prefix="/api/v1/auth/oidc", tags=["auth"])
CALLBACK = "/api/v1/auth/oidc/callback"
SIGN_IN_PAGE = "/sign-in"


def client_of(settings: Settings) -> OidcClient:
    if not settings.auth.oidc.issuer:
        raise NotFound("single sign-on is not configured", code=ErrorCode.OIDC_DISABLED)
    return OidcClient(settings.auth.oidc)


STATE_PURPOSE = "askdocs oidc state"


def unseal_any(keys: KeyRing, value: str | None, now: int) -> FlowState | None:
    """The state sealed with the key of any verifying ``jwt`` version (a rotation between
    the redirect and the callback still works)."""
    for key in keys.derived_all(STATE_PURPOSE):
        flow = unseal(key, value, now)
        if flow is not None:
            return flow
    return None


def redirect_uri(request: Request) -> str:
    """``server.public_url`` (else this request's origin) + the callback path."""
    return public_origin(request) + CALLBACK


def failed(code: ErrorCode) -> RedirectResponse:
    response = RedirectResponse(SIGN_IN_PAGE + "?" + urlencode({"error": code}), 303)
    response.delete_cookie(STATE_COOKIE, path="/api/v1/auth/oidc")
    return response


# both answer a redirect, as /openapi.json says (issue #27, defect 11)
_TO_PROVIDER: dict[int | str, dict[str, Any]] = {
    303: {"description": "Redirect to the provider's sign-in page"}
}
_BACK: dict[int | str, dict[str, Any]] = {
    303: {"description": "Redirect to `next`, or to /sign-in?error=<code> on a failure"}
}


@router.get("/start", status_code=303, response_class=RedirectResponse, responses=_TO_PROVIDER)
async def start(
    request: Request, accounts: AccountsDep, next: str | None = None
) -> RedirectResponse:
    settings = accounts.settings
    client = client_of(settings)
    expires = int(time.time()) + settings.auth.oidc.state_ttl_seconds
    flow = FlowState.fresh(safe_next(next, request_origin(request)), expires)
    url = await client.authorization_url(flow, redirect_uri(request))
    sealing = await anyio.to_thread.run_sync(accounts.keys.derived, STATE_PURPOSE)
    response = RedirectResponse(url, 303)
    response.set_cookie(
        STATE_COOKIE,
        seal(sealing, flow),
        max_age=settings.auth.oidc.state_ttl_seconds,
        path="/api/v1/auth/oidc",
        httponly=True,
        samesite="lax",
        secure=cookie_secure(settings, request),
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/callback", status_code=303, response_class=RedirectResponse, responses=_BACK)
async def callback(
    request: Request,
    accounts: AccountsDep,
    code: str | None = None,
    state: str | None = None,
    error: str | None = None,
) -> RedirectResponse:
    settings = accounts.settings
    client = client_of(settings)
    cookie, now = request.cookies.get(STATE_COOKIE), int(time.time())
    flow = await anyio.to_thread.run_sync(unseal_any, accounts.keys, cookie, now)
    if flow is None or not state or not hmac.compare_digest(state, flow.state):
        return failed(ErrorCode.OIDC_STATE_MISMATCH)
    if error or not code:
        return failed(ErrorCode.OIDC_REFUSED)
    try:
        identity = await client.finish(flow, code[:2000], redirect_uri(request))
        user = await anyio.to_thread.run_sync(
            accounts.oidc_user, identity.issuer, identity.subject, identity.email, identity.name
        )
    except (AuthError, ServiceUnavailable) as exc:
        return failed(exc.code)
    agent = request.headers.get("user-agent", "")
    new = await anyio.to_thread.run_sync(accounts.sessions.create, user.id, "oidc", agent)
    response = RedirectResponse(safe_next(flow.next, request_origin(request)), 303)
    response.delete_cookie(STATE_COOKIE, path="/api/v1/auth/oidc")
    set_session_cookie(response, request, settings, new.token)
    device = await recognised_device(request, accounts, user.email)
    await set_device_cookie(response, request, accounts, user.email, device)
    response.headers["Cache-Control"] = "no-store"
    return response
