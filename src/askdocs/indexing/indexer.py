"""``Indexer``: the one background indexer of an ``App``, used by the server, MCP local mode
and the admin re-index alike.

One daemon thread runs index work, one piece at a time:

1. jobs asked for with ``submit(site, work)``, in order: MCP local mode's start-up run of
   each site, an admin re-index;
2. once ``start()`` was called (the server, ``server.index_in_background``), the periodic
   check ``ensure_indexed``: ``index.first_run_delay_seconds`` after ``start()``, then every
   ``index.recheck_seconds`` (600), or ``index.retry_seconds`` (120) after a failure;
   ``trigger()`` runs it now. Each check re-reads the docs (edits show up) and indexes for
   the engine's current embedder.

Every piece reports into its site's ``SiteProgress`` (``progress(site)``, ``status()``), and
every site a periodic check indexed is handed to the ``watch``-ers as a ``CheckedSite``
(the admin index-run log records it).
``stop()`` ends the running piece at its next batch (builds are resumable: every embedded
batch is kept) and drops the queued ones.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from askdocs.errors import AskDocsError
from askdocs.indexing.progress import Phase, ProgressView, SiteProgress, Stopped
from askdocs.settings import IndexSettings

log = logging.getLogger(__name__)

Report = Callable[[int, int], None]  # (done, total) sections embedded
Work = Callable[[SiteProgress], object]  # one job: index a site, reporting into its progress


class Checkable(Protocol):
    """What the periodic check needs from the engine."""

    def ensure_indexed(self, progress_for: Callable[[str], Report] | None = None) -> object: ...


@dataclass(frozen=True)
class Outcome:
    """How one job ended: its result, or an error message, or stopped."""

    site: str
    phase: Phase
    result: object = None
    error: str | None = None


Done = Callable[[Outcome], None]


@dataclass(frozen=True)
class CheckedSite:
    """One site a periodic check indexed: its report (the engine's, for this site) or the
    error, and when it started and ended (UTC)."""

    site: str
    phase: Phase  # done, failed or stopped
    started: datetime
    finished: datetime
    report: object = None
    error: str | None = None


Watcher = Callable[[CheckedSite], None]


@dataclass
class Job:
    """A submitted job; ``finished`` is set once it ended (or was dropped by ``stop``)."""

    progress: SiteProgress
    work: Work
    on_done: Done | None = None
    finished: threading.Event = field(default_factory=threading.Event)


class Indexer:
    """The background indexer. ``submit`` jobs, ``start()`` the periodic check, ``stop()``."""

    def __init__(
        self, engine: Checkable, *, first_run_delay: float, recheck: float, retry: float
    ) -> None:
        self._engine = engine
        self._delays = (first_run_delay, recheck, retry)
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._jobs: deque[Job] = deque()
        self._sites: dict[str, SiteProgress] = {}
        self._stop = threading.Event()
        self._periodic = False
        self._due = 0.0  # when the next periodic check runs (inf while one runs)
        self._thread: threading.Thread | None = None
        self._checked = threading.Condition()
        self.runs = 0  # periodic checks finished
        self.failures = 0
        self.last_error: str | None = None
        self._watchers: list[Watcher] = []

    @classmethod
    def from_settings(cls, engine: Checkable, settings: IndexSettings) -> Indexer:
        return cls(
            engine,
            first_run_delay=settings.first_run_delay_seconds,
            recheck=settings.recheck_seconds,
            retry=settings.retry_seconds,
        )

    # -- status ------------------------------------------------------------------------------

    def progress(self, site: str) -> SiteProgress:
        with self._lock:
            return self._progress(site)

    def _progress(self, site: str) -> SiteProgress:
        found = self._sites.get(site)
        if found is None:
            found = self._sites[site] = SiteProgress(site, self._stop)
        return found

    def status(self) -> list[ProgressView]:
        with self._lock:
            return [self._sites[site].view() for site in sorted(self._sites)]

    def generation(self) -> int:
        """Moves whenever a site becomes searchable or current (cache keys use it)."""
        with self._lock:
            return sum(progress.generation for progress in self._sites.values())

    # -- control -----------------------------------------------------------------------------

    def start(self) -> None:
        """Run the periodic check from now on (first after ``first_run_delay``)."""
        with self._lock:
            self._periodic = True
            self._due = time.monotonic() + self._delays[0]
            self._wake.notify_all()
        self._ensure_thread()

    def submit(self, site: str, work: Work, on_done: Done | None = None) -> Job:
        """Queue ``work`` for ``site``; it runs after the jobs queued before it."""
        with self._lock:
            job = Job(self._progress(site), work, on_done)
            if self._stop.is_set():
                job.finished.set()
                return job
            job.progress.phase = "queued"
            self._jobs.append(job)
            self._wake.notify_all()
        self._ensure_thread()
        return job

    def trigger(self) -> None:
        """Run the periodic check now instead of waiting for the next one; during a check,
        run another right after it (what changed may come after the running one read it)."""
        with self._lock:
            self._due = 0.0
            self._wake.notify_all()

    def watch(self, watcher: Watcher) -> None:
        """Hand every site a periodic check indexes to ``watcher`` (on the indexer's thread)."""
        with self._lock:
            self._watchers.append(watcher)

    def stop(self, timeout: float | None = None) -> None:
        """End the running piece at its next batch, drop queued jobs, wait ``timeout``."""
        with self._lock:
            self._stop.set()
            dropped, self._jobs = list(self._jobs), deque()
            self._wake.notify_all()
        for job in dropped:
            job.progress.ended("stopped")
            job.finished.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def wait_runs(self, count: int, timeout: float) -> bool:
        """Block until at least ``count`` periodic checks finished (tests, scripts)."""
        with self._checked:
            return self._checked.wait_for(lambda: self.runs >= count, timeout)

    # -- the thread --------------------------------------------------------------------------

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(
                    target=self._loop, name="askdocs-indexer", daemon=True
                )
                self._thread.start()

    def _loop(self) -> None:
        while (piece := self._next()) is not None:
            piece()

    def _next(self) -> Callable[[], None] | None:
        """The next piece of work: a queued job first, then a due check; None on stop."""
        with self._lock:
            while not self._stop.is_set():
                if self._jobs:
                    job = self._jobs.popleft()
                    return lambda: self._run_job(job)
                left = self._due - time.monotonic()
                if self._periodic and left <= 0:
                    self._due = math.inf  # until it ends, or a trigger makes it due again
                    return self._check
                self._wake.wait(left if self._periodic else None)
            return None

    def _run_job(self, job: Job) -> None:
        progress = job.progress
        progress.started()
        outcome = _attempt(progress.site, lambda: job.work(progress))
        progress.ended(outcome.phase, outcome.error)
        try:
            if job.on_done is not None:
                job.on_done(outcome)
        except Exception:  # a thread boundary: the next job must still run
            log.exception("recording the index run of %s failed", progress.site)
        finally:
            job.finished.set()

    def _check(self) -> None:
        """One periodic ``ensure_indexed``; the sites it touched end done or failed."""
        touched: dict[str, SiteProgress] = {}
        started: dict[str, datetime] = {}

        def report_for(site: str) -> Report:
            with self._lock:
                touched[site] = progress = self._progress(site)
            started[site] = datetime.now(UTC)
            progress.started()
            return progress.report

        outcome = _attempt("*", lambda: self._engine.ensure_indexed(report_for))
        for progress in touched.values():
            if outcome.phase == "done":
                progress.mark_ready()
            progress.ended(outcome.phase, outcome.error)
        self._tell_watchers(outcome, started)
        self._checked_once(outcome)

    def _tell_watchers(self, outcome: Outcome, started: dict[str, datetime]) -> None:
        reports = outcome.result if isinstance(outcome.result, list) else []
        by_site = {getattr(report, "site", None): report for report in reports}
        finished = datetime.now(UTC)
        with self._lock:
            watchers = list(self._watchers)
        for site, began in started.items():
            report = by_site.get(site)
            phase: Phase = "done" if report is not None else outcome.phase
            error = None if report is not None else outcome.error
            checked = CheckedSite(site, phase, began, finished, report, error)
            for watcher in watchers:
                try:
                    watcher(checked)
                except Exception:  # a thread boundary: the check must still end
                    log.exception("a watcher of %s's index run failed", site)

    def _checked_once(self, outcome: Outcome) -> None:
        recheck, retry = self._delays[1:]
        with self._lock:
            delay = recheck if outcome.phase == "done" else retry
            self._due = min(self._due, time.monotonic() + delay)  # keeps a trigger's 0
        with self._checked:
            if outcome.phase == "failed":
                self.failures += 1
            self.last_error = outcome.error
            self.runs += 1
            self._checked.notify_all()


def _attempt(site: str, work: Callable[[], object]) -> Outcome:
    """Run ``work``; an error becomes the outcome (a crash must not end the thread)."""
    try:
        return Outcome(site, "done", result=work())
    except Stopped:
        log.info("indexing %s stopped", site)
        return Outcome(site, "stopped")
    except AskDocsError as exc:
        log.warning("indexing %s failed: %s: %s", site, exc.code, exc)
        return Outcome(site, "failed", error=exc.message)
    except Exception as exc:
        log.exception("indexing %s crashed", site)
        return Outcome(site, "failed", error=f"indexing failed ({type(exc).__name__})")
