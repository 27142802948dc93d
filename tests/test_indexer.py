"""The one background indexer: jobs run in order on one thread and report into one progress
model; searches wait a bounded time, then say how far indexing got; ``stop`` ends a run."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import anyio
import pytest

from askdocs.app import App
from askdocs.errors import IndexBuilding, ServiceUnavailable, VectorStoreError
from askdocs.indexing import Indexer, Outcome, SiteProgress
from askdocs.settings import load_settings


class Idle:
    """An engine whose periodic check does nothing (jobs only)."""

    def ensure_indexed(self, progress_for: object = None) -> object:
        return []


def indexer() -> Indexer:
    return Indexer(Idle(), first_run_delay=0.0, recheck=600.0, retry=120.0)


class GatedRun:
    """A job that reports 3 of 10 and then waits until the test opens the gate."""

    def __init__(self, ready_at_once: bool) -> None:
        self.gate = threading.Event()
        self.reported = threading.Event()
        self.ready_at_once = ready_at_once

    def __call__(self, progress: SiteProgress) -> object:
        if self.ready_at_once:
            progress.mark_ready()
        progress.report(3, 10)
        self.reported.set()
        self.gate.wait(30)
        progress.report(10, 10)
        progress.mark_ready()
        return "report"


@pytest.fixture
def loop() -> Iterator[Indexer]:
    made = indexer()
    yield made
    made.stop(10)


async def _no_progress(done: float, total: float | None, message: str) -> None:
    return None


def test_ready_at_once_when_a_complete_collection_exists(loop: Indexer) -> None:
    run = GatedRun(ready_at_once=True)
    progress = loop.submit("docs", run).progress
    anyio.run(progress.wait_ready, 10.0, _no_progress)
    assert progress.ready
    assert progress.building
    run.gate.set()


def test_cold_index_fails_after_the_bound_with_progress(loop: Indexer) -> None:
    run = GatedRun(ready_at_once=False)
    job = loop.submit("docs", run)
    assert run.reported.wait(10)
    seen: list[tuple[float, float | None]] = []

    async def progress(done: float, total: float | None, message: str) -> None:
        seen.append((done, total))

    with pytest.raises(IndexBuilding, match=r"3/10 sections embedded \(30%\)"):
        anyio.run(job.progress.wait_ready, 0.3, progress)
    assert seen
    assert seen[0] == (3, 10)
    run.gate.set()
    anyio.run(job.progress.wait_ready, 10.0, progress)
    assert job.finished.wait(10)
    assert job.progress.view().phase == "done"
    assert not job.progress.building


def test_a_failed_index_is_reported_not_waited_for(loop: Indexer) -> None:
    def broken(progress: SiteProgress) -> object:
        raise VectorStoreError("disk full")

    progress = loop.submit("docs", broken).progress
    with pytest.raises(ServiceUnavailable, match="indexing docs failed: disk full") as caught:
        anyio.run(progress.wait_ready, 10.0, _no_progress)
    assert caught.value.code == "index_failed"


def test_stop_ends_the_run_at_the_next_progress_report() -> None:
    started = threading.Event()

    def endless(progress: SiteProgress) -> object:
        done = 0
        while True:
            progress.report(done, 1_000_000)
            started.set()
            done += 1

    loop = indexer()
    job = loop.submit("docs", endless)
    queued = loop.submit("other", endless)
    assert started.wait(10)
    loop.stop(10)
    assert job.finished.is_set()
    assert queued.finished.is_set()
    assert [view.phase for view in loop.status()] == ["stopped", "stopped"]
    assert job.progress.error is None
    assert not job.progress.ready


class GatedCheck:
    """An engine whose first periodic check waits until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.running = threading.Event()
        self.checks = 0

    def ensure_indexed(self, progress_for: object = None) -> object:
        self.checks += 1
        self.running.set()
        self.gate.wait(30)
        return []


def test_a_trigger_during_a_check_runs_another_check_after_it() -> None:
    """An embedding switch triggers the check while one may be running: that one read the
    old settings, so the trigger must not be lost to the running check's recheck delay."""
    engine = GatedCheck()
    loop = Indexer(engine, first_run_delay=0.0, recheck=600.0, retry=600.0)
    try:
        loop.start()
        assert engine.running.wait(10)
        loop.trigger()
        engine.gate.set()
        assert loop.wait_runs(2, timeout=10)
        assert engine.checks == 2
        assert not loop.wait_runs(3, timeout=0.5)  # then the recheck delay again
    finally:
        loop.stop(10)


def test_jobs_run_one_at_a_time_in_order_and_report_their_outcome(loop: Indexer) -> None:
    order: list[str] = []
    outcomes: list[Outcome] = []
    running = threading.Semaphore(1)

    def work(name: str) -> Callable[[SiteProgress], object]:
        def run(progress: SiteProgress) -> object:
            assert running.acquire(blocking=False), "two jobs ran at once"
            order.append(name)
            running.release()
            if name == "b":
                raise RuntimeError("boom")
            return name

        return run

    jobs = [loop.submit(name, work(name), outcomes.append) for name in ("a", "b", "c")]
    assert all(job.finished.wait(10) for job in jobs)
    assert order == ["a", "b", "c"]
    assert [(o.site, o.phase, o.result, o.error) for o in outcomes] == [
        ("a", "done", "a", None),
        ("b", "failed", None, "indexing failed (RuntimeError)"),
        ("c", "done", "c", None),
    ]


def test_the_app_owns_one_indexer_for_every_surface(tmp_path: Path) -> None:
    app = App(load_settings(data_dir=tmp_path))
    try:
        assert app.core.indexer is app.indexer
        assert app.stored().admin.indexer is app.indexer  # the admin re-index runs there too
    finally:
        anyio.run(app.aclose)
