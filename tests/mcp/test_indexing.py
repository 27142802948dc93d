"""The background index: searches wait a bounded time, then say how far indexing got."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import anyio
import pytest

from askdocs.errors import IndexBuilding, ServiceUnavailable, VectorStoreError
from askdocs.mcp.indexing import BackgroundIndex


class GatedRun:
    """An index run that reports 3 of 10 and then waits until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.reported = threading.Event()

    def __call__(self, progress: Callable[[int, int], None]) -> object:
        progress(3, 10)
        self.reported.set()
        self.gate.wait(30)
        progress(10, 10)
        return None


@pytest.fixture
def gated() -> Iterator[GatedRun]:
    run = GatedRun()
    yield run
    run.gate.set()


async def _no_progress(done: float, total: float | None, message: str) -> None:
    return None


def test_ready_at_once_when_a_complete_collection_exists(gated: GatedRun) -> None:
    index = BackgroundIndex("docs", gated, already_ready=lambda: True)
    index.start()
    anyio.run(index.wait_ready, 10.0, _no_progress)
    assert index.ready
    assert not index.state.finished


def test_cold_index_fails_after_the_bound_with_progress(gated: GatedRun) -> None:
    index = BackgroundIndex("docs", gated, already_ready=lambda: False)
    index.start()
    assert gated.reported.wait(10)
    seen: list[tuple[float, float | None]] = []

    async def progress(done: float, total: float | None, message: str) -> None:
        seen.append((done, total))

    with pytest.raises(IndexBuilding, match=r"3/10 sections embedded \(30%\)"):
        anyio.run(index.wait_ready, 0.3, progress)
    assert seen
    assert seen[0] == (3, 10)
    gated.gate.set()
    anyio.run(index.wait_ready, 10.0, progress)
    assert index.ready


def test_a_failed_index_is_reported_not_waited_for() -> None:
    def broken(progress: Callable[[int, int], None]) -> object:
        raise VectorStoreError("disk full")

    index = BackgroundIndex("docs", broken, already_ready=lambda: False)
    index.start()
    with pytest.raises(ServiceUnavailable, match="indexing docs failed: disk full") as caught:
        anyio.run(index.wait_ready, 10.0, _no_progress)
    assert caught.value.code == "index_failed"


def test_stop_ends_the_run_at_the_next_progress_report() -> None:
    started = threading.Event()

    def endless(progress: Callable[[int, int], None]) -> object:
        done = 0
        while True:
            progress(done, 1_000_000)
            started.set()
            done += 1

    index = BackgroundIndex("docs", endless, already_ready=lambda: False)
    index.start()
    assert started.wait(10)
    index.stop(10)
    assert index.state.finished
    assert index.state.error is None
    assert not index.ready
