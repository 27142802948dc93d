"""``POST /api/v1/assistant/messages/{message_id}/feedback``: a signed-in user rates one of
their own assistant replies (``{rating: "up" | "down", comment?}``, comment at most 500
characters). 204 on success; ``400 invalid_request`` for a bad body, ``404
message_not_found`` for no such reply of theirs, ``429 feedback_limit`` past
``ask.feedback_per_minute`` per user.
"""

from __future__ import annotations

from typing import Literal

import anyio
from fastapi import APIRouter, Response
from pydantic import Field

from askdocs.assistant.feedback import rate_reply
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.guard.validation import CleanText
from askdocs.server.deps import AssistantDep, LimiterDep, SettingsDep
from askdocs.server.routes.ask_feedback import feedback_limit
from askdocs.server.schemas import ErrorBody
from askdocs.server.signin import Caller
from askdocs.wire import Wire

router = APIRouter(prefix="/api/v1/assistant", tags=["assistant"])
_ERRORS = {code: {"model": ErrorBody} for code in (400, 401, 404, 429, 503)}


class ReplyFeedbackIn(Wire):
    rating: Literal["up", "down"]
    comment: CleanText | None = Field(default=None, max_length=500)


@router.post(
    "/messages/{message_id}/feedback",
    status_code=204,
    responses=_ERRORS,  # type: ignore[arg-type]
)
async def reply_feedback(
    message_id: str,
    body: ReplyFeedbackIn,
    caller: Caller,
    runtime: AssistantDep,
    limiter: LimiterDep,
    settings: SettingsDep,
) -> Response:
    await feedback_limit(limiter, f"user:{caller.user_id}", settings.ask.feedback_per_minute)
    user_id = caller.user_id
    stored = await anyio.to_thread.run_sync(
        lambda: rate_reply(runtime.db, user_id, message_id[:64], body.rating, body.comment)
    )
    if not stored:
        raise NotFound("Message not found", code=ErrorCode.MESSAGE_NOT_FOUND)
    return Response(status_code=204, headers={"Cache-Control": "no-store"})
