"""Keeping the index current in the background, and letting interactive work go first.

``ActivityMonitor`` counts interactive turns in flight (Ask AI answers, assistant turns);
the engine owns one (``AskDocs.monitor``), shared by every surface of the ``App``. Between
embedding batches the indexer calls ``between_batches``, which waits while a turn is in
flight, at most ``index.interactive_yield_seconds`` per batch (seed 000 "Interactive priority").

``IndexingService`` runs ``ensure_indexed`` on a daemon thread: first
``index.first_run_delay_seconds`` after ``start()``, then every ``index.recheck_seconds``
(600), or ``index.retry_seconds`` (120) after a failure. Each run re-reads the docs (edits
show up) and indexes for the service's current embedder (a provider switched with
``AskDocs.set_embedding`` builds its own collection without a restart).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from askdocs.errors import AskDocsError

log = logging.getLogger(__name__)


class ActivityMonitor:
    """A thread-safe count of interactive turns in flight."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._active = 0

    @property
    def active(self) -> int:
        return self._active

    @contextmanager
    def interactive(self) -> Iterator[None]:
        """Mark one interactive turn in flight for the duration of the block."""
        with self._lock:
            self._active += 1
        try:
            yield
        finally:
            with self._lock:
                self._active -= 1
                if self._active == 0:
                    self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until no turn is in flight; True when idle."""
        with self._lock:
            return self._idle.wait_for(lambda: self._active == 0, timeout)

    def between_batches(self, timeout: float) -> Callable[[], None]:
        """The indexer's hook: wait (bounded) while interactive work runs."""

        def wait() -> None:
            if not self.wait_idle(timeout):
                log.debug("interactive work still running after %.1fs; indexing on", timeout)

        return wait


class Indexable(Protocol):
    """What the background loop needs from the service."""

    def ensure_indexed(self) -> object: ...


class IndexingService:
    """The background loop around ``ensure_indexed``. ``start()`` once, ``stop()`` to end."""

    def __init__(
        self,
        service: Indexable,
        *,
        first_run_delay: float,
        recheck: float,
        retry: float,
    ) -> None:
        self._service = service
        self._delays = (first_run_delay, recheck, retry)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.runs = 0
        self.failures = 0
        self.last_error: str | None = None
        self._finished = threading.Condition()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="askdocs-indexer", daemon=True)
            self._thread.start()

    def stop(self, timeout: float | None = None) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def trigger(self) -> None:
        """Run a check now instead of waiting for the next one."""
        self._wake.set()

    def wait_runs(self, count: int, timeout: float) -> bool:
        """Block until at least ``count`` runs finished (tests, start-up scripts)."""
        with self._finished:
            return self._finished.wait_for(lambda: self.runs >= count, timeout)

    def _loop(self) -> None:
        first, recheck, retry = self._delays
        wait = first
        while not self._sleep(wait):
            wait = recheck if self.run_once() else retry

    def _sleep(self, seconds: float) -> bool:
        """Wait ``seconds`` or until woken; True when asked to stop."""
        self._wake.wait(seconds)
        self._wake.clear()
        return self._stop.is_set()

    def run_once(self) -> bool:
        """One ``ensure_indexed``; False (and the error kept) when it failed."""
        ok = True
        try:
            self._service.ensure_indexed()
            self.last_error = None
        except AskDocsError as exc:
            ok = self._failed(f"{exc.code}: {exc}")
        except Exception as exc:  # a crash must not end the loop
            log.exception("background indexing crashed")
            ok = self._failed(f"{type(exc).__name__}: {exc}")
        with self._finished:
            self.runs += 1
            self._finished.notify_all()
        return ok

    def _failed(self, message: str) -> bool:
        log.warning("background indexing failed: %s", message)
        self.failures += 1
        self.last_error = message
        return False
