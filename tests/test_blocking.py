"""The blocking pool: abandoned calls keep their thread, so they can never push the number
of running calls past the pool's size; queued calls of a gone caller never start."""

from __future__ import annotations

import threading

import anyio
import pytest

from askdocs.blocking import BlockingPool

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Gate:
    def __init__(self) -> None:
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.started = 0

    def call(self) -> str:
        with self.lock:
            self.running += 1
            self.started += 1
            self.most = max(self.most, self.running)
        self.release.wait(10)
        with self.lock:
            self.running -= 1
        return "done"


async def test_abandoned_calls_cannot_exceed_the_pool() -> None:
    pool, gate = BlockingPool(2), Gate()
    try:
        for _ in range(6):  # every caller gives up; the two running calls keep their threads
            with anyio.move_on_after(0.05):
                await pool.run(gate.call)
        assert gate.started == 2
        assert gate.most == 2
        gate.release.set()
        assert await pool.run(lambda: "after") == "after"
        assert gate.started == 2  # the abandoned queued calls never ran
        assert gate.most <= 2
    finally:
        gate.release.set()
        pool.close()


async def test_results_and_errors_come_back() -> None:
    pool = BlockingPool(1)
    try:
        assert await pool.run(lambda: 41 + 1) == 42
        with pytest.raises(ZeroDivisionError):
            await pool.run(lambda: 1 // 0)
    finally:
        pool.close()
