"""The assistant over HTTP: caller-scoped threads and the streaming chat transport.

Every route needs ``Authorization: Bearer <jwt>`` or a signed-in session cookie (with the
CSRF token on changes, see ``askdocs.users.web``); the caller is re-read from the database
per request. Another user's thread answers exactly like a missing one (404).

``GET /chat/{thread_id}/stream`` resumes the stream of the thread's live turn, whichever
replica runs it (``askdocs.assistant.follow``), at the path the AI SDK's chat transport asks
(``{api}/{chatId}/stream``); 204 when no turn is running.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
from fastapi import APIRouter, Response
from fastapi.responses import StreamingResponse

from askdocs.admin.proposal_wire import ProposalOut
from askdocs.assistant import stream
from askdocs.assistant.chat import start_turn
from askdocs.assistant.follow import follow
from askdocs.assistant.runtime import AssistantRuntime
from askdocs.assistant.store import thread_not_found
from askdocs.assistant.turn import Turn
from askdocs.assistant.turnlog import reply_state
from askdocs.assistant.types import ReplyState, ThreadSummary
from askdocs.assistant.wire import (
    ChatIn,
    CreatedOut,
    ThreadCreateIn,
    ThreadDetailOut,
    ThreadListOut,
    ThreadOut,
    ThreadPatchIn,
)
from askdocs.db.models import utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput
from askdocs.server.deps import AdminDep, AssistantDep
from askdocs.server.signin import Caller

router = APIRouter(prefix="/api/v1/assistant", tags=["assistant"])
Runtime = AssistantDep


def _title(value: str | None) -> str | None:
    if value is None:
        return None
    title = " ".join(value.split())
    if not title:
        raise InvalidInput("Title must not be empty", code=ErrorCode.EMPTY_TITLE)
    return title


@router.get("/threads")
async def list_threads(runtime: Runtime, caller: Caller, archived: bool = False) -> ThreadListOut:
    """The caller's threads; ``?archived=true`` lists the archived ones instead."""
    threads = runtime.threads
    summaries = await anyio.to_thread.run_sync(
        lambda: threads.for_user(caller.user_id, archived=archived)
    )
    return ThreadListOut(threads=[ThreadOut.of(s, state=_state(runtime, s)) for s in summaries])


def _state(runtime: AssistantRuntime, summary: ThreadSummary) -> ReplyState:
    return reply_state(summary, utcnow(), runtime.settings.assistant.turn_lost_seconds)


@router.post("/threads", status_code=201)
async def create_thread(runtime: Runtime, caller: Caller, body: ThreadCreateIn) -> CreatedOut:
    site = await anyio.to_thread.run_sync(runtime.visible_site, caller.user_id, body.site_id)
    title = _title(body.title) or ""
    thread_id = await anyio.to_thread.run_sync(runtime.threads.create, caller.user_id, site, title)
    return CreatedOut(id=thread_id)


@router.get("/threads/{thread_id}", response_model_exclude_none=True)
async def get_thread(
    runtime: Runtime, admin: AdminDep, caller: Caller, thread_id: str
) -> ThreadDetailOut:
    """The thread, its messages, and its stored proposals (pending ones with their token)."""
    detail = await anyio.to_thread.run_sync(runtime.threads.get, caller.user_id, thread_id)
    if detail is None:
        raise thread_not_found()
    stored = await anyio.to_thread.run_sync(admin.proposals.of_thread, caller.user_id, thread_id)
    proposals = [ProposalOut.of(found) for found in stored]
    state = _state(runtime, detail.summary)
    return ThreadDetailOut.of_detail(detail, state=state, proposals=proposals)


@router.patch("/threads/{thread_id}")
async def patch_thread(
    runtime: Runtime, caller: Caller, thread_id: str, body: ThreadPatchIn
) -> ThreadOut:
    title, threads = _title(body.title), runtime.threads
    changed = await anyio.to_thread.run_sync(
        lambda: threads.update(caller.user_id, thread_id, title=title, archived=body.archived)
    )
    summary = await anyio.to_thread.run_sync(threads.summary, caller.user_id, thread_id)
    if not changed or summary is None:
        raise thread_not_found()
    return ThreadOut.of(summary, state=_state(runtime, summary))


@router.get(
    "/chat/{thread_id}/stream",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "The live turn's stream, from its start",
            "content": {stream.MEDIA_TYPE: {}},
        },
        204: {"description": "No turn is running on the thread"},
    },
)
async def resume_stream(runtime: Runtime, caller: Caller, thread_id: str) -> Response:
    """Replay and follow the stream of the thread's running turn, on whichever replica it
    runs; 204 when none runs (read the thread instead)."""
    summary = await anyio.to_thread.run_sync(runtime.threads.summary, caller.user_id, thread_id)
    if summary is None:
        raise thread_not_found()
    turn_id = await anyio.to_thread.run_sync(runtime.turn_log.live, thread_id)
    if turn_id is None:
        return Response(status_code=204)
    frames = follow(runtime.turn_log, turn_id)
    return StreamingResponse(frames, media_type=stream.MEDIA_TYPE, headers=dict(stream.HEADERS))


@router.delete("/threads/{thread_id}", status_code=204)
async def delete_thread(runtime: Runtime, caller: Caller, thread_id: str) -> Response:
    deleted = await anyio.to_thread.run_sync(runtime.threads.delete, caller.user_id, thread_id)
    if not deleted:
        raise thread_not_found()
    return Response(status_code=204)


@router.post(
    "/chat",
    response_class=StreamingResponse,
    responses={200: {"description": "The turn, streamed", "content": {stream.MEDIA_TYPE: {}}}},
)
async def chat(runtime: Runtime, caller: Caller, body: ChatIn) -> StreamingResponse:
    page = body.page_context.value() if body.page_context else None
    turn = await start_turn(
        runtime, caller.user_id, body.thread_id, body.message, site_id=body.site_id, page=page
    )
    return StreamingResponse(
        _frames(turn), media_type=stream.MEDIA_TYPE, headers=dict(stream.HEADERS)
    )


async def _frames(turn: Turn) -> AsyncIterator[bytes]:
    try:
        async for chunk in turn.frames():
            yield chunk
    finally:
        turn.detach()
