"""The FastAPI app factory: ``create_app(settings=None, service=None)``.

Start-up never waits for indexing: the lifespan starts the engine's ``IndexingService``, a
daemon thread that runs ``service.ensure_indexed()`` after ``index.first_run_delay_seconds``
and then every ``index.recheck_seconds``; search and Ask AI answer 503 ``index_building``
until a first complete collection exists.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI

from askdocs.guard.botcheck import create_bot_check, require_bot_check_for_public_binding
from askdocs.guard.limiter import Limiter, open_limits_store
from askdocs.guard.visitor import visitor_key
from askdocs.indexing import IndexingService
from askdocs.llm.registry import create_chat_model
from askdocs.server.deps import Runtime
from askdocs.server.errors import install_error_handlers
from askdocs.server.middleware import harden
from askdocs.server.routes import ROUTER_MODULES
from askdocs.service import AskDocs
from askdocs.settings import Settings, load_settings

SHUTDOWN_WAIT_SECONDS = 10.0


def create_app(settings: Settings | None = None, service: AskDocs | None = None) -> FastAPI:
    settings = settings or load_settings()
    require_bot_check_for_public_binding(settings, settings.server.host)
    owns_service = service is None
    service = service or AskDocs(settings)
    app = FastAPI(title="askdocs", docs_url=None, redoc_url=None, lifespan=_lifespan(owns_service))
    app.state.settings = settings
    app.state.service = service
    app.state.runtime = build_runtime(settings)
    install_error_handlers(app)
    harden(app, settings.server.max_body_bytes)
    for name in ROUTER_MODULES:
        app.include_router(importlib.import_module(name).router)
    return app


def build_runtime(settings: Settings) -> Runtime:
    return Runtime(
        limiter=Limiter(open_limits_store(settings), settings),
        bot_check=create_bot_check(settings.bot_check),
        chat=create_chat_model(settings.chat),
        visitor_key=visitor_key(settings),
        search_concurrency=settings.server.search_concurrency,
    )


def _lifespan(owns_service: bool) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings: Settings = app.state.settings
        indexing = IndexingService(
            app.state.service,
            first_run_delay=settings.index.first_run_delay_seconds,
            recheck=settings.index.recheck_seconds,
            retry=settings.index.retry_seconds,
        )
        if settings.server.index_in_background:
            indexing.start()
        app.state.indexing = indexing
        try:
            yield
        finally:
            await app.state.runtime.limiter.close()
            await anyio.to_thread.run_sync(indexing.stop, SHUTDOWN_WAIT_SECONDS)
            if owns_service:
                app.state.service.close()

    return lifespan
