"""Parsing with a time budget: a page's Markdown structure is parsed in a worker process
that can be killed (``askdocs.workers``; the worker is ``python -m
askdocs.corpus.parse_worker``), so a pathological page cannot stall a catalog read.

Some Markdown (tens of thousands of headings, deeply nested lists, long tables) takes
markdown-it seconds to tens of seconds to parse. A page longer than
``IN_PROCESS_MAX_CHARS`` is parsed in the worker; one that outlives the budget becomes a
bad file (``PageError``: "parsing took longer than N s"), left out and listed like any
other, and stays so until the file changes. Shorter pages are parsed in the calling
process: at that size the worst known input parses in well under 0.1 s, and most pages of
a docs tree (and of the tests) never need a worker.

``parse_many`` parses a batch on two cores: a helper thread (which waits on the pipe without
holding the GIL) feeds the worker the longest pages first while the calling thread parses
the shortest in process (fastapi-docs: its 30 long pages are 1.1 of its 1.5 MB, the release
notes alone 0.7 MB).

``map`` runs a pure module-level function over items on the same two cores (``MapJob``:
the function travels by name): ``askdocs mcp`` on a cold store has the worker compute the
chunks' BM25 vectors while this process imports the MCP SDK, so the keyword-only build
after the handshake only writes them (``AskDocs.read_ahead``).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar, cast

from askdocs.corpus.dialects.includes import Included
from askdocs.corpus.documents import ParseOptions, SourceDoc, parse_document
from askdocs.errors import CorpusError
from askdocs.workers import PooledWorkers, WorkerFailed, WorkerPool, WorkerTimeout

log = logging.getLogger(__name__)
IN_PROCESS_MAX_CHARS = 8 * 1024
MAP_BATCH = 128  # items per worker call of ``map``: each call is bounded by the parse budget


@dataclass(frozen=True)
class ParseJob:
    text: str
    rel: str
    options: ParseOptions
    included: Included | None


@dataclass(frozen=True)
class MapJob:
    """``function`` of each of ``items``: a module-level function (pickled by name)."""

    function: Callable[[Any], object]
    items: tuple[object, ...]


class ParsePool(PooledWorkers):
    """``parse_document`` bounded by ``timeout`` seconds per page (see the module text)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._pool = WorkerPool(
            "askdocs.corpus.parse_worker", [], workers=1, timeout=timeout, name="parse"
        )

    def parse(
        self, text: str, rel: str, options: ParseOptions, included: Included | None = None
    ) -> SourceDoc:
        """Like ``parse_document``; every failure is a ``CorpusError`` (a bad file)."""
        if len(text) <= IN_PROCESS_MAX_CHARS:
            return parse_document(text, rel, options, included)
        return self._in_worker(ParseJob(text, rel, options, included))

    def parse_many(
        self, jobs: Sequence[ParseJob], *, here: Free = True
    ) -> list[SourceDoc | CorpusError]:
        """``parse`` of each job, in order; a bad file's ``CorpusError`` is its result.

        When some page is long (so the worker is needed anyway), a helper thread feeds the
        worker the longest pages first while this thread parses the shortest; whichever
        runs out takes the other end's next page (the worker any page, this thread only
        short ones), so both cores stay busy until the batch is done. ``here`` false (or a
        callable answering false): this process is busy with other work (``askdocs mcp``
        starting), so meanwhile the worker takes every page of such a batch; this thread
        joins in as soon as ``here()`` turns true."""
        results: dict[int, SourceDoc | CorpusError] = {}
        self.parse_each(jobs, results.__setitem__, here=here)
        return [results[n] for n in range(len(jobs))]

    def parse_each(
        self,
        jobs: Sequence[ParseJob],
        on_result: Callable[[int, SourceDoc | CorpusError], None],
        *,
        here: Free = True,
        keep_going: Callable[[], bool] | None = None,
    ) -> None:
        """``parse_many``, handing each job's result to ``on_result(index, result)`` as it
        comes; with ``keep_going``, no job starts once it answers false (those jobs get no
        result: a read's budget is spent, see ``corpus.flights``)."""
        free = _free(here)
        queue = _Queue(jobs, keep_going, on_result)
        helper = (
            _Background(partial(_feed_long, self, queue), "askdocs-parse-batch")
            if queue.has_long()
            else None
        )
        try:
            while (n := _next_here(queue.take_short, helper, free)) is not None:
                queue.finish(n, _attempt(_in_process, jobs[n]))
        finally:
            if helper is not None:
                helper.join()

    def cpu_used(self) -> float:
        """Parse-worker CPU seconds used so far (``WorkerPool.cpu_used``)."""
        return self._pool.cpu_used()

    @property
    def jobs_sent(self) -> int:
        """Pages sent to the worker so far (diagnostics and tests)."""
        return self._pool.jobs

    def map(self, function: Callable[[T], R], items: Sequence[T], *, here: Free = True) -> list[R]:
        """``function`` of each item, in order, on two cores: a helper thread has the worker
        take batches from the front while this thread takes them from the back whenever
        ``here()``. ``function`` must be pure and module-level (the worker imports it by
        name). A worker that fails or times out leaves its batches to this thread."""
        free = _free(here)
        batches: _Batches[R] = _Batches(len(items))
        helper = _Background(partial(_feed_map, self, function, items, batches), "askdocs-map")
        try:
            while (start := _next_here(batches.take_last, helper, free)) is not None:
                batches.results[start] = [
                    function(item) for item in items[start : start + MAP_BATCH]
                ]
        finally:
            helper.join()
        return [value for start in sorted(batches.results) for value in batches.results[start]]

    def _map_in_worker(self, job: MapJob) -> list[object] | None:
        try:
            status, value = self._pool.call(job)
        except (WorkerTimeout, WorkerFailed):
            return None
        except Exception as exc:  # e.g. a function that does not pickle: computed here
            log.warning("computing %s in process: %s", _name(job.function), exc)
            return None
        if status != "ok" or not isinstance(value, list) or len(value) != len(job.items):
            return None
        return value

    def _in_worker(self, job: ParseJob) -> SourceDoc:
        try:
            status, value = self._pool.call(job)
        except WorkerTimeout:
            raise CorpusError(job.rel, f"parsing took longer than {self.timeout:g} s") from None
        except WorkerFailed as exc:
            raise CorpusError(job.rel, f"parsing failed: {exc}") from None
        if status == "ok" and isinstance(value, SourceDoc):
            return value
        raise CorpusError(job.rel, str(value))


