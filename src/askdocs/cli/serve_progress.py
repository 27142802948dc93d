"""``askdocs serve``'s indexing progress: what each site's search can do while it indexes.

On a terminal, a live view on stderr (one line per site: keyword-ready, embedding n of N
with a bar, hybrid-ready), shown while any site is indexing. Without one (a log file, a
container), one ``askdocs.progress`` record per site when its stage changes and every
``LOG_EVERY_SECONDS`` while it embeds. ``-q`` turns both off. It reads the same
``IndexState`` as ``/readyz`` and the search answer, from a daemon thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from askdocs.cli.progress import LOG_EVERY_SECONDS
from askdocs.indexing.state import IndexState

if TYPE_CHECKING:
    from rich.live import Live
    from rich.table import Table

log = logging.getLogger("askdocs.progress")
POLL_SECONDS = 0.5

States = Callable[[], list[IndexState]]


class IndexLog:
    """Log records for a run without a terminal: on each change of stage, and every
    ``interval`` seconds while a site embeds."""

    def __init__(
        self, interval: float = LOG_EVERY_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.interval = interval
        self.clock = clock
        self._seen: dict[str, tuple[str, bool]] = {}
        self._logged: dict[str, float] = {}

    def show(self, states: list[IndexState]) -> None:
        for state in states:
            stage = (state.search, state.embedding)
            last = self._logged.get(state.site)
            changed = self._seen.get(state.site) != stage
            due = state.embedding and (last is None or self.clock() - last >= self.interval)
            if changed or due:
                self._seen[state.site], self._logged[state.site] = stage, self.clock()
                log.info("site %s: %s", state.site, state.describe())


class IndexView:
    """A live view on the terminal while any site indexes; final lines stay when it ends."""

    def __init__(self) -> None:
        from rich.console import Console

        self.console = Console(stderr=True)
        self._live: Live | None = None
        self._done: dict[str, str] = {}

    def show(self, states: list[IndexState]) -> None:
        from rich.live import Live

        busy = [state for state in states if state.embedding or state.search == "none"]
        if busy and self._live is None:
            live = Live(self._render(states), console=self.console, transient=True)
            live.start()
            self._live = live
        if self._live is not None:
            self._live.update(self._render(states))
            if not busy:
                self._live.stop()
                self._live = None
        self._settled(states)

    def _settled(self, states: list[IndexState]) -> None:
        for state in states:
            line = state.describe()
            if (
                not state.embedding
                and state.search != "none"
                and self._done.get(state.site) != line
            ):
                self._done[state.site] = line
                self.console.print(f"askdocs: site {state.site!r}: {line}")

    @staticmethod
    def _render(states: list[IndexState]) -> Table:
        from rich.progress_bar import ProgressBar
        from rich.table import Table

        table = Table.grid(padding=(0, 2))
        for state in states:
            bar = ProgressBar(total=state.total or 1, completed=state.embedded, width=24)
            table.add_row(state.site, bar if state.embedding else "", state.describe())
        return table

    def close(self) -> None:
        if self._live is not None:
            self._live.stop()


def watch(states: States, *, terminal: bool) -> IndexWatch:
    """A started watch: the live view on a terminal, log records without one."""
    found = IndexWatch(states, IndexView() if terminal else IndexLog())
    found.start()
    return found


class IndexWatch:
    """Polls ``states`` on a daemon thread and shows them through ``view``."""

    def __init__(self, states: States, view: IndexLog | IndexView) -> None:
        self.states = states
        self.view = view
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="askdocs-progress", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2 * POLL_SECONDS)
        if isinstance(self.view, IndexView):
            self.view.close()

    def _loop(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            try:
                self.view.show(self.states())
            except Exception:  # a read racing start-up or shutdown: the next poll shows it
                log.debug("reading the index states failed", exc_info=True)
