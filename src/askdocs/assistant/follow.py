"""Following a turn's stream from its log: what ``GET /threads/{id}/stream`` sends.

The reader gets every frame the turn wrote, from its ``start``, then the new ones as the
turn writes them (polled every ``POLL_SECONDS``; the turn writes a batch every
``turn.FLUSH_SECONDS``). It ends with the turn: after its ``[DONE]`` when it finished, or,
when its replica stopped (the turn ended interrupted, or its heartbeat is older than
``assistant.turn_lost_seconds``), with an ``error`` part saying so, ``finish`` and
``[DONE]``, so the client always sees an ending.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import anyio

from askdocs.assistant import stream
from askdocs.assistant.turnlog import LIVE, TurnLog
from askdocs.db.models import utcnow
from askdocs.llm.types import Usage

POLL_SECONDS = 0.2
INTERRUPTED = "The answer was interrupted: the server answering it stopped. Please ask again."


async def follow(log: TurnLog, turn_id: str) -> AsyncIterator[bytes]:
    after, ended = 0, False
    while True:
        found = await anyio.to_thread.run_sync(log.follow, turn_id, after)
        if found is None:  # deleted with its thread
            return
        for seq, data in found.frames:
            after, ended = seq, data.endswith(stream.DONE)
            yield data
        stale = utcnow() - found.heartbeat_at > timedelta(seconds=log.lost_seconds)
        if found.state != LIVE or stale:
            if not ended:
                yield interrupted()
            return
        await anyio.sleep(POLL_SECONDS)


def interrupted() -> bytes:
    """The ending of a stream whose turn will never finish."""
    return stream.error(INTERRUPTED) + stream.finish("error", Usage(), {}) + stream.DONE
