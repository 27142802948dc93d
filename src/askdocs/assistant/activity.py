"""Interactive priority: while a turn is in flight, background indexing yields.

Local stand-in until ``askdocs.indexing.ActivityMonitor`` exists: a process-wide count of
turns in flight that the indexer can read between embedding batches.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class ActivityMonitor:
    """A thread-safe count of interactive turns in flight."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0
        self._idle = threading.Condition(self._lock)

    @property
    def active(self) -> int:
        return self._active

    @contextmanager
    def interactive(self) -> Iterator[None]:
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


MONITOR = ActivityMonitor()
