"""The FastAPI app factory: ``create_app(settings=None, service=None)``.

Start-up never waits for indexing: the lifespan starts a background thread that runs
``service.ensure_indexed()`` at once and then every ``index.recheck_seconds``; search and
Ask AI answer 503 ``index_building`` until a first complete collection exists.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI

from askdocs.errors import AskDocsError
from askdocs.guard.botcheck import create_bot_check, require_bot_check_for_public_binding
from askdocs.guard.limiter import Limiter, open_limits_store
from askdocs.guard.visitor import visitor_key
from askdocs.llm.registry import create_chat_model
from askdocs.server.deps import Runtime
from askdocs.server.errors import install_error_handlers
from askdocs.server.routes import ROUTER_MODULES
from askdocs.service import AskDocs
from askdocs.settings import Settings, load_settings

log = logging.getLogger(__name__)
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
        stop = threading.Event()
        settings: Settings = app.state.settings
        indexer = BackgroundIndexer(app.state.service, settings, stop)
        if settings.server.index_in_background:
            indexer.start()
        try:
            yield
        finally:
            stop.set()
            await app.state.runtime.limiter.close()
            if indexer.is_alive():
                await anyio.to_thread.run_sync(indexer.join, SHUTDOWN_WAIT_SECONDS)
            if owns_service and not indexer.is_alive():
                app.state.service.close()

    return lifespan


class BackgroundIndexer(threading.Thread):
    """Keeps every configured site indexed: now, then every ``index.recheck_seconds``."""

    def __init__(self, service: AskDocs, settings: Settings, stop: threading.Event) -> None:
        super().__init__(name="askdocs-indexer", daemon=True)
        self._service = service
        self._index = settings.index
        self._stop = stop

    def run(self) -> None:
        while not self._stop.is_set():
            wait = self._index.recheck_seconds
            try:
                self._service.ensure_indexed()
            except AskDocsError as exc:
                log.warning("background indexing failed: %s", exc)
                wait = self._index.retry_seconds
            except Exception:
                log.exception("background indexing crashed")
                wait = self._index.retry_seconds
            self._stop.wait(wait)
