"""The process-wide registry of in-flight turns (seed 002 "AssistantTurnRegistry").

Marks a thread while a turn on it runs, so summaries can say ``replyInProgress`` and an
"ask again" is not mistaken for a dead question. A per-thread lock serialises the moment a
turn is admitted (append the user's turn, then register), so two requests cannot both reuse
the same unanswered message.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict


class TurnRegistry:
    def __init__(self) -> None:
        self._running: dict[str, set[asyncio.Task[None]]] = defaultdict(set)
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    def admission(self, thread_id: str) -> asyncio.Lock:
        return self._locks[thread_id]

    def add(self, thread_id: str, task: asyncio.Task[None]) -> None:
        self._running[thread_id].add(task)
        task.add_done_callback(lambda done: self._discard(thread_id, done))

    def _discard(self, thread_id: str, task: asyncio.Task[None]) -> None:
        tasks = self._running.get(thread_id)
        if tasks is None:
            return
        tasks.discard(task)
        if not tasks:
            del self._running[thread_id]
            lock = self._locks.get(thread_id)
            if lock is not None and not lock.locked():
                del self._locks[thread_id]

    def is_running(self, thread_id: str) -> bool:
        return bool(self._running.get(thread_id))

    def tasks(self) -> list[asyncio.Task[None]]:
        return [task for tasks in self._running.values() for task in tasks]

    async def wait_idle(self, thread_id: str) -> None:
        """Wait until no turn runs on ``thread_id`` (tests, shutdown)."""
        tasks = list(self._running.get(thread_id, ()))
        if tasks:
            await asyncio.wait(tasks)