T = TypeVar("T")
R = TypeVar("R")
Free = bool | Callable[[], bool]  # whether the calling thread may work now (``parse_many``)
_WAIT_SECONDS = 0.05  # a busy caller looks again this often


def _free(here: Free) -> Callable[[], bool]:
    return here if callable(here) else lambda: here


def _next_here(
    take: Callable[[], int | None], helper: _Background | None, free: Callable[[], bool]
) -> int | None:
    """The calling thread's next piece of work: waits while it is not ``free`` and the
    helper still works (a helper that stopped leaves the rest to this thread)."""
    while helper is not None and helper.alive() and not free():
        helper.join(_WAIT_SECONDS)
    return take()


class _Queue:
    """A ``parse_many`` batch in order of length: the worker takes from the long end, the
    calling thread from the short end (short pages only). Nothing is taken once
    ``keep_going()`` answers false."""

    def __init__(
        self,
        jobs: Sequence[ParseJob],
        keep_going: Callable[[], bool] | None,
        on_result: Callable[[int, SourceDoc | CorpusError], None],
    ) -> None:
        self.jobs = jobs
        self.finish = on_result
        self._keep_going = keep_going or _always
        self._order = deque(sorted(range(len(jobs)), key=lambda n: len(jobs[n].text)))
        self._lock = threading.Lock()

    def has_long(self) -> bool:
        return bool(self._order) and self._length(self._order[-1]) > IN_PROCESS_MAX_CHARS

    def take_short(self) -> int | None:
        if not self._keep_going():
            return None
        with self._lock:
            if self._order and self._length(self._order[0]) <= IN_PROCESS_MAX_CHARS:
                return self._order.popleft()
            return None

    def take_long(self) -> int | None:
        if not self._keep_going():
            return None
        with self._lock:
            return self._order.pop() if self._order else None

    def _length(self, n: int) -> int:
        return len(self.jobs[n].text)


class _Background:
    """A daemon thread running ``work``; what it raises reaches the caller at ``join``."""

    def __init__(self, work: Callable[[], None], name: str) -> None:
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(work,), name=name, daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], None]) -> None:
        try:
            work()
        except BaseException as exc:  # a thread boundary: the caller re-raises it
            self._error = exc

    def alive(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)
        if self._error is not None:
            raise self._error


def _feed_long(pool: ParsePool, queue: _Queue) -> None:
    """Feeds a ``parse_many`` batch to the worker, longest pages first."""
    while (n := queue.take_long()) is not None:
        queue.finish(n, _attempt(pool._in_worker, queue.jobs[n]))


class _Batches(Generic[R]):
    """The batch starts of a ``map`` call: the worker takes from the front, the calling
    thread from the back."""

    def __init__(self, count: int) -> None:
        self.results: dict[int, list[R]] = {}
        self._starts = deque(range(0, count, MAP_BATCH))
        self._lock = threading.Lock()

    def take_first(self) -> int | None:
        with self._lock:
            return self._starts.popleft() if self._starts else None

    def take_last(self) -> int | None:
        with self._lock:
            return self._starts.pop() if self._starts else None

    def give_back(self, start: int) -> None:
        with self._lock:
            self._starts.appendleft(start)


def _feed_map(
    pool: ParsePool, function: Callable[[T], R], items: Sequence[T], batches: _Batches[R]
) -> None:
    """Has the worker compute a ``map`` call's batches, from the front; on a failure the
    calling thread computes the rest."""
    while (start := batches.take_first()) is not None:
        values = pool._map_in_worker(MapJob(function, tuple(items[start : start + MAP_BATCH])))
        if values is None:
            batches.give_back(start)
            return
        batches.results[start] = cast("list[R]", values)


def _name(function: Callable[..., object]) -> str:
    return f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', '?')}"


def _in_process(job: ParseJob) -> SourceDoc:
    return parse_document(job.text, job.rel, job.options, job.included)


def _attempt(parse: Callable[[ParseJob], SourceDoc], job: ParseJob) -> SourceDoc | CorpusError:
    try:
        return parse(job)
    except CorpusError as exc:
        return exc


def _always() -> bool:
    return True
