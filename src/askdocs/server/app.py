"""The FastAPI app factory: ``create_app(settings=None, service=None)``."""

from __future__ import annotations

import importlib

from fastapi import FastAPI

from askdocs.server.errors import install_error_handlers
from askdocs.server.routes import ROUTER_MODULES
from askdocs.service import AskDocs
from askdocs.settings import Settings, load_settings


def create_app(settings: Settings | None = None, service: AskDocs | None = None) -> FastAPI:
    settings = settings or load_settings()
    service = service or AskDocs(settings)
    app = FastAPI(title="askdocs", docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.service = service
    install_error_handlers(app)
    for name in ROUTER_MODULES:
        app.include_router(importlib.import_module(name).router)
    return app
