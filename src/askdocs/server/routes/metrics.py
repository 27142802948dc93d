"""``GET /api/v1/metrics``: the search route's counters in the Prometheus text format, for
platform administrators (a bearer token or a signed-in session).

``askdocs_search_requests_total{status}`` counts answers by HTTP status (``499`` when the
caller went away first); ``askdocs_search_stopped_total{reason}`` counts searches whose work
stopped early (``client_closed_request``, ``search_timeout``); ``askdocs_search_in_flight``
is the searches running on the pool now.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from askdocs.admin.authority import refusal
from askdocs.search.execution import SearchMetrics
from askdocs.server.deps import ExecutionDep
from askdocs.server.openapi import ERRORS_KEY
from askdocs.server.signin import Caller

router = APIRouter()
MEDIA_TYPE = "text/plain; version=0.0.4; charset=utf-8"


@router.get(
    "/api/v1/metrics",
    response_class=PlainTextResponse,
    openapi_extra={ERRORS_KEY: ["admin_required"]},
)
async def metrics(caller: Caller, execution: ExecutionDep) -> PlainTextResponse:
    if not caller.platform_admin:
        raise refusal()
    return PlainTextResponse(exposition(execution.metrics), media_type=MEDIA_TYPE)


def exposition(metrics: SearchMetrics) -> str:
    """The counters as Prometheus text (version 0.0.4)."""
    statuses, stopped, in_flight = metrics.snapshot()
    lines = [
        "# HELP askdocs_search_requests_total Searches answered, by HTTP status.",
        "# TYPE askdocs_search_requests_total counter",
        *(
            f'askdocs_search_requests_total{{status="{s}"}} {n}'
            for s, n in sorted(statuses.items())
        ),
        "# HELP askdocs_search_stopped_total Searches whose work stopped early, by reason.",
        "# TYPE askdocs_search_stopped_total counter",
        *(f'askdocs_search_stopped_total{{reason="{r}"}} {n}' for r, n in sorted(stopped.items())),
        "# HELP askdocs_search_in_flight Searches running on the pool now.",
        "# TYPE askdocs_search_in_flight gauge",
        f"askdocs_search_in_flight {in_flight}",
    ]
    return "\n".join(lines) + "\n"
