"""Letting interactive work go first while the index is built.

``ActivityMonitor`` counts interactive turns in flight (Ask AI answers, assistant turns);
the engine owns one (``AskDocs.monitor``), shared by every surface of the ``App``. Between
embedding batches the indexer calls ``between_batches``, which waits while a turn is in
flight, at most ``index.interactive_yield_seconds`` per batch (seed 000 "Interactive priority").
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

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
