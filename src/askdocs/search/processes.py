"""Retrieval in worker processes (``server.search_processes``).

One server process runs one search's Python at a time: the query embedding and the engine
query release the interpreter lock for only part of their time, so on fastapi-docs a
single process serves about 57 searches/s at 8 clients and leaves a third of two cores
idle (``bench/throughput.py``). ``SearchProcesses`` sends the retrieval step to
``workers`` processes (``python -m askdocs.search.worker``), each with the index opened
read-only and its own query session; the server keeps the site checks and the freshness of
the hits. A worker that fails or hangs is replaced, and the search runs in the server
process meanwhile: nothing is lost, a search only runs slower.
"""

from __future__ import annotations

import logging
import threading

from askdocs.errors import AskDocsError
from askdocs.search.job import SearchJob
from askdocs.search.retrieval import SearchRequest
from askdocs.settings import Settings
from askdocs.types import SearchResult
from askdocs.workers import PooledWorkers, WorkerFailed, WorkerPool

log = logging.getLogger(__name__)
TIMEOUT_SECONDS = 30.0  # CPU seconds per retrieval before its worker is replaced


class SearchProcesses(PooledWorkers):
    """At most ``workers`` retrievals at a time, in worker processes."""

    def __init__(self, workers: int, timeout: float = TIMEOUT_SECONDS) -> None:
        self.workers = workers
        self._pool = WorkerPool(
            "askdocs.search.worker", [], workers=workers, timeout=timeout, name="search"
        )

    def search(self, settings: Settings, request: SearchRequest) -> SearchResult | None:
        """The worker's result, or None when no worker could answer (the caller then
        searches in process). Errors of the search itself (``IndexBuilding``, a store
        fault) are raised as they would be in process."""
        try:
            status, value = self._pool.call(SearchJob.of(settings, request))
        except WorkerFailed as exc:
            log.warning("a search worker failed (%s); searching in the server process", exc)
            return None
        if status == "ok" and isinstance(value, SearchResult):
            return value
        if status == "failed" and isinstance(value, AskDocsError):
            raise value
        log.warning("a search worker answered %s: %s; searching in process", status, value)
        return None

    def warm(self, settings: Settings, request: SearchRequest) -> None:
        """Start every worker and have it load its model and open the index now, side by
        side, so the first searches find them ready."""
        threads = [
            threading.Thread(target=self._warm_one, args=(settings, request), daemon=True)
            for _ in range(self.workers)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def _warm_one(self, settings: Settings, request: SearchRequest) -> None:
        try:
            self.search(settings, request)
        except AskDocsError:
            return  # no index yet: the worker is started and its model loaded all the same
