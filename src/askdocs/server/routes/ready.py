"""``GET /readyz``: 200 once every public site has a complete collection, else 503."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from askdocs.lanes import app_lane
from askdocs.server.deps import service_of
from askdocs.server.schemas import ReadyResponse, SiteStatusOut

router = APIRouter()


@router.get("/readyz", response_model=ReadyResponse, responses={503: {"model": ReadyResponse}})
async def readyz(request: Request) -> JSONResponse:
    service = service_of(request)
    public = [site.id for site in service.sites if site.public]

    def statuses() -> list[SiteStatusOut]:
        return [SiteStatusOut.of(service.status(site)) for site in public]

    sites = await app_lane(request.app.state, "ready_lane").run(statuses)
    ready = all(s.ready for s in sites)
    body = ReadyResponse(ready=ready, sites=sites)
    headers = {"Cache-Control": "no-store"}
    return JSONResponse(body.model_dump(mode="json"), 200 if ready else 503, headers=headers)
