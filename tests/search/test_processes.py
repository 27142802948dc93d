"""Retrieval in search worker processes (``server.search_processes``, issue #20): the same
results as in process, errors that arrive as the same errors, a dead worker that costs no
search, and the server's route answering through them. Real worker processes, the real
model and the real Qdrant Edge shard."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from askdocs.errors import IndexBuilding
from askdocs.search.processes import SearchProcesses
from askdocs.service import AskDocs
from askdocs.sites import folder_site
from tests.search.conftest import SITE, fixture_settings

QUESTIONS = ("How do I configure the server port?", "install", "What is a webhook retry policy?")


@pytest.fixture(scope="module")
def processes() -> Iterator[SearchProcesses]:
    pool = SearchProcesses(1)
    yield pool
    pool.close()


@pytest.fixture
def routed(indexed: AskDocs, processes: SearchProcesses) -> Iterator[AskDocs]:
    """A second engine over the indexed fixture data dir whose retrievals go to the pool."""
    service = AskDocs(fixture_settings(indexed.settings.data_dir), indexed.sites)
    service.search_processes = processes
    yield service
    service.search_processes = None
    service.close()


def test_a_worker_finds_what_the_server_process_finds(
    indexed: AskDocs, routed: AskDocs, processes: SearchProcesses
) -> None:
    for question in QUESTIONS:
        here = indexed.search(question, site=SITE)
        there = routed.search(question, site=SITE)
        assert [h.url for h in there.hits] == [h.url for h in here.hits]
        assert [h.score for h in there.hits] == pytest.approx([h.score for h in here.hits])
        assert (there.match, there.mode, there.collection) == (
            here.match,
            here.mode,
            here.collection,
        )
        assert all(h.freshness is not None for h in there.hits)  # added by the server process
    assert processes.workers_started >= 1
    assert processes.idle_worker_pids()  # the worker is alive and waiting
    assert not routed._embedder_ready  # the server process never created an embedder


def test_errors_come_back_as_the_same_errors(tmp_path: Path, processes: SearchProcesses) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nText.\n")
    service = AskDocs(fixture_settings(tmp_path / "data"), [folder_site(docs, "unbuilt")])
    service.search_processes = processes
    try:
        with pytest.raises(IndexBuilding) as raised:
            service.search("anything", site="unbuilt")  # never indexed
        assert raised.value.code == IndexBuilding.code
        assert raised.value.status == 503
        assert "still being built" in str(raised.value)
    finally:
        service.close()


def test_a_dead_worker_costs_no_search(routed: AskDocs, processes: SearchProcesses) -> None:
    routed.search(QUESTIONS[0], site=SITE)
    for pid in processes.idle_worker_pids():
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    started = processes.workers_started
    result = routed.search(QUESTIONS[1], site=SITE)  # the dead worker fails; answered here
    assert result.hits
    again = routed.search(QUESTIONS[1], site=SITE)  # a fresh worker answers
    assert [h.url for h in again.hits] == [h.url for h in result.hits]
    assert processes.workers_started == started + 1


def test_warm_up_starts_every_worker_and_loads_no_model_here(indexed: AskDocs) -> None:
    pool = SearchProcesses(2)
    service = AskDocs(fixture_settings(indexed.settings.data_dir), indexed.sites)
    service.search_processes = pool
    try:
        service.warm_up()
        assert pool.workers_started == 2
        assert len(pool.idle_worker_pids()) == 2
        assert not service._embedder_ready
    finally:
        service.close()
        pool.close()


def test_keyword_only_searches_stay_in_process(
    routed: AskDocs, processes: SearchProcesses, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[object] = []
    monkeypatch.setattr(processes, "search", lambda *job: sent.append(job))
    result = routed.search(QUESTIONS[0], site=SITE, keyword_only=True)
    assert result.mode == "keyword"
    assert result.hits
    assert sent == []
    routed.search(QUESTIONS[0], site=SITE)
    assert len(sent) == 1  # a hybrid search is sent (and, answered None, runs here)


def test_a_changed_secret_opens_a_new_engine_in_the_worker(tmp_path: Path) -> None:
    """The worker keys its store and embedder on the settings, secrets included (their
    JSON form masks them, so a new API key would have kept the old embedder)."""
    from askdocs.search import job as worker_job
    from askdocs.search.retrieval import SearchRequest

    def job_with(key: str) -> worker_job.SearchJob:
        settings = fixture_settings(
            tmp_path / "data", embedding={"provider": "none", "api_key": key}
        )
        return worker_job.SearchJob.of(settings, SearchRequest(query="q", site="s"))

    first = worker_job._engine(job_with("key-one"))
    assert worker_job._engine(job_with("key-one")) is first
    second = worker_job._engine(job_with("key-two"))
    assert second is not first
    second.store.close()


def test_a_provider_switch_closes_the_old_embedder_in_the_worker(tmp_path: Path) -> None:
    """When a job's settings change, the worker closes the old engine's embedder (its
    HTTP connections here), not only its store."""
    from askdocs.search import job as worker_job
    from askdocs.search.retrieval import SearchRequest

    def job_with(model: str) -> worker_job.SearchJob:
        embedding = {
            "provider": "openai-compatible",
            "model": model,
            "base_url": "http://127.0.0.1:9",
        }
        settings = fixture_settings(tmp_path / "data", embedding=embedding)
        return worker_job.SearchJob.of(settings, SearchRequest(query="q", site="s"))

    first = worker_job._engine(job_with("old-embed"))
    assert first.embedder is not None
    client = first.embedder.inner._client._client  # type: ignore[attr-defined]
    assert not client.is_closed
    second = worker_job._engine(job_with("new-embed"))
    assert client.is_closed
    second.store.close()
