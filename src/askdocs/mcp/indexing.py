"""Local mode's background index: start at once, report progress, stop between batches.

The MCP server must answer ``initialize`` and ``tools/list`` while a cold index builds, so
indexing runs in a daemon thread. On a cold store it first builds a keyword-only
collection (seconds, no model), so the first search answers from BM25 while the vectors
are embedded. A search waits a bounded time for the first searchable collection,
reporting progress, then fails with ``IndexBuilding`` saying how far it got.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import anyio.to_thread

from askdocs.errors import AskDocsError, IndexBuilding, ServiceUnavailable

logger = logging.getLogger(__name__)

IndexRun = Callable[[Callable[[int, int], None]], object]  # index(progress)
ReadyCheck = Callable[[], bool]  # does a searchable collection exist already?
Prepare = Callable[[], object]  # the quick keyword-only phase before the full run
Progress = Callable[[float, float | None, str], Awaitable[None]]


class _Stopped(Exception):
    """Raised from the progress callback to end an index run at the next batch."""


@dataclass
class IndexState:
    done: int = 0
    total: int = 0
    error: str | None = None
    finished: bool = False

    def describe(self) -> str:
        if self.total <= 0:
            return "no sections embedded yet"
        share = 100 * self.done // self.total
        return f"{self.done}/{self.total} sections embedded ({share}%)"


class BackgroundIndex:
    """One site's index run in a daemon thread, plus a ready flag searches can wait on."""

    def __init__(
        self,
        site: str,
        run: IndexRun,
        already_ready: ReadyCheck,
        prepare: Prepare | None = None,
    ) -> None:
        self.site = site
        self.state = IndexState()
        self._run = run
        self._already_ready = already_ready
        self._prepare = prepare
        self.generation = 0  # moves when a collection becomes searchable or current
        self._ready = threading.Event()
        self._finished = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._main, name=f"askdocs-index-{site}", daemon=True
        )

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    @property
    def building(self) -> bool:
        """True until the full run (vectors included) has ended."""
        return not self.state.finished

    def progress_note(self) -> str:
        """What a keyword-only answer says while the vectors are built."""
        return (
            f"keyword search only while the vectors are built ({self.state.describe()}); "
            "results become hybrid (keyword + semantic) once indexing finishes"
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self, wait_seconds: float) -> None:
        """Ask the run to stop at its next batch and wait a bounded time for it."""
        self._stop.set()
        if self._thread.is_alive():
            self._finished.wait(wait_seconds)

    def _mark_ready(self) -> None:
        self.generation += 1
        self._ready.set()

    def _progress(self, done: int, total: int) -> None:
        if self._stop.is_set():
            raise _Stopped
        self.state.done, self.state.total = done, total

    def _main(self) -> None:
        started = time.monotonic()
        try:
            if self._prepare is not None:
                self._prepare()  # before the ready check, which may load the model
            if self._already_ready():
                self._mark_ready()
            self._run(self._progress)
            self._mark_ready()
            logger.info("index of %s ready in %.1f s", self.site, time.monotonic() - started)
        except _Stopped:
            logger.info("index of %s stopped", self.site)
        except AskDocsError as exc:
            self.state.error = str(exc)
            logger.warning("indexing %s failed: %s", self.site, exc)
        except Exception as exc:  # a thread boundary: record it, the tools report it
            self.state.error = f"unexpected {type(exc).__name__}"
            logger.exception("indexing %s failed", self.site)
        finally:
            self.state.finished = True
            self._finished.set()

    async def wait_ready(self, seconds: float, progress: Progress) -> None:
        """Return once a complete collection exists; fail after ``seconds`` with progress."""
        deadline = time.monotonic() + seconds
        while not self._ready.is_set():
            if self.state.error is not None:
                raise ServiceUnavailable(
                    f"indexing {self.site} failed: {self.state.error}; check the docs folder "
                    "and the server log, then restart the MCP server",
                    code="index_failed",
                )
            left = deadline - time.monotonic()
            if left <= 0:
                raise IndexBuilding(
                    f"still indexing {self.site}: {self.state.describe()}; "
                    "retry in a minute (get_article and list_catalog work meanwhile)"
                )
            await anyio.to_thread.run_sync(self._ready.wait, min(1.0, left), abandon_on_cancel=True)
            await progress(self.state.done, self.state.total or None, "indexing")
