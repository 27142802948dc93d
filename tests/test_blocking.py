"""The blocking pool: abandoned calls keep their thread, so they can never push the number
of running calls past the pool's size; queued calls of a gone caller never start."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import anyio
import pytest

from askdocs.blocking import BlockingPool
from askdocs.settings import load_settings

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
        for running in (1, 2):  # each gives up once its call runs: it keeps its thread
            await _abandon_once_running(pool, gate, running)
        for _ in range(4):  # both threads taken: these give up while queued
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


async def _abandon_once_running(pool: BlockingPool, gate: Gate, running: int) -> None:
    """Call ``gate.call`` through the pool and give up as soon as ``running`` calls started
    (an order, not a delay: on a loaded machine a thread may take long to pick a call up)."""
    async with anyio.create_task_group() as group:
        group.start_soon(pool.run, gate.call)
        with anyio.fail_after(30):
            while gate.started < running:
                await anyio.sleep(0.01)
        group.cancel_scope.cancel()


async def test_results_and_errors_come_back() -> None:
    pool = BlockingPool(1)
    try:
        assert await pool.run(lambda: 41 + 1) == 42
        with pytest.raises(ZeroDivisionError):
            await pool.run(lambda: 1 // 0)
    finally:
        pool.close()


def test_the_pool_is_sized_to_the_cores_the_process_may_use() -> None:
    """Unset ``server.search_concurrency``: one thread per core of the process's CPU
    affinity (a process pinned to one core gets one thread); a set value wins."""
    script = (
        "import os; from askdocs.blocking import pool_size; "
        "print(pool_size(None)); os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]}); "
        "print(pool_size(None), pool_size(3))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    first, pinned = out.stdout.splitlines()
    assert int(first) == len(os.sched_getaffinity(0))
    assert pinned == "1 3"


def test_the_app_pool_follows_the_setting(tmp_path: Path) -> None:
    from askdocs.core import Core

    core = Core(load_settings(data_dir=tmp_path), sites=[])
    assert core.pool.size == len(os.sched_getaffinity(0))
    two = Core(load_settings(data_dir=tmp_path, server={"search_concurrency": 2}), sites=[])
    assert two.pool.size == 2
    for each in (core, two):
        each.pool.close()
        each.engine.close()
