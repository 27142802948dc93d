"""Parsing a read's changed files on a background thread, once each, under the read's budget
(``corpus.budget``; issue #27, defect 6).

A read hands its changed files to ``ParseFlights.parse``: a file already being parsed (by an
earlier, concurrent read) is waited for, not parsed again; the others start on a new
background run. The read waits until its deadline and answers with what is parsed by then;
the rest is *pending* (``None``). The run goes on after the read answered, so the next read
finds the results, until the files are parsed or the run has used the read's CPU budget;
files it did not start are dropped from the flights, and the next read starts them on a run
of its own. So three concurrent reads cost one run, not three, and each answers within its
own deadline.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Sequence

from askdocs.corpus.budget import ReadBudget
from askdocs.corpus.documents import SourceDoc
from askdocs.corpus.parse_pool import ParseJob, ParsePool
from askdocs.errors import CorpusError

Parsed = SourceDoc | CorpusError
JobKey = tuple[str, bytes]
ParseHere = Callable[[ParseJob], Parsed]


class _Flight:
    """One file's parse: done (with a result) or given up (no result) or under way."""

    def __init__(self, job: ParseJob) -> None:
        self.job = job
        self.result: Parsed | None = None
        self.ended = threading.Event()

    def finish(self, result: Parsed | None) -> None:
        self.result = result
        self.ended.set()


class ParseFlights:
    def __init__(self, parser: Callable[[], ParsePool | None], parse_here: ParseHere) -> None:
        self._parser = parser
        self._parse_here = parse_here
        self._flights: dict[JobKey, _Flight] = {}
        self._lock = threading.Lock()
        self._runs: list[threading.Thread] = []

    def parse(self, jobs: Sequence[ParseJob], budget: ReadBudget) -> list[Parsed | None]:
        """Each job's result, or None when it is still pending at ``budget``'s deadline."""
        flights, new = self._claim(jobs)
        if new:
            self._start(new, budget.cpu_seconds)
        for flight in flights:
            flight.ended.wait(budget.remaining())
        return [flight.result if flight.ended.is_set() else None for flight in flights]

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds in all for the runs under way (closing)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            runs = list(self._runs)
        for run in runs:
            run.join(max(0.0, deadline - time.monotonic()))

    def _claim(self, jobs: Sequence[ParseJob]) -> tuple[list[_Flight], list[_Flight]]:
        """The flights of ``jobs`` (existing ones reused) and the new ones among them;
        ended flights nobody asked for this time are forgotten."""
        keys = [_key(job) for job in jobs]
        with self._lock:
            wanted = set(keys)
            self._flights = {
                k: f for k, f in self._flights.items() if k in wanted or not f.ended.is_set()
            }
            new = [self._flights.setdefault(k, _Flight(j)) for k, j in zip(keys, jobs, strict=True)
                   if k not in self._flights]  # fmt: skip
            flights = [self._flights[k] for k in keys]
        return flights, new

    def _start(self, new: list[_Flight], cpu_seconds: float) -> None:
        run = threading.Thread(
            target=self._run, args=(new, cpu_seconds), name="askdocs-parse-flights", daemon=True
        )
        with self._lock:
            self._runs = [r for r in self._runs if r.is_alive()] + [run]
        run.start()

    def _run(self, flights: list[_Flight], cpu_seconds: float) -> None:
        parser = self._parser()
        used = _cpu_meter(parser)
        jobs = [flight.job for flight in flights]
        try:
            if parser is not None:
                parser.parse_each(
                    jobs,
                    lambda n, result: flights[n].finish(result),
                    keep_going=lambda: used() < cpu_seconds,
                )
            else:
                for flight in flights:
                    if used() >= cpu_seconds:
                        break
                    flight.finish(self._parse_here(flight.job))
        finally:
            self._give_up([f for f in flights if not f.ended.is_set()])

    def _give_up(self, flights: list[_Flight]) -> None:
        """Flights the run did not start (its CPU was spent, or it failed): forgotten, so
        the next read starts them anew; whoever waits on them stops waiting."""
        with self._lock:
            for flight in flights:
                key = _key(flight.job)
                if self._flights.get(key) is flight:
                    del self._flights[key]
        for flight in flights:
            flight.finish(None)


def _cpu_meter(parser: ParsePool | None) -> Callable[[], float]:
    """CPU seconds since now: this thread's (in-process parsing) plus the parse worker's."""
    thread_start = time.thread_time()
    worker_start = parser.cpu_used() if parser is not None else 0.0

    def used() -> float:
        worker = parser.cpu_used() - worker_start if parser is not None else 0.0
        return time.thread_time() - thread_start + worker

    return used


def _key(job: ParseJob) -> JobKey:
    seen = f"{job.text}\0{job.options!r}\0{job.included!r}"
    return job.rel, hashlib.sha256(seen.encode("utf-8", "surrogatepass")).digest()
