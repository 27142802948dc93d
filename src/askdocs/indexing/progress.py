"""``SiteProgress``: one site's indexing, as every surface reports it.

The indexer updates it from its thread: ``phase`` (idle, queued, running, done, failed,
stopped), sections embedded so far (``done`` of ``total``), the last error, and a ready
flag set once a searchable collection exists. MCP local mode waits on that flag with a
bound (``wait_ready``); the server and the admin re-index read the same object.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

import anyio.to_thread

from askdocs.error_codes import ErrorCode
from askdocs.errors import IndexBuilding, ServiceUnavailable

Phase = Literal["idle", "queued", "running", "done", "failed", "stopped"]
Progress = Callable[[float, float | None, str], Awaitable[None]]


class Stopped(Exception):
    """Raised from a progress report to end a run at its next batch."""


@dataclass(frozen=True)
class ProgressView:
    """A copy of one site's progress at one moment (what status answers show)."""

    site: str
    phase: Phase
    done: int
    total: int
    ready: bool
    error: str | None
    runs: int


class SiteProgress:
    """One site's indexing progress; written by the indexer's thread, read anywhere."""

    def __init__(self, site: str, stop: threading.Event) -> None:
        self.site = site
        self.phase: Phase = "idle"
        self.done = 0
        self.total = 0
        self.error: str | None = None
        self.runs = 0  # finished runs (done, failed or stopped)
        self.generation = 0  # moves each time a collection becomes searchable or current
        self._stop = stop
        self._ready = threading.Event()

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    @property
    def stopping(self) -> bool:
        """True once the indexer was told to stop (a waiting run should end)."""
        return self._stop.is_set()

    @property
    def building(self) -> bool:
        """True from the moment a run is asked for until it has ended."""
        return self.phase in ("queued", "running")

    def view(self) -> ProgressView:
        return ProgressView(
            self.site, self.phase, self.done, self.total, self.ready, self.error, self.runs
        )

    # -- written by the indexer ------------------------------------------------------------

    def report(self, done: int, total: int) -> None:
        """The engine's progress callback; raises ``Stopped`` once the indexer stops."""
        if self._stop.is_set():
            raise Stopped
        self.done, self.total = done, total

    def mark_ready(self) -> None:
        self.generation += 1
        self._ready.set()

    def started(self) -> None:
        self.phase, self.error = "running", None

    def ended(self, phase: Phase, error: str | None = None) -> None:
        self.phase, self.error = phase, error
        self.runs += 1

    # -- read by the surfaces --------------------------------------------------------------

    def describe(self) -> str:
        if self.total <= 0:
            return "no sections embedded yet"
        share = 100 * self.done // self.total
        return f"{self.done}/{self.total} sections embedded ({share}%)"

    def progress_note(self) -> str:
        """What a keyword-only answer says while the vectors are built."""
        return (
            f"keyword search only while the vectors are built ({self.describe()}); "
            "results become hybrid (keyword + semantic) once indexing finishes"
        )

    async def wait_ready(self, seconds: float, progress: Progress) -> None:
        """Return once a searchable collection exists; fail after ``seconds`` with progress."""
        deadline = time.monotonic() + seconds
        while not self.ready:
            self._raise_failed()
            left = deadline - time.monotonic()
            if left <= 0:
                raise IndexBuilding(
                    f"still indexing {self.site}: {self.describe()}; "
                    "retry in a minute (get_article and list_catalog work meanwhile)"
                )
            await anyio.to_thread.run_sync(self._ready.wait, min(1.0, left), abandon_on_cancel=True)
            await progress(self.done, self.total or None, "indexing")

    def _raise_failed(self) -> None:
        if self.phase == "failed":
            raise ServiceUnavailable(
                f"indexing {self.site} failed: {self.error}; check the docs folder "
                "and the server log, then restart the MCP server",
                code=ErrorCode.INDEX_FAILED,
            )
