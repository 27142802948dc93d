"""The FastAPI app factory: ``create_app(settings=None, service=None, *, app=None)``.

It builds (or takes) the one ``askdocs.app.App`` and keeps it on ``app.state.askdocs``;
routes reach its parts through the typed dependencies of ``server.deps``. The lifespan
calls ``App.start()`` (the database parts, then the background indexer), warms the
search route once (``server.warm``; ``/readyz`` waits for it) and ``App.aclose()``.
Start-up never waits for indexing: search and Ask AI answer 503
``index_building`` until a first complete collection exists.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress

from fastapi import FastAPI

from askdocs.app import App
from askdocs.guard.botcheck import require_bot_check_for_public_binding
from askdocs.middleware import harden
from askdocs.server.errors import install_error_handlers
from askdocs.server.openapi import install_openapi
from askdocs.server.routes import ROUTER_MODULES
from askdocs.server.warm import warm_search_route
from askdocs.service import AskDocs
from askdocs.settings import Settings, load_settings


def create_app(
    settings: Settings | None = None, service: AskDocs | None = None, *, app: App | None = None
) -> FastAPI:
    """The HTTP app over ``app`` (built here from ``settings`` and ``service`` when absent)."""
    if app is None:
        settings = settings or load_settings()
        require_bot_check_for_public_binding(settings, settings.server.host)
        app = App(settings, engine=service)
    else:
        require_bot_check_for_public_binding(app.settings, app.settings.server.host)
    http = FastAPI(title="askdocs", docs_url=None, redoc_url=None, lifespan=_lifespan(app))
    http.state.askdocs = app
    install_error_handlers(http)
    harden(http, app.settings.server)
    for name in ROUTER_MODULES:
        http.include_router(importlib.import_module(name).router)
    install_openapi(http, app.settings)
    return http


def _lifespan(app: App) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(http: FastAPI) -> AsyncIterator[None]:
        app.http_warming.set()  # /readyz waits for one search through the route
        await app.start()
        warming = asyncio.create_task(warm_search_route(http, app))
        try:
            yield
        finally:
            warming.cancel()
            with suppress(asyncio.CancelledError):
                await warming
            await app.aclose()

    return lifespan
