"""``GET /api/v1/admin/ask-report``: the docs-gaps report (``answer.report``) for platform
administrators, the same report as ``askdocs report --json``.

Bearer or session auth as the other admin routes; a caller who is not a platform
administrator gets ``403 admin_required``. ``since`` is ``24h``, ``7d`` or ``2w`` (default
``7d``; else ``400 invalid_since``), ``siteId`` limits it to one site. ``organisationId``
(the organisation chosen in the admin page) scopes the no-match groups' draft pages to that
organisation's sites and names it in their arguments, so "Draft a page" works for an
administrator of several organisations (``answer.drafts``).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from askdocs.admin.authority import refusal
from askdocs.admin.sites import org_sites
from askdocs.answer.drafts import DraftScope
from askdocs.answer.report import as_json, embed_with, gaps_report, parse_since
from askdocs.assistant.feedback import disliked_replies
from askdocs.db import Database
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.server.deps import AppDep
from askdocs.server.schemas import ErrorBody
from askdocs.server.signin import Caller

router = APIRouter(prefix="/api/v1/admin", tags=["admin"])
_ERRORS = {code: {"model": ErrorBody} for code in (400, 401, 403, 503)}


@router.get("/ask-report", responses=_ERRORS)  # type: ignore[arg-type]
async def ask_report(
    app: AppDep,
    caller: Caller,
    since: str = "7d",
    siteId: str | None = None,
    organisationId: Annotated[str | None, Query(max_length=100)] = None,
) -> JSONResponse:
    if not caller.platform_admin:
        raise refusal()
    try:
        window = parse_since(since)
    except ValueError as exc:
        raise InvalidInput(str(exc), code=ErrorCode.INVALID_SINCE) from None
    db, ask = (await app.stored_parts()).db, app.settings.ask
    embed = embed_with(app.engine.embedder)
    rated = partial(disliked_replies, db)

    def build() -> dict[str, object]:
        scope = _scope(db, organisationId)
        return as_json(gaps_report(db, ask, (window, siteId), embed, rated, scope))

    report = await app.pool.run(build)
    return JSONResponse(report, headers={"Cache-Control": "no-store"})


def _scope(db: Database, org_id: str | None) -> DraftScope | None:
    if org_id is None:
        return None
    with db.session() as session:
        return DraftScope(org_id, frozenset(row.id for row in org_sites(session, org_id)))
