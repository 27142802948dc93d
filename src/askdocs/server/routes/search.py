"""``GET /api/search``: hybrid search over one public site, with citations."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from askdocs.admin.api import org_site_ids
from askdocs.answer.flow import interactive
from askdocs.errors import InvalidInput, NotFound
from askdocs.guard.hosts import only_site, site_for_host
from askdocs.server.deps import request_host, runtime_of, service_of
from askdocs.server.schemas import ErrorBody, SearchResponse
from askdocs.settings import SiteConfig
from askdocs.types import Audience

router = APIRouter()
NO_STORE = {"Cache-Control": "no-store"}
MAX_QUERY_CHARS = 1000


@router.get(
    "/api/search",
    response_model=SearchResponse,
    responses={400: {"model": ErrorBody}, 404: {"model": ErrorBody}, 503: {"model": ErrorBody}},
)
async def search(
    request: Request,
    q: Annotated[str, Query(min_length=1, max_length=MAX_QUERY_CHARS)],
    site: Annotated[str | None, Query(max_length=63)] = None,
    locale: Annotated[str | None, Query(max_length=35, pattern=r"^[A-Za-z0-9_-]+$")] = None,
    audience: Audience | None = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> JSONResponse:
    if "\x00" in q or not q.strip():
        raise InvalidInput("q must be non-empty text without NUL characters", code="invalid_query")
    chosen = _site(request, site)
    run = partial(
        service_of(request).search, q, site=chosen.id, locale=locale, audience=audience, limit=limit
    )
    slots = runtime_of(request).search_slots()
    result = await anyio.to_thread.run_sync(interactive(service_of(request), run), limiter=slots)
    body = SearchResponse.of(q, chosen.id, result)
    return JSONResponse(body.model_dump(mode="json"), headers=NO_STORE)


def _site(request: Request, site_id: str | None) -> SiteConfig:
    """The named site, else the host's site, else the only one; public and live only."""
    service = service_of(request)
    sites, org_sites = service.sites, org_site_ids(service)
    if site_id is not None:
        found = next((s for s in sites if s.id == site_id), None)
    else:
        found = site_for_host(sites, request_host(request), org_sites) or only_site(
            sites, org_sites
        )
    if found is None or not (found.public and found.live):
        raise NotFound("no such public documentation site", code="site_not_found")
    return found
