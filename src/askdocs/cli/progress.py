"""Progress of long work: a bar when stderr is a terminal, else periodic one-line records.

Without a terminal (CI logs, ``2>file``, a container) a bar would be noise and silence would
look like a hang, so every ``LOG_EVERY_SECONDS`` an INFO record says how far the run is,
and one more when it ends. ``-q`` turns both off.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

log = logging.getLogger("askdocs.progress")
LOG_EVERY_SECONDS = 10.0
Progress = Callable[[int, int], None]  # (done, total) chunks embedded


@contextmanager
def progress(label: str, *, enabled: bool = True) -> Iterator[Progress | None]:
    """A ``(done, total)`` callback for ``label``'s work, or None when progress is off."""
    if not enabled:
        yield None
    elif sys.stderr.isatty():
        with _bar(label) as update:
            yield update
    else:
        reporter = LogProgress(label)
        yield reporter
        reporter.finish()


class LogProgress:
    """Logs ``label: done/total chunks embedded`` at most every ``interval`` seconds."""

    def __init__(
        self,
        label: str,
        interval: float = LOG_EVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.interval = interval
        self.clock = clock
        self.started = clock()
        self.last_logged: float | None = None
        self.logged_done = -1
        self.done = 0
        self.total = 0

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        now = self.clock()
        if self.last_logged is None or now - self.last_logged >= self.interval:
            self.last_logged = now
            self._log()

    def finish(self) -> None:
        if self.last_logged is not None and self.logged_done != self.done:
            self._log()

    def _log(self) -> None:
        self.logged_done = self.done
        share = f" ({100 * self.done // self.total}%)" if self.total else ""
        elapsed = self.clock() - self.started
        log.info(
            "%s: %d/%d chunks embedded%s, %.0f s",
            self.label,
            self.done,
            self.total,
            share,
            elapsed,
        )


@contextmanager
def _bar(label: str) -> Iterator[Progress]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    columns = (BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Bar(f"{label}: embedding", *columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("embed", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
