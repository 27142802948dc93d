"""``GET /api/search``: hybrid search over one public site, with citations."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from askdocs.answer.flow import interactive
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.search.query import MAX_QUERY_CHARS
from askdocs.server.deps import AppDep, CatalogDep, EngineDep, HostDep, PoolDep, public_site
from askdocs.server.schemas import ErrorBody, IndexingOut, SearchResponse
from askdocs.server.signin import SiteCallerDep
from askdocs.types import Audience

router = APIRouter()
NO_STORE = {"Cache-Control": "no-store"}


@router.get(
    "/api/search",
    response_model=SearchResponse,
    responses={400: {"model": ErrorBody}, 404: {"model": ErrorBody}, 503: {"model": ErrorBody}},
)
async def search(
    app: AppDep,
    engine: EngineDep,
    catalog: CatalogDep,
    pool: PoolDep,
    host: HostDep,
    caller: SiteCallerDep,
    q: Annotated[str, Query(min_length=1, max_length=MAX_QUERY_CHARS)],
    site: Annotated[str | None, Query(max_length=63)] = None,
    locale: Annotated[str | None, Query(max_length=35, pattern=r"^[A-Za-z0-9_-]+$")] = None,
    audience: Audience | None = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> JSONResponse:
    if "\x00" in q or not q.strip():
        raise InvalidInput(
            "q must be non-empty text without NUL characters", code=ErrorCode.INVALID_QUERY
        )
    chosen = public_site(catalog, host, site, caller)
    run = partial(engine.search, q, site=chosen.id, locale=locale, audience=audience, limit=limit)
    result = await pool.run(interactive(engine, run))
    indexing = None
    if result.mode == "keyword":  # say how far the vectors are (the banner's numbers)
        indexing = IndexingOut.of(await pool.run(partial(app.core.index_state, chosen.id)))
    body = SearchResponse.of(q, chosen.id, result, indexing)
    return JSONResponse(body.model_dump(mode="json"), headers=NO_STORE)
