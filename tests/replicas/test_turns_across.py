"""In-flight turns are registered in the database: a turn running on replica A is seen and
followed from B, and when A dies (no heartbeat, no ending) its turn reads as interrupted
within ``assistant.turn_lost_seconds``, a follower gets an ending that says so, and asking
again on B answers the same message (never stored twice)."""

from __future__ import annotations

import threading
import time
from typing import Any

import anyio
import pytest
from sqlalchemy import select

from askdocs.assistant.chat import start_turn
from askdocs.assistant.follow import INTERRUPTED, follow
from askdocs.db.models import MessageRow
from askdocs.db.replica_models import TurnRow
from tests.assistant.frames import parse_frames, text_of, types
from tests.assistant.scripted import Script
from tests.replicas.conftest import LOST_SECONDS, Replicas
from tests.replicas.test_propagation import until
from tests.support.timing import bounded

FIRST, REST = "The first piece ", "and the rest of it."


async def held_turn(replicas: Replicas, hold: threading.Event) -> tuple[str, str, Any]:
    """A turn on A whose model sent its first piece and waits for ``hold``."""
    user, header = replicas.a.user("a@x.io")
    thread = replicas.a.runtime.threads.create(user.id, None, "t")
    replicas.models.script(Script([FIRST, REST], hold=hold))
    turn = await start_turn(replicas.a.runtime, user.id, thread, "a question")
    assert await anyio.to_thread.run_sync(replicas.models.pieces_sent.wait, 30.0)
    return thread, header["Authorization"], turn


async def detail(replicas: Replicas, thread: str, auth: str) -> dict[str, Any]:
    found = await replicas.b.client.get(
        f"/api/v1/assistant/threads/{thread}", headers={"Authorization": auth}
    )
    assert found.status_code == 200, found.text
    body: dict[str, Any] = found.json()
    return body


def rows(replicas: Replicas, thread: str) -> list[tuple[int, str]]:
    query = select(MessageRow).where(MessageRow.thread_id == thread).order_by(MessageRow.sequence)
    with replicas.b.runtime.db.session() as session:
        return [(r.sequence, r.role) for r in session.scalars(query)]


@pytest.mark.anyio
async def test_a_turn_running_on_one_replica_is_followed_from_the_other(
    replicas: Replicas,
) -> None:
    hold = threading.Event()
    try:
        thread, auth, turn = await held_turn(replicas, hold)
        seen = await detail(replicas, thread, auth)
        assert (seen["replyInProgress"], seen["awaitingReply"]) == (True, False)
        body = b""
        async for data in follow(replicas.b.runtime.turn_log, turn.message_id):
            body += data
            if FIRST.encode() in body:
                hold.set()  # the model goes on once B has replayed the start
    finally:
        hold.set()
    frames = parse_frames(body.decode())
    assert types(frames)[0] == "start"
    assert frames[0]["messageId"] == turn.message_id
    assert types(frames)[-2:] == ["finish", "[DONE]"]
    assert text_of(frames) == FIRST + REST
    after = await detail(replicas, thread, auth)
    assert after["messages"][-1]["id"] == turn.message_id  # the reply B followed, stored
    assert after["messages"][-1]["content"] == FIRST + REST
    assert after["replyInProgress"] is False
    resumed = await replicas.b.client.get(
        f"/api/v1/assistant/chat/{thread}/stream", headers={"Authorization": auth}
    )
    assert resumed.status_code == 204  # nothing runs any more


@pytest.mark.anyio
async def test_a_dead_replicas_turn_is_interrupted_and_asked_again_elsewhere(
    replicas: Replicas,
) -> None:
    hold = threading.Event()
    try:
        thread, auth, turn = await held_turn(replicas, hold)
        body = b""
        async with anyio.create_task_group() as group:

            async def read() -> None:
                nonlocal body
                async for data in follow(replicas.b.runtime.turn_log, turn.message_id):
                    body += data

            group.start_soon(read)
            await until(lambda: b"text-delta" in body, 30)
            await replicas.kill(replicas.a)  # kill -9: the turn's task and heartbeat stop
            died = time.monotonic()
        followed_for = time.monotonic() - died
        waited = await until_interrupted(replicas, thread, auth)
    finally:
        hold.set()
    frames = parse_frames(body.decode())
    assert frames[-3]["type"] == "error"
    assert frames[-3]["errorText"] == INTERRUPTED
    assert types(frames)[-2:] == ["finish", "[DONE]"]
    assert followed_for < bounded(LOST_SECONDS)
    assert waited < bounded(LOST_SECONDS)
    await until(lambda: _state(replicas, turn.message_id) == "interrupted", 30)  # B's sweep
    again = await replicas.b.client.post(
        "/api/v1/assistant/chat",
        json={"threadId": thread, "message": "a question"},
        headers={"Authorization": auth},
    )
    assert again.status_code == 200, again.text
    assert rows(replicas, thread) == [(1, "user"), (2, "assistant")]  # the question, once
    settled = await detail(replicas, thread, auth)
    assert (settled["awaitingReply"], settled["replyInterrupted"]) == (False, False)


async def until_interrupted(replicas: Replicas, thread: str, auth: str) -> float:
    started = time.monotonic()
    while True:
        seen = await detail(replicas, thread, auth)
        if seen["replyInterrupted"]:
            assert seen["awaitingReply"] is True
            assert seen["replyInProgress"] is False
            return time.monotonic() - started
        assert time.monotonic() - started < 60
        await anyio.sleep(0.05)


def _state(replicas: Replicas, turn_id: str) -> str | None:
    with replicas.b.runtime.db.session() as session:
        row = session.get(TurnRow, turn_id)
        return row.state if row else None
