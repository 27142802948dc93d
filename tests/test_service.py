"""The facade, the background indexing loop and the process-wide activity monitor."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, IndexBuilding, NotFound
from askdocs.indexing import ActivityMonitor, Indexer
from askdocs.service import AskDocs
from askdocs.settings import load_settings
from askdocs.sites import folder_site
from tests.search.fixtures import write_docs


@pytest.fixture
def service(tmp_path: Path) -> AskDocs:
    docs = write_docs(tmp_path / "docs")
    return AskDocs(load_settings(data_dir=tmp_path / "data"), [folder_site(docs, "site")])


def test_ensure_indexed_is_idempotent_and_status_follows(service: AskDocs) -> None:
    try:
        assert service.status("site").ready is False
        [first] = service.ensure_indexed()
        assert first.embedded == first.chunks > 0
        assert first.pages == 6
        assert first.errors == 0
        [again] = service.ensure_indexed()
        assert again.embedded == 0
        assert again.reused == first.chunks
        assert again.collection == first.collection
        status = service.status("site")
        assert status.ready
        assert not status.building
        assert status.chunks == first.chunks
        assert status.collection == first.collection
        assert status.error is None
    finally:
        service.close()


def test_a_cold_site_is_indexed_keyword_only_first(
    service: AskDocs, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[bool] = []
    modes: list[str] = []
    real_index = service.index

    def index(site_id: str | None = None, *args: object, keyword_only: bool = False) -> object:
        report = real_index(site_id, keyword_only=keyword_only)
        calls.append(keyword_only)
        modes.append(service.search("healthcheck", site="site").mode)
        return report

    monkeypatch.setattr(service, "index", index)
    try:
        service.ensure_indexed()
        assert calls == [True, False]
        assert modes == ["keyword", "hybrid"]  # searchable before any vector was embedded
        calls.clear()
        service.ensure_indexed()
        assert calls == [False]  # warm: no keyword-only pass
    finally:
        service.close()


def test_unknown_site_is_not_found(service: AskDocs) -> None:
    with pytest.raises(NotFound):
        service.search("x", site="nope")
    service.close()


def test_background_loop_indexes_and_picks_up_edits(service: AskDocs) -> None:
    loop = Indexer(service, first_run_delay=0.0, recheck=600.0, retry=120.0)
    docs = service.sites[0].roots[0].path
    try:
        with pytest.raises(IndexBuilding):
            service.search("healthcheck", site="site")
        loop.start()
        assert loop.wait_runs(1, timeout=120)
        assert loop.last_error is None
        assert service.status("site").ready
        assert loop.progress("site").view().phase == "done"
        assert loop.progress("site").ready
        (docs / "new.md").write_text("# Zebra crossings\n\nStripes for pedestrians.\n")
        loop.trigger()
        assert loop.wait_runs(2, timeout=120)
        assert service.search("zebra stripes", site="site").hits[0].path == "new.md"
    finally:
        loop.stop(timeout=30)
        service.close()


class FlakyIndexer:
    """Fails its first run, then succeeds: the loop must retry after ``retry`` seconds."""

    def __init__(self) -> None:
        self.calls = 0

    def ensure_indexed(self, progress_for: object = None) -> object:
        self.calls += 1
        if self.calls == 1:
            raise AskDocsError("docs root unreadable", code=ErrorCode.CONFIG_ERROR)
        return []


def test_background_loop_retries_sooner_after_a_failure() -> None:
    flaky = FlakyIndexer()
    loop = Indexer(flaky, first_run_delay=0.0, recheck=600.0, retry=0.05)
    loop.start()
    try:
        assert loop.wait_runs(2, timeout=10)  # the retry, long before a recheck
        assert loop.failures == 1
        assert loop.last_error is None
        assert flaky.calls == 2
    finally:
        loop.stop(timeout=5)


def test_activity_monitor_wait_is_bounded_while_a_turn_runs() -> None:
    monitor = ActivityMonitor()
    with monitor.interactive():
        assert monitor.active == 1
        started = time.monotonic()
        monitor.between_batches(0.2)()
        assert time.monotonic() - started >= 0.2  # waited, but only as long as allowed
    assert monitor.active == 0


def test_activity_monitor_releases_the_indexer_when_the_turn_ends() -> None:
    monitor = ActivityMonitor()
    entered, finish = threading.Event(), threading.Event()

    def turn() -> None:
        with monitor.interactive():
            entered.set()
            finish.wait(10)

    worker = threading.Thread(target=turn)
    worker.start()
    assert entered.wait(10)
    waiter = threading.Thread(target=monitor.between_batches(30.0))
    waiter.start()
    finish.set()
    waiter.join(10)
    worker.join(10)
    assert not waiter.is_alive()  # released by the end of the turn, not by the 30 s bound


def test_warm_up_loads_the_model_in_the_background(tmp_path: Path) -> None:
    service = AskDocs(load_settings(data_dir=tmp_path), [folder_site(tmp_path, "warm")])
    thread = service.start_warm_up()
    thread.join(120)
    assert not thread.is_alive()
    assert not service.warming_up
    embedder = service.embedder
    assert embedder is not None
    assert embedder.embed_query("warm").shape == (1, 384)
    service.close()
