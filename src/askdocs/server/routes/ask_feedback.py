"""Ask AI's records and feedback: every answer gets an id (``X-Ask-Id``), and
``POST /api/ask/feedback`` lets the visitor who asked rate it.

The checks, in order: the host is a docs site (404 ``site_not_found``); the visitor's
feedback limit, ``ask.feedback_per_minute`` (429 ``feedback_limit``); the body (415, 413,
400 ``invalid_feedback``); the answer is this visitor's, on this site (404
``answer_not_found``: another visitor's id looks exactly like a missing one); recording is on
and the database reachable (503 ``feedback_unavailable``).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import AsyncIterator
from typing import Literal

import anyio
from fastapi import APIRouter, Request, Response
from pydantic import Field, ValidationError

from askdocs.answer.flow import Answer, Question
from askdocs.answer.records import AskRecords, NewRecord
from askdocs.answer.search_text import user_questions
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput, NotFound, RateLimited, ServiceUnavailable
from askdocs.guard.limits import burst_counter
from askdocs.guard.validation import CleanText, PayloadTooLarge, require_json
from askdocs.server.deps import HostSiteDep, LimiterDep, RecordsDep, SettingsDep, VisitorDep
from askdocs.server.schemas import ErrorBody
from askdocs.wire import Wire

log = logging.getLogger(__name__)
router = APIRouter()
MAX_FEEDBACK_BYTES = 4096
_ERRORS = {code: {"model": ErrorBody} for code in (400, 404, 413, 415, 429, 503)}


class FeedbackIn(Wire):
    answer_id: CleanText = Field(min_length=1, max_length=36)
    rating: Literal["up", "down"]
    comment: CleanText | None = Field(default=None, max_length=500)


_BODY = {
    "required": True,
    "content": {"application/json": {"schema": FeedbackIn.model_json_schema()}},
}


@router.post(
    "/api/ask/feedback",
    status_code=204,
    responses=_ERRORS,  # type: ignore[arg-type]
    openapi_extra={"requestBody": _BODY},
)
async def feedback(
    request: Request,
    site: HostSiteDep,
    visitor: VisitorDep,
    settings: SettingsDep,
    limiter: LimiterDep,
    records: RecordsDep,
) -> Response:
    """Rate an answer (thumbs up or down, with an optional comment of up to 500 characters)."""
    await feedback_limit(limiter, visitor, settings.ask.feedback_per_minute)
    require_json(request.headers.get("content-type"))
    raw = await request.body()
    if len(raw) > MAX_FEEDBACK_BYTES:
        raise _too_large()
    body = _parse(raw)
    if records is None:
        raise ServiceUnavailable(
            "feedback cannot be stored right now", code=ErrorCode.FEEDBACK_UNAVAILABLE
        )
    stored = await anyio.to_thread.run_sync(
        lambda: records.rate(body.answer_id, site.id, visitor, body.rating, body.comment)
    )
    if not stored:
        raise NotFound("no such answer", code=ErrorCode.ANSWER_NOT_FOUND)
    return Response(status_code=204, headers={"Cache-Control": "no-store"})


async def feedback_limit(limiter: LimiterDep, visitor: str, per_minute: int) -> None:
    """Count one rating against the visitor's (or user's) feedback limit per minute."""
    now = int(time.time())
    counter = dataclasses.replace(
        burst_counter(f"feedback:{visitor}", per_minute, now),
        code=ErrorCode.FEEDBACK_LIMIT,
        what=f"too much feedback in a minute (limit {per_minute})",
    )
    try:
        await limiter.consume_one(counter, now)
    except RateLimited as exc:
        raise RateLimited(
            exc.message, retry_after=exc.retry_after, code=ErrorCode.FEEDBACK_LIMIT
        ) from None


def _too_large() -> PayloadTooLarge:
    return PayloadTooLarge(f"the request body is over {MAX_FEEDBACK_BYTES} bytes")


def _parse(raw: bytes) -> FeedbackIn:
    try:
        return FeedbackIn.model_validate_json(raw)
    except ValidationError as exc:
        errors = exc.errors()
        where = ".".join(str(p) for p in errors[0]["loc"]) if errors else ""
        message = f"{where or 'body'}: {errors[0]['msg'] if errors else 'invalid feedback'}"
        raise InvalidInput(message, code=ErrorCode.INVALID_FEEDBACK) from None


async def record(
    records: AskRecords | None, question: Question, visitor: str, reply: Answer
) -> str | None:
    """Store what was asked and how it was answered; the record's id, or None (off, or the
    database failed: logged, and the answer goes out anyway)."""
    if records is None:
        return None
    asked = user_questions(question.messages)
    entry = NewRecord(
        site_id=question.site.id,
        visitor=visitor,
        question=asked[-1] if asked else "",
        locale=question.locale,
        kind=reply.kind,
        matched=reply.kind != "no_match",
        sources=reply.sources,
    )
    try:
        return await anyio.to_thread.run_sync(records.add, entry)
    except Exception as exc:
        log.warning("ask record not stored: %s", type(exc).__name__)
        return None


async def flagged_at_end(
    body: AsyncIterator[str], reply: Answer, records: AskRecords | None, record_id: str | None
) -> AsyncIterator[str]:
    """``body``, then mark the record when the citation check removed markers."""
    async for piece in body:
        yield piece
    check = reply.citations
    if records is None or record_id is None or check is None or not check.flagged:
        return
    try:
        await anyio.to_thread.run_sync(records.flag, record_id)
    except Exception as exc:
        log.warning("ask record not flagged: %s", type(exc).__name__)
