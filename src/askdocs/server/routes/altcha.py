"""``GET /api/altcha/challenge``: an ALTCHA proof-of-work challenge for Ask AI's bot check
(``askdocs.guard.altcha``). The widget (``/static/vendor/altcha/``, the npm ``altcha``
package served by askdocs itself) fetches one, solves it in the browser and sends the
solution with the question. 404 ``bot_check_off`` when ALTCHA is not the bot check in force.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.guard.altcha import AltchaCheck
from askdocs.server.deps import BotCheckDep
from askdocs.server.openapi import ERRORS_KEY
from askdocs.server.routes.ask import ASK_ACTION

router = APIRouter()


@router.get("/api/altcha/challenge", openapi_extra={ERRORS_KEY: ["bot_check_off"]})
async def altcha_challenge(response: Response, bot_check: BotCheckDep) -> dict[str, Any]:
    """A fresh challenge for Ask AI (``{parameters, signature}``, the widget's format)."""
    if not isinstance(bot_check, AltchaCheck):
        raise NotFound("the ALTCHA bot check is not in force", code=ErrorCode.BOT_CHECK_OFF)
    response.headers["Cache-Control"] = "no-store"
    return bot_check.challenge(ASK_ACTION)
