"""Who is calling an HTTP route: a bearer JWT (scripts, MCP) or a browser session cookie.

A request with an ``Authorization`` header is judged by that header alone. Otherwise the
session cookie names a server-side session row (re-read on every request). A cookie request
that changes state (any method but GET, HEAD, OPTIONS) must also carry the session's CSRF
token in ``X-CSRF-Token`` and, when the browser sends ``Origin``, come from one of this
server's own origins (the request's, or ``server.public_url``: ``askdocs.server.origin``);
otherwise it is refused with 403 ``csrf_failed`` before anything runs. A cross-site form
can send neither the header nor a same-site origin.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass

from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError, Forbidden
from askdocs.settings import Settings
from askdocs.users.accounts import Accounts
from askdocs.users.principal import authenticate
from askdocs.users.sessions import SessionInfo
from askdocs.users.types import Principal

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "x-csrf-token"


@dataclass(frozen=True)
class RequestFacts:
    """The parts of a request authentication reads (no framework types in here)."""

    method: str
    headers: Mapping[str, str]
    cookies: Mapping[str, str]
    origins: tuple[str, ...]  # this server's origins: the request's and the public one


@dataclass(frozen=True)
class SignedIn:
    principal: Principal
    session: SessionInfo | None  # None for bearer tokens


def csrf_failed(message: str) -> Forbidden:
    return Forbidden(message, code=ErrorCode.CSRF_FAILED)


def check_origin(facts: RequestFacts) -> None:
    """A state-changing browser request must come from this origin when it says where from."""
    origin = facts.headers.get("origin")
    if origin is not None and origin.rstrip("/") not in facts.origins:
        raise csrf_failed("this request came from another site")


def check_csrf(facts: RequestFacts, session: SessionInfo) -> None:
    if facts.method.upper() in SAFE_METHODS:
        return
    check_origin(facts)
    presented = facts.headers.get(CSRF_HEADER, "")
    if not presented or not hmac.compare_digest(presented, session.csrf_token):
        raise csrf_failed("a CSRF token is required (X-CSRF-Token)")


def identify(settings: Settings, accounts: Accounts, facts: RequestFacts) -> SignedIn:
    """The caller, or ``AuthError`` 401 (``missing_token`` when no credential came at all)."""
    authorization = facts.headers.get("authorization")
    if authorization is not None:
        principal = authenticate(settings, accounts.users, authorization, accounts.keys)
        return SignedIn(principal, None)
    token = facts.cookies.get(settings.auth.session_cookie)
    if not token:
        raise AuthError("sign in, or send a bearer token", code=ErrorCode.MISSING_TOKEN)
    session = accounts.sessions.find(token)
    if session is None:
        raise AuthError("your session has ended: sign in again", code=ErrorCode.SESSION_EXPIRED)
    check_csrf(facts, session)
    user = accounts.users.get(session.user_id)
    if user is None:
        raise AuthError("the session's user no longer exists", code=ErrorCode.UNKNOWN_USER)
    if user.token_version != session.token_version:
        raise AuthError("your session has ended: sign in again", code=ErrorCode.SESSION_EXPIRED)
    return SignedIn(Principal(user=user, org=None, org_role=None), session)


def optional_identify(
    settings: Settings, accounts: Accounts, facts: RequestFacts
) -> SignedIn | None:
    """The caller when one is signed in; None for anonymous visitors (public reads).

    Credentials that are present but invalid still fail, so a stale session is noticed."""
    has_cookie = bool(facts.cookies.get(settings.auth.session_cookie))
    if facts.headers.get("authorization") is None and not has_cookie:
        return None
    try:
        return identify(settings, accounts, facts)
    except AuthError:
        if has_cookie and facts.headers.get("authorization") is None:
            return None  # an ended session reads public pages like anybody else
        raise
