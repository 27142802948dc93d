"""``GET /readyz``: 200 once every public site has a complete collection and the embedding
model has loaded and the search route has run once (``server.warm``), else 503."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from askdocs.server.deps import AppDep, EngineDep, ReadyPoolDep
from askdocs.server.schemas import ReadyResponse, SiteStatusOut

router = APIRouter()


@router.get("/readyz", response_model=ReadyResponse, responses={503: {"model": ReadyResponse}})
async def readyz(service: EngineDep, app: AppDep, lane: ReadyPoolDep) -> JSONResponse:
    """Runs on its own small pool, never queued behind database-bound requests."""
    public = [site.id for site in service.sites if site.public]

    def statuses() -> list[SiteStatusOut]:
        return [SiteStatusOut.of_site(*app.core.site_status(site)) for site in public]

    sites = await lane.run(statuses)
    loading = app.warming_up  # the model, then one search through the route (server/warm.py)
    ready = all(s.ready for s in sites) and not loading
    body = ReadyResponse(ready=ready, sites=sites, model_loading=loading)
    headers = {"Cache-Control": "no-store"}
    return JSONResponse(body.model_dump(mode="json"), 200 if ready else 503, headers=headers)
