"""This process's turn tasks. Turns run as tasks owned by the runtime, not by the request
that started them; the registry every replica sees is the database's
(``askdocs.assistant.turnlog``), and admission is decided there, in one transaction."""

from __future__ import annotations

import asyncio
from collections import defaultdict


class TurnRegistry:
    def __init__(self) -> None:
        self._running: dict[str, set[asyncio.Task[None]]] = defaultdict(set)
        self._ids: dict[asyncio.Task[None], str] = {}

    def add(self, thread_id: str, task: asyncio.Task[None], turn_id: str) -> None:
        self._running[thread_id].add(task)
        self._ids[task] = turn_id
        task.add_done_callback(lambda done: self._discard(thread_id, done))

    def _discard(self, thread_id: str, task: asyncio.Task[None]) -> None:
        tasks = self._running.get(thread_id)
        if tasks is None:
            return
        tasks.discard(task)
        self._ids.pop(task, None)
        if not tasks:
            del self._running[thread_id]

    def is_running(self, thread_id: str) -> bool:
        """Whether a turn on ``thread_id`` runs in this process."""
        return bool(self._running.get(thread_id))

    def turn_ids(self) -> list[str]:
        """The registry ids of the turns running in this process."""
        return list(self._ids.values())

    def tasks(self) -> list[asyncio.Task[None]]:
        return [task for tasks in self._running.values() for task in tasks]

    async def wait_idle(self, thread_id: str) -> None:
        """Wait until no turn of this process runs on ``thread_id`` (tests, shutdown)."""
        tasks = list(self._running.get(thread_id, ()))
        if tasks:
            await asyncio.wait(tasks)
