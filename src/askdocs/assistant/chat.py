"""Admitting a chat turn: every check and the user's turn persisted before any frame.

``start_turn`` refuses with 404 (not the caller's thread) or 400 (empty or oversized
message) before anything is written; otherwise, in one transaction, it appends the user's
turn (or reuses an identical trailing unanswered one that no live turn on any replica
answers) and registers the turn (``askdocs.assistant.turnlog``); then it names an untitled
thread and starts the turn task.
"""

from __future__ import annotations

import asyncio
import uuid

import anyio

from askdocs.assistant.limits import message_problem
from askdocs.assistant.runtime import AssistantRuntime
from askdocs.assistant.store import thread_not_found
from askdocs.assistant.titles import provisional_title
from askdocs.assistant.turn import Turn, TurnRequest
from askdocs.assistant.turnlog import TurnStart
from askdocs.assistant.types import PageContext
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput


async def start_turn(
    runtime: AssistantRuntime,
    user_id: str,
    thread_id: str,
    message: str,
    *,
    site_id: str | None = None,
    page: PageContext | None = None,
) -> Turn:
    threads = runtime.threads
    summary = await anyio.to_thread.run_sync(threads.summary, user_id, thread_id)
    if summary is None:
        raise thread_not_found()
    problem = message_problem(message, runtime.settings.assistant.max_message_chars)
    if problem is not None:
        code = ErrorCode.EMPTY_MESSAGE if not message.strip() else ErrorCode.MESSAGE_TOO_LONG
        raise InvalidInput(problem, code=code)
    site = await anyio.to_thread.run_sync(runtime.visible_site, user_id, site_id)
    if site is None:  # the thread's own site, re-checked: membership may have ended
        site = await anyio.to_thread.run_sync(runtime.visible_site, user_id, summary.site_id)
    retitle = None
    if not summary.title:
        title = provisional_title(message)
        named = await anyio.to_thread.run_sync(
            lambda: threads.set_title_if(thread_id, title, current="")
        )
        retitle = title if named else None
    start = TurnStart(str(uuid.uuid4()), runtime.replica)
    lost = runtime.settings.assistant.turn_lost_seconds
    record = await anyio.to_thread.run_sync(
        lambda: threads.admit(user_id, thread_id, message, start, lost)
    )
    request = TurnRequest(user_id, thread_id, record, site, page, retitle)
    turn = Turn(runtime, request, message_id=start.id)
    runtime.turns.add(thread_id, asyncio.create_task(turn.run()), start.id)
    runtime.start_pulse()
    return turn
