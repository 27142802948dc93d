"""Turns on their own task: interactive priority, detaching, the detached bound, and a
double-send while a turn runs."""

from __future__ import annotations

import anyio
import pytest
from sqlalchemy import select

from askdocs.assistant.chat import start_turn
from askdocs.db.models import MessageRow
from tests.assistant.conftest import Harness
from tests.assistant.scripted import Script
from tests.support.timing import bounded


def _rows(harness: Harness, thread: str) -> list[tuple[int, str, str]]:
    query = select(MessageRow).where(MessageRow.thread_id == thread).order_by(MessageRow.sequence)
    with harness.runtime.db.session() as session:
        return [(r.sequence, r.role, r.content) for r in session.scalars(query)]


async def _pieces_started(harness: Harness) -> None:
    assert await anyio.to_thread.run_sync(harness.models.pieces_sent.wait, 10.0)


@pytest.mark.anyio
async def test_a_detached_turn_finishes_and_holds_interactive_priority(harness: Harness) -> None:
    user, _ = harness.user("a@x.io")
    thread = harness.runtime.threads.create(user.id, None, "t")
    pieces = [f"p{n} " for n in range(8)]
    harness.models.script(Script(pieces, delay=0.05))
    turn = await start_turn(harness.runtime, user.id, thread, "question")
    assert _rows(harness, thread) == [(1, "user", "question")]  # persisted before any frame
    await _pieces_started(harness)
    assert harness.runtime.monitor.active == 1
    assert harness.runtime.turns.is_running(thread)
    turn.detach()  # the browser went away
    await harness.wait_idle(thread)
    assert _rows(harness, thread) == [(1, "user", "question"), (2, "assistant", "".join(pieces))]
    assert harness.runtime.monitor.active == 0
    assert not harness.runtime.turns.is_running(thread)


@pytest.mark.anyio
async def test_a_detached_turn_is_abandoned_after_its_bound(harness: Harness) -> None:
    limits = harness.settings.assistant.model_copy(update={"detached_turn_seconds": 0.3})
    harness.runtime.settings = harness.settings.model_copy(update={"assistant": limits})
    user, _ = harness.user("a@x.io")
    thread = harness.runtime.threads.create(user.id, None, "t")
    harness.models.script(Script([f"p{n} " for n in range(40)], delay=0.5))  # 20 s in all
    turn = await start_turn(harness.runtime, user.id, thread, "slow one")
    await _pieces_started(harness)
    started = anyio.current_time()
    turn.detach()
    await harness.wait_idle(thread)
    assert anyio.current_time() - started < bounded(0.3)  # abandoned, not run to the end
    assert _rows(harness, thread) == [(1, "user", "slow one")]
    assert harness.runtime.monitor.active == 0
    summary = harness.runtime.threads.summary(user.id, thread)
    assert summary is not None
    assert summary.last_role == "user"  # awaitingReply: the user may ask again


@pytest.mark.anyio
async def test_a_double_send_while_running_appends_and_both_are_answered(
    harness: Harness,
) -> None:
    user, _ = harness.user("a@x.io")
    thread = harness.runtime.threads.create(user.id, None, "t")
    harness.models.script(Script(["first answer"], delay=0.2), Script(["second answer"]))
    first = await start_turn(harness.runtime, user.id, thread, "same words")
    second = await start_turn(harness.runtime, user.id, thread, "same words")
    assert first.request.message.sequence == 1
    assert second.request.message.sequence == 3
    await harness.wait_idle(thread)
    rows = _rows(harness, thread)
    assert [(s, r) for s, r, _ in rows] == [
        (1, "user"),
        (2, "assistant"),
        (3, "user"),
        (4, "assistant"),
    ]
