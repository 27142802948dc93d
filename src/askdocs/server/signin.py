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
from askdocs.error_codes import ErrorCode
from askdocs.errors import AuthError
from askdocs.guard.attempts import Attempt, count_attempt, count_failure
from askdocs.guard.limiter import Limiter
from askdocs.server.deps import AppDep, AssistantDep
from askdocs.server.origin import allowed_origins, is_https
from askdocs.server.origin import request_origin as request_origin  # its old home (re-export)
from askdocs.server.site_caller import has_credentials, site_caller
from askdocs.settings import Settings
from askdocs.sites import VISITOR, SiteCaller
from askdocs.users.accounts import Accounts
from askdocs.users.types import Principal
from askdocs.users.web import RequestFacts, SignedIn, identify, optional_identify

Runtime = AssistantDep


def accounts_for(runtime: AssistantRuntime) -> Accounts:
    return Accounts(runtime.settings, runtime.db, runtime.keys)


async def get_accounts(runtime: Runtime) -> Accounts:
    return accounts_for(runtime)


AccountsDep = Annotated[Accounts, Depends(get_accounts)]


def facts_of(request: Request) -> RequestFacts:
    return RequestFacts(
        method=request.method,
        headers=request.headers,
        cookies=request.cookies,
        origins=allowed_origins(request),
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
    """``auto``: when the visitor's connection is https (directly, as a trusted proxy says,
    or for ``server.public_url``'s host when that is https)."""
    mode = settings.auth.cookie_secure
    return mode == "always" or (mode == "auto" and is_https(request))


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


async def device_keys(accounts: Accounts) -> tuple[bytes, ...]:
    """The device cookie's keys: one per verifying ``jwt`` version (``askdocs.keys``), the
    signing one first, so every replica seals and opens alike, across a rotation."""
    return await anyio.to_thread.run_sync(accounts.keys.derived_all, DEVICE_PURPOSE)


async def recognised_device(request: Request, accounts: Accounts, email: str) -> str | None:
    """This browser's device id when it holds a live device cookie of ``email``'s account."""
    value, now = request.cookies.get(DEVICE_COOKIE), int(time.time())
    max_age = device_max_age(accounts.settings)
    for key in await device_keys(accounts):
        found = recognised(key, value, email, now, max_age)
        if found is not None:
            return found
    return None


async def checked_attempt(
    request: Request, accounts: Accounts, limiter: Limiter, visitor: str, email: str
) -> str | None:
    """Count one password check for ``email`` (429 ``sign_in_limited`` at a limit, 503 when
    the limits store cannot answer); the recognised device id, if any."""
    settings = accounts.settings
    device = await recognised_device(request, accounts, email)
    attempt = Attempt(email, visitor, device)
    timeout = limiter.guard_seconds  # the store keeps its own bound
    await count_attempt(limiter.store, settings.auth, attempt, int(time.time()), timeout)
    return device


async def password_checked(
    request: Request,
    accounts: Accounts,
    limiter: Limiter,
    visitor: str,
    email: str,
    check: Callable[[], Awaitable[T]],
) -> tuple[T, str | None]:
    """Run the password ``check`` under the attempt limits (``askdocs.guard.attempts``): it
    is counted and may be refused before it runs, and a wrong password from an
    unrecognised browser counts against the account. The check's result and the
    recognised device id."""
    device = await checked_attempt(request, accounts, limiter, visitor, email)
    try:
        return await check(), device
    except AuthError as exc:
        if exc.code == ErrorCode.INVALID_CREDENTIALS:
            attempt = Attempt(email, visitor, device)
            settings = accounts.settings
            timeout = limiter.guard_seconds  # the store keeps its own bound
            now = int(time.time())
            await count_failure(limiter.store, settings.auth, attempt, now, timeout)
        raise


async def set_device_cookie(
    response: Response, request: Request, accounts: Accounts, email: str, device: str | None
) -> None:
    """Recognise this browser for ``email``'s account (keeping its device id when it had one)."""
    settings = accounts.settings
    mark = DeviceMark.fresh(email, int(time.time()))
    if device is not None:
        mark = DeviceMark(mark.account, device, mark.issued_at)
    keys = await device_keys(accounts)
    response.set_cookie(
        DEVICE_COOKIE,
        seal(keys[0], mark),
        max_age=device_max_age(settings),
        path=DEVICE_PATH,
        httponly=True,
        samesite="lax",
        secure=cookie_secure(settings, request),
    )
