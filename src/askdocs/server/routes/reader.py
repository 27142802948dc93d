"""The docs reader API: ``/api/docs/catalog``, ``/api/docs/articles/{slug}``,
``/api/docs/assets/{slug}/{assetId}`` (see docs/reader-api.md).

Handlers only resolve the site and translate: identities are validated by the reader
before any lookup (400), and its errors map through the app's error handlers.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse, Response

from askdocs.errors import NotFound
from askdocs.guard.hosts import site_for_host
from askdocs.reader.control import DocsReader
from askdocs.reader.schemas import Article, Catalog
from askdocs.server.deps import request_host, service_of, settings_of
from askdocs.server.schemas import ErrorBody
from askdocs.settings import SiteConfig

_LOCK = threading.Lock()
NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (400, 404, 503)}
SiteParam = Annotated[str | None, Query(max_length=63)]
LocaleParam = Annotated[str | None, Query(max_length=35)]


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    try:
        yield
    finally:
        reader: DocsReader | None = getattr(app.state, "reader", None)
        if reader is not None:
            reader.close()


router = APIRouter(lifespan=_lifespan)


def reader_of(request: Request) -> DocsReader:
    """The app's reader, made on first use (tests need no lifespan)."""
    state = request.app.state
    with _LOCK:
        if getattr(state, "reader", None) is None:
            state.reader = DocsReader(settings_of(request))
    reader: DocsReader = state.reader
    return reader


def reader_site(request: Request, site_id: str | None) -> SiteConfig:
    """The named site, else the host's site, else the first; public and live only."""
    sites = service_of(request).sites
    if site_id is not None:
        found = next((s for s in sites if s.id == site_id), None)
    else:
        found = site_for_host(sites, request_host(request)) or (sites[0] if sites else None)
    if found is None or not (found.public and found.live):
        raise NotFound("no such public documentation site", code="site_not_found")
    return found


@router.get("/api/docs/catalog", response_model=Catalog, responses=_ERRORS)
def catalog(request: Request, locale: LocaleParam = None, site: SiteParam = None) -> JSONResponse:
    reader = reader_of(request)
    body = reader.catalog(reader_site(request, site), locale)
    return JSONResponse(body.model_dump(mode="json"), headers=NO_STORE)


@router.get("/api/docs/articles/{slug:path}", response_model=Article, responses=_ERRORS)
def article(
    request: Request, slug: str, locale: LocaleParam = None, site: SiteParam = None
) -> JSONResponse:
    reader = reader_of(request)
    body = reader.article(reader_site(request, site), slug, locale)
    return JSONResponse(body.model_dump(mode="json"), headers=NO_STORE)


@router.get(
    "/api/docs/assets/{slug:path}/{asset_id}",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}}, 304: {}, **_ERRORS},
)
def asset(request: Request, slug: str, asset_id: str, site: SiteParam = None) -> Response:
    reader = reader_of(request)
    etags = parse_if_none_match(request.headers.get("if-none-match"))
    found = reader.asset(reader_site(request, site), slug, asset_id, etags)
    headers = {
        "ETag": f'"{found.sha256}"',
        "Cache-Control": "private, no-cache",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cross-Origin-Resource-Policy": "same-origin",
    }
    if found.data is None:
        return Response(status_code=304, headers=headers)
    return Response(found.data, media_type=found.content_type, headers=headers)


def parse_if_none_match(value: str | None) -> frozenset[str]:
    """The entity tags of an ``If-None-Match`` header, quotes and ``W/`` removed."""
    if not value:
        return frozenset()
    tags = (part.strip().removeprefix("W/").strip('"') for part in value.split(",")[:32])
    return frozenset(tag for tag in tags if tag)
