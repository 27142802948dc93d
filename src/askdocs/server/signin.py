"""FastAPI glue for sign-in: the caller of a request, and the session cookie.

``Caller`` is the signed-in principal (bearer JWT or session cookie with CSRF checks, see
``askdocs.users.web``); ``MaybeCaller`` is None for anonymous visitors. Routes under
``/api/v1`` that change state get the CSRF check through these dependencies. The device
cookie (``askdocs.auth.device``) is set here after a sign-in and read before a password
check (``checked_attempt``).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

import anyio
from fastapi import Depends, Request, Response

from askdocs.assistant.runtime import AssistantRuntime
from askdocs.auth.device import DEVICE_COOKIE, DEVICE_PURPOSE, DeviceMark, recognised, seal
from askdocs.auth.keys import derived_key
from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError
from askdocs.guard.attempts import Attempt, count_attempt, count_failure
from askdocs.guard.limiter import Limiter
from askdocs.server.deps import AppDep, AssistantDep
from askdocs.server.site_caller import has_credentials, site_caller
from askdocs.settings import Settings
from askdocs.sites import VISITOR, SiteCaller
from askdocs.users.accounts import Accounts
from askdocs.users.types import Principal
from askdocs.users.web import RequestFacts, SignedIn, identify, optional_identify

Runtime = AssistantDep


def accounts_for(runtime: AssistantRuntime) -> Accounts:
    return Accounts(runtime.settings, runtime.db)


async def get_accounts(runtime: Runtime) -> Accounts:
    return accounts_for(runtime)


AccountsDep = Annotated[Accounts, Depends(get_accounts)]


def request_origin(request: Request) -> str:
    host = request.headers.get("host") or request.url.netloc
    return f"{request.url.scheme}://{host}"


def facts_of(request: Request) -> RequestFacts:
    return RequestFacts(
        method=request.method,
        headers=request.headers,
        cookies=request.cookies,
        origin=request_origin(request),
    )


async def get_signed_in(request: Request, accounts: AccountsDep) -> SignedIn:
    facts = facts_of(request)
    return await anyio.to_thread.run_sync(identify, accounts.settings, accounts, facts)


SignedInDep = Annotated[SignedIn, Depends(get_signed_in)]


async def get_caller(signed_in: SignedInDep) -> Principal:
    return signed_in.principal


Caller = Annotated[Principal, Depends(get_caller)]


async def get_maybe_caller(request: Request, accounts: AccountsDep) -> Principal | None:
    facts = facts_of(request)
    found = await anyio.to_thread.run_sync(optional_identify, accounts.settings, accounts, facts)
    return found.principal if found else None


MaybeCaller = Annotated[Principal | None, Depends(get_maybe_caller)]


async def get_site_caller(request: Request, app: AppDep) -> SiteCaller:
    """``VISITOR`` without credentials (no database work); else the caller's organisations."""
    facts = facts_of(request)
    if not has_credentials(facts, app.settings.auth.session_cookie):
        return VISITOR
    accounts = accounts_for((await app.stored_parts()).assistant)
    return await anyio.to_thread.run_sync(site_caller, accounts, facts)


SiteCallerDep = Annotated[SiteCaller, Depends(get_site_caller)]


def cookie_secure(settings: Settings, request: Request) -> bool:
    mode = settings.auth.cookie_secure
    return mode == "always" or (mode == "auto" and request.url.scheme == "https")


def set_session_cookie(
    response: Response, request: Request, settings: Settings, token: str
) -> None:
    response.set_cookie(
        settings.auth.session_cookie,
        token,
        max_age=settings.auth.session_absolute_seconds,
        path="/",
        httponly=True,
        samesite="lax",
        secure=cookie_secure(settings, request),
    )


def clear_session_cookie(response: Response, request: Request, settings: Settings) -> None:
    response.delete_cookie(
        settings.auth.session_cookie,
        path="/",
        httponly=True,
        samesite="lax",
        secure=cookie_secure(settings, request),
    )


T = TypeVar("T")
DEVICE_PATH = "/api/v1/auth"  # the cookie goes to the sign-in routes only


def device_max_age(settings: Settings) -> int:
    return settings.auth.device_cookie_days * 86400


def recognised_device(request: Request, settings: Settings, email: str) -> str | None:
    """This browser's device id when it holds a live device cookie of ``email``'s account."""
    key = derived_key(settings, DEVICE_PURPOSE)
    value = request.cookies.get(DEVICE_COOKIE)
    return recognised(key, value, email, int(time.time()), device_max_age(settings))


async def checked_attempt(
    request: Request, settings: Settings, limiter: Limiter, visitor: str, email: str
) -> str | None:
    """Count one password check for ``email`` (429 ``sign_in_limited`` at a limit, 503 when
    the limits store cannot answer); the recognised device id, if any."""
    device = recognised_device(request, settings, email)
    attempt = Attempt(email, visitor, device)
    timeout = settings.ask.limits_timeout_seconds
    await count_attempt(limiter.store, settings.auth, attempt, int(time.time()), timeout)
    return device


async def password_checked(
    request: Request,
    settings: Settings,
    limiter: Limiter,
    visitor: str,
    email: str,
    check: Callable[[], Awaitable[T]],
) -> tuple[T, str | None]:
    """Run the password ``check`` under the attempt limits (``askdocs.guard.attempts``): it
    is counted and may be refused before it runs, and a wrong password from an
    unrecognised browser counts against the account. The check's result and the
    recognised device id."""
    device = await checked_attempt(request, settings, limiter, visitor, email)
    try:
        return await check(), device
    except AuthError as exc:
        if exc.code == ErrorCode.INVALID_CREDENTIALS:
            attempt = Attempt(email, visitor, device)
            timeout = settings.ask.limits_timeout_seconds
            now = int(time.time())
            await count_failure(limiter.store, settings.auth, attempt, now, timeout)
        raise


def set_device_cookie(
    response: Response, request: Request, settings: Settings, email: str, device: str | None
) -> None:
    """Recognise this browser for ``email``'s account (keeping its device id when it had one)."""
    mark = DeviceMark.fresh(email, int(time.time()))
    if device is not None:
        mark = DeviceMark(mark.account, device, mark.issued_at)
    response.set_cookie(
        DEVICE_COOKIE,
        seal(derived_key(settings, DEVICE_PURPOSE), mark),
        max_age=device_max_age(settings),
        path=DEVICE_PATH,
        httponly=True,
        samesite="lax",
        secure=cookie_secure(settings, request),
    )
