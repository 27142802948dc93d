"""Typed FastAPI dependencies: how routes reach the parts of the one ``askdocs.app.App``.

``create_app`` keeps the ``App`` on ``app.state.askdocs``; every route takes what it needs
through these dependencies, so a test replaces any part with ``app.dependency_overrides``
(for example ``{get_chat: lambda: fixed_chat(scripted_model)}``) without touching module
state.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request

from askdocs.admin.api import AdminApi
from askdocs.answer.records import AskRecords
from askdocs.app import App
from askdocs.assistant.runtime import AssistantRuntime
from askdocs.blocking import BlockingPool
from askdocs.guard.botcheck import BotCheck
from askdocs.guard.hosts import host_name
from askdocs.guard.limiter import Limiter
from askdocs.guard.visitor import UNKNOWN, visitor_id
from askdocs.llm.types import ChatModel
from askdocs.reader.control import DocsReader
from askdocs.search.execution import SearchExecution
from askdocs.service import AskDocs
from askdocs.settings import Settings, SiteConfig
from askdocs.sites import OPERATOR, VISITOR, SiteCaller, SiteCatalog

log = logging.getLogger(__name__)


def app_of(request: Request) -> App:
    app: App = request.app.state.askdocs
    return app


async def get_app(request: Request) -> App:
    """Every dependency here is ``async``: none blocks, and none may wait for a worker
    thread (the thread pool can be full of requests waiting on a hung database)."""
    return app_of(request)


AppDep = Annotated[App, Depends(get_app)]


async def get_settings(app: AppDep) -> Settings:
    return app.settings


async def get_engine(app: AppDep) -> AskDocs:
    return app.engine


async def get_catalog(app: AppDep) -> SiteCatalog:
    return app.catalog


async def get_pool(app: AppDep) -> BlockingPool:
    return app.pool


async def get_ready_pool(app: AppDep) -> BlockingPool:
    return app.ready_pool


async def get_limiter(app: AppDep) -> Limiter:
    return app.limiter


async def get_search_execution(app: AppDep) -> SearchExecution:
    return app.search_execution


async def get_bot_check(app: AppDep) -> BotCheck:
    return app.bot_check


ChatChooser = Callable[[], Awaitable[ChatModel | None]]


async def get_chat(app: AppDep) -> ChatChooser:
    """How a route finds the chat model when it needs one: ``App.current_chat`` (the
    active stored provider, else the configured one). A chooser, not the model: resolving
    reads the database, which a dependency must not wait for (see ``get_app``)."""

    async def choose() -> ChatModel | None:
        return (await app.current_chat()).model

    return choose


def fixed_chat(model: ChatModel | None) -> ChatChooser:
    """A chooser that always answers ``model`` (tests override ``get_chat`` with it)."""

    async def choose() -> ChatModel | None:
        return model

    return choose


async def get_reader(app: AppDep) -> DocsReader:
    return app.reader


async def get_assistant(app: AppDep) -> AssistantRuntime:
    return (await app.stored_parts()).assistant


async def get_admin(app: AppDep) -> AdminApi:
    return (await app.stored_parts()).admin


SettingsDep = Annotated[Settings, Depends(get_settings)]
EngineDep = Annotated[AskDocs, Depends(get_engine)]
CatalogDep = Annotated[SiteCatalog, Depends(get_catalog)]
PoolDep = Annotated[BlockingPool, Depends(get_pool)]
ReadyPoolDep = Annotated[BlockingPool, Depends(get_ready_pool)]
LimiterDep = Annotated[Limiter, Depends(get_limiter)]
ExecutionDep = Annotated[SearchExecution, Depends(get_search_execution)]
BotCheckDep = Annotated[BotCheck, Depends(get_bot_check)]
ChatDep = Annotated[ChatChooser, Depends(get_chat)]
ReaderDep = Annotated[DocsReader, Depends(get_reader)]
AssistantDep = Annotated[AssistantRuntime, Depends(get_assistant)]
AdminDep = Annotated[AdminApi, Depends(get_admin)]


def host_of(request: Request) -> str:
    return host_name(request.headers.get("host"))


async def get_host(request: Request) -> str:
    return host_of(request)


HostDep = Annotated[str, Depends(get_host)]


def host_site(catalog: SiteCatalog, host: str) -> SiteConfig:
    """The site this request's host names, whatever its visibility (Ask AI checks that
    later, in its documented order); 404 ``site_not_found`` when none."""
    return catalog.resolve(host=host, caller=OPERATOR)


async def get_host_site(catalog: CatalogDep, host: HostDep) -> SiteConfig:
    return host_site(catalog, host)


HostSiteDep = Annotated[SiteConfig, Depends(get_host_site)]


def public_site(
    catalog: SiteCatalog, host: str, site_id: str | None, caller: SiteCaller = VISITOR
) -> SiteConfig:
    """The named site, else the host's (search, reader, web): public and live ones, plus the
    private sites of the caller's organisations (``askdocs.server.signin.SiteCallerDep``)."""
    return catalog.resolve(host=host, site_id=site_id, caller=caller)


async def get_client(request: Request) -> str:
    """The client's address: the peer's, or the one a trusted proxy names (the request
    already says so: ``askdocs.middleware.Forwarded``)."""
    return request.client.host if request.client else UNKNOWN


ClientDep = Annotated[str, Depends(get_client)]


async def get_visitor(app: AppDep, client: ClientDep) -> str:
    return visitor_id(await app.visitor_secret(), client)


VisitorDep = Annotated[str, Depends(get_visitor)]


async def get_records(app: AppDep) -> AskRecords | None:
    """Ask AI's records, or ``None`` when recording is off or the database cannot be opened
    (Ask AI still answers; the failure is logged)."""
    if not app.settings.ask.record_questions:
        return None
    try:
        stored = await app.stored_parts()
    except Exception as exc:  # the database is down: answer anyway, unrecorded
        log.warning("ask records unavailable: %s", type(exc).__name__)
        return None
    return AskRecords(stored.db, app.settings.ask)


RecordsDep = Annotated[AskRecords | None, Depends(get_records)]
