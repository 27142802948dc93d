"""``GET /readyz``: whether this server can serve, for a load balancer's readiness probe.

It answers for the service, not for every site: 200 when the database and the limits store
answer, the embedding model has loaded and the search route has run once (``server.warm``),
and every operator site (the config file's, ``askdocs serve/index PATH``'s, or the bundled
docs) has a complete collection or no documents. An organisation's site never holds it back:
a new or empty one is listed (``holds_readiness: false``) with its own state. ``?site=ID``
answers for that one public site instead (503 while it builds; 404 ``site_not_found`` for
an unknown or private one, exactly alike). Runs on its own small pool, never queued behind
database-bound requests; each check is bounded by its store's own timeout.
"""

from __future__ import annotations

import logging
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from askdocs.app import App
from askdocs.blocking import BlockingPool
from askdocs.error_codes import ErrorCode
from askdocs.server.deps import AppDep, ReadyPoolDep
from askdocs.server.openapi import ERRORS_KEY
from askdocs.server.routes.reader import SiteParam
from askdocs.server.schemas import ReadyChecks, ReadyResponse, SiteStatusOut
from askdocs.sites import VISITOR
from askdocs.sites.catalog import CatalogEntry, SiteSource

log = logging.getLogger(__name__)
router = APIRouter()
OK: Literal["ok"] = "ok"
UNAVAILABLE: Literal["unavailable"] = "unavailable"


@router.get(
    "/readyz",
    response_model=ReadyResponse,
    responses={503: {"model": ReadyResponse}},
    openapi_extra={ERRORS_KEY: [ErrorCode.SITE_NOT_FOUND]},
)
async def readyz(app: AppDep, lane: ReadyPoolDep, site: SiteParam = None) -> JSONResponse:
    entries = chosen(app, site)
    checks = ReadyChecks(database=await database_check(app, lane), limits=await limits_check(app))
    sites = await lane.run(lambda: [status_of(app, entry) for entry in entries])
    loading = app.warming_up  # the model, then one search through the route (server/warm.py)
    held = [status for status in sites if status.holds_readiness or site is not None]
    healthy = checks.database == OK and checks.limits == OK
    ready = healthy and not loading and all(status.ready for status in held)
    body = ReadyResponse(ready=ready, checks=checks, sites=sites, model_loading=loading)
    headers = {"Cache-Control": "no-store"}
    return JSONResponse(body.model_dump(mode="json"), 200 if ready else 503, headers=headers)


def chosen(app: App, site: str | None) -> list[CatalogEntry]:
    """The named public site (404 ``site_not_found`` otherwise), else every public one."""
    if site is not None:
        found = app.catalog.entry(app.catalog.resolve(site_id=site, caller=VISITOR).id)
        return [found] if found is not None else []
    return [entry for entry in app.catalog.entries() if entry.site.public]


def status_of(app: App, entry: CatalogEntry) -> SiteStatusOut:
    status = SiteStatusOut.of_site(*app.core.site_status(entry.site.id))
    return status.model_copy(update={"holds_readiness": entry.source is not SiteSource.ADMIN})


async def database_check(app: App, lane: BlockingPool) -> Literal["ok", "unavailable"]:
    def ping() -> None:
        app.stored().db.ping()

    try:
        await lane.run(ping)
    except Exception as exc:  # down, hung past its timeout, or refusing for retry_seconds
        log.warning("readiness: the database is unavailable: %s", type(exc).__name__)
        return UNAVAILABLE
    return OK


async def limits_check(app: App) -> Literal["ok", "unavailable"]:
    return OK if await app.limiter.available() else UNAVAILABLE
