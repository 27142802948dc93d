"""FastAPI glue for sign-in: the caller of a request, and the session cookie.

``Caller`` is the signed-in principal (bearer JWT or session cookie with CSRF checks, see
``askdocs.users.web``); ``MaybeCaller`` is None for anonymous visitors. Routes under
``/api/v1`` that change state get the CSRF check through these dependencies.
"""

from __future__ import annotations

from typing import Annotated

import anyio
from fastapi import Depends, Request, Response

from askdocs.assistant.runtime import AssistantRuntime
from askdocs.server.deps import AppDep, AssistantDep
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
