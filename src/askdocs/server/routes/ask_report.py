"""``GET /api/v1/admin/ask-report``: the docs-gaps report (``answer.report``) for platform
administrators, the same report as ``askdocs report --json``.

Bearer or session auth as the other admin routes; a caller who is not a platform
administrator gets ``403 admin_required``. ``since`` is ``24h``, ``7d`` or ``2w`` (default
``7d``; else ``400 invalid_since``), ``siteId`` limits it to one site.
"""

from __future__ import annotations

from functools import partial

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from askdocs.admin.authority import refusal
from askdocs.answer.report import as_json, embed_with, gaps_report, parse_since
from askdocs.assistant.feedback import disliked_replies
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.server.deps import AppDep
from askdocs.server.schemas import ErrorBody
from askdocs.server.signin import Caller

router = APIRouter(prefix="/api/v1/admin", tags=["admin"])
_ERRORS = {code: {"model": ErrorBody} for code in (400, 401, 403, 503)}


@router.get("/ask-report", responses=_ERRORS)  # type: ignore[arg-type]
async def ask_report(
    app: AppDep, caller: Caller, since: str = "7d", siteId: str | None = None
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
    report = await app.pool.run(lambda: gaps_report(db, ask, (window, siteId), embed, rated))
    return JSONResponse(as_json(report), headers={"Cache-Control": "no-store"})
