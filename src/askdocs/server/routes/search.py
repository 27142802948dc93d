"""``GET /api/search``: hybrid search over one public site, with citations.

The site is resolved first (``404 site_not_found``); then the search runs through
``App.search_execution`` (``askdocs.search.execution``): the account's concurrency limit
(``429 search_concurrency_limit``) and spend budget (``429 search_budget_exceeded``) before
any work, a deadline on the whole search (``503 search_timeout``), and a caller that
disconnects stops the work (``499 client_closed_request``, in the log and the metrics).
A keyword-only answer says how far the vectors are (``indexing``).

A caller finds exactly the pages the reader shows them (``SiteCaller.search_audience``):
a visitor user pages only, a signed-in member developer pages too.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from askdocs.answer.flow import interactive
from askdocs.corpus.groups import GROUP_PATTERN
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.guard.validation import NONBLANK_PATTERN
from askdocs.search.execution import until_disconnected
from askdocs.search.query import MAX_QUERY_CHARS
from askdocs.search.stop import StopToken
from askdocs.server.deps import (
    AppDep,
    CatalogDep,
    EngineDep,
    ExecutionDep,
    HostDep,
    VisitorDep,
    public_site,
)
from askdocs.server.schemas import ErrorBody, IndexingOut, SearchResponse
from askdocs.server.signin import SiteCallerDep
from askdocs.sites import SiteCaller
from askdocs.types import Audience, SearchResult

router = APIRouter()
NO_STORE = {"Cache-Control": "no-store"}
_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 404, 429, 503)
}


@router.get("/api/search", response_model=SearchResponse, responses=_ERRORS)
async def search(
    request: Request,
    app: AppDep,
    engine: EngineDep,
    catalog: CatalogDep,
    execution: ExecutionDep,
    host: HostDep,
    caller: SiteCallerDep,
    visitor: VisitorDep,
    q: Annotated[
        str,
        Query(
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            json_schema_extra={"pattern": NONBLANK_PATTERN},  # blank: 400 invalid_query
        ),
    ],
    site: Annotated[str | None, Query(max_length=63)] = None,
    locale: Annotated[str | None, Query(max_length=35, pattern=r"^[A-Za-z0-9_-]+$")] = None,
    audience: Audience | None = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
    group: Annotated[str | None, Query(max_length=63, pattern=GROUP_PATTERN)] = None,
) -> JSONResponse:
    if "\x00" in q or not q.strip():
        raise InvalidInput(
            "q must be non-empty text without NUL characters", code=ErrorCode.INVALID_QUERY
        )
    chosen = public_site(catalog, host, site, caller)
    readable, shown = caller.search_audience(audience)
    run = partial(
        engine.search,
        q,
        site=chosen.id,
        locale=locale,
        audience=readable,
        limit=limit,
        group=group.lower() if group else None,
    )

    def work(stop: StopToken) -> SearchResult:
        return interactive(engine, partial(run, stop=stop))()

    gone = partial(until_disconnected, request.receive)
    result = await execution.run(account_of(caller, visitor), engine.query_is_paid, work, gone)
    if not shown:
        result = replace(result, hits=(), match=False)
    indexing = None
    if result.mode == "keyword":  # say how far the vectors are (the banner's numbers)
        indexing = IndexingOut.of(await app.pool.run(partial(app.core.index_state, chosen.id)))
    body = SearchResponse.of(q, chosen.id, result, indexing)
    return JSONResponse(body.model_dump(mode="json"), headers=NO_STORE)


def account_of(caller: SiteCaller, visitor: str) -> str:
    """Who pays for a search: the signed-in user, else the visitor (hashed address)."""
    return f"user:{caller.account}" if caller.account else f"visitor:{visitor}"
