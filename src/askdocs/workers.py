"""Killable worker processes with a time budget per job (rendering and parsing Markdown).

Untrusted Markdown can make markdown-it spend seconds per kilobyte, and a thread cannot be
stopped. So such work runs in a small pool of worker processes (``python -m MODULE ARGS``):
a job that uses more than its budget of CPU time gets its worker killed and replaced, and
the caller gets ``WorkerTimeout``. Workers start on first use, or earlier with ``start_soon()`` (a
server starts one of each at start, so its first reader request finds them ready: before,
a fresh ``askdocs serve``'s first catalog read waited for two worker starts, 7-14 s at
load 12 on 2 cores), and say when they are ready, so start-up never eats into a job's
budget. A worker module runs ``serve(answer)``: it reads pickled
jobs from stdin and writes pickled ``(status, value)`` answers to stdout (stray output of
the work goes to stderr, never into the protocol), and exits when its stdin closes.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection

log = logging.getLogger(__name__)
STARTUP_TIMEOUT = 30.0
# A job's budget is its worker's CPU time; wall time may stretch to this many times the
# budget on a loaded machine before the job counts as over it all the same.
WALL_FACTOR = 10
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
Answer = tuple[str, object]


class WorkerFailed(Exception):
    """A job whose worker did not start, stopped, or whose pool is closed."""


class WorkerTimeout(WorkerFailed):
    """A job that outlived its budget; its worker was killed."""


class _Worker:
    """A started worker process; ``await_ready`` before its first job."""

    def __init__(self, command: Sequence[str]) -> None:
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True
        )
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.writer = Connection(os.dup(self.process.stdin.fileno()), readable=False)
        self.reader = Connection(os.dup(self.process.stdout.fileno()), writable=False)
        self.process.stdin.close()
        self.process.stdout.close()

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the worker so far (Linux ``/proc``), else ``None``."""
        try:
            with open(f"/proc/{self.process.pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            return None
        try:  # after the command name: state is field 3, utime 14 and stime 15
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        except (IndexError, ValueError):
            return None

    def await_ready(self, name: str) -> None:
        try:
            if self.reader.poll(STARTUP_TIMEOUT) and self.reader.recv()[0] == "ready":
                return
        except (EOFError, OSError):
            pass
        self.stop()
        raise WorkerFailed(f"the {name} worker did not start")

    def stop(self) -> None:
        self.writer.close()
        self.reader.close()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=5)


class WorkerPool:
    """At most ``workers`` jobs at a time in ``python -m module *args`` processes, each
    bounded by ``timeout`` seconds. Thread-safe; ``close()`` it."""

    def __init__(
        self, module: str, args: Sequence[str], *, workers: int, timeout: float, name: str
    ) -> None:
        self.timeout = timeout
        self.name = name
        self._command = (sys.executable, "-m", module, *args)
        self._slots = threading.BoundedSemaphore(workers)
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._closed = False
        self._starting: tuple[_Worker, threading.Event] | None = None  # start_soon's worker
        self.started = 0  # worker processes started so far (diagnostics and tests)
        self.jobs = 0  # jobs sent so far (diagnostics and tests)
        self._cpu_used = 0.0  # worker CPU seconds all jobs used (a read's budget counts it)

    def call(self, job: object) -> Answer:
        """The worker's answer to ``job``; ``WorkerTimeout`` past the budget."""
        with self._slots:
            worker = self._take()
            try:
                answer = self._run(worker, job)
            except BaseException:
                worker.stop()
                raise
            self._give_back(worker)
            return answer

    def idle_worker_pids(self) -> list[int]:
        """Process ids of the workers waiting for a job (diagnostics and tests)."""
        with self._lock:
            return [worker.process.pid for worker in self._idle]

    def cpu_used(self) -> float:
        """Worker CPU seconds the jobs sent so far have used (as far as ``/proc`` shows,
        a job cut at its budget included): what a budget that counts workers reads."""
        with self._lock:
            return self._cpu_used

    def start_soon(self) -> None:
        """Start one worker now on a background thread, so the first job does not wait
        for a process start (a job that comes while it starts waits for it, and does not
        start a second). Nothing when a worker is idle or starting, or the pool is closed;
        a worker that does not start is logged, and the first job tries again."""
        with self._lock:
            if self._closed or self._idle or self._starting is not None:
                return
            worker = self._spawn()
            done = threading.Event()
            self._starting = (worker, done)
        thread = threading.Thread(
            target=self._finish_start,
            args=(worker, done),
            name=f"askdocs-{self.name}-worker-start",
            daemon=True,
        )
        thread.start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
            starting, self._starting = self._starting, None
        for worker in idle:
            worker.stop()
        if starting is not None:  # its thread sees the process end and cleans up
            worker, done = starting
            worker.process.kill()
            done.wait(STARTUP_TIMEOUT)

    def _spawn(self) -> _Worker:
        worker = _Worker(self._command)
        self.started += 1
        return worker

    def _finish_start(self, worker: _Worker, done: threading.Event) -> None:
        try:
            worker.await_ready(self.name)
        except WorkerFailed as exc:
            with self._lock:
                closed = self._closed
            if not closed:
                log.warning("%s", exc)
        else:
            self._give_back(worker)
        finally:
            with self._lock:
                if self._starting is not None and self._starting[0] is worker:
                    self._starting = None
            done.set()

    def _run(self, worker: _Worker, job: object) -> Answer:
        started = worker.cpu_seconds()
        try:
            with self._lock:
                self.jobs += 1
            worker.writer.send(job)
            if not self._answered(worker, started):
                raise WorkerTimeout(f"{self.name} took longer than {self.timeout:g} s")
            status, value = worker.reader.recv()
        except (EOFError, OSError) as exc:
            raise WorkerFailed(f"the {self.name} worker stopped") from exc
        finally:
            self._count_cpu(worker, started)
        return str(status), value

    def _count_cpu(self, worker: _Worker, started: float | None) -> None:
        ended = worker.cpu_seconds()
        if started is not None and ended is not None:
            with self._lock:
                self._cpu_used += max(0.0, ended - started)

    def _answered(self, worker: _Worker, cpu_at_send: float | None) -> bool:
        """Wait for the answer while the job has used less than ``timeout`` seconds of the
        worker's CPU (and less than ``WALL_FACTOR`` times that in wall time).

        The budget is CPU time, not wall time: on a loaded machine a page that parses in
        1 s of CPU can take 5-10 s of wall time, and a wall budget then silently dropped it
        from the index (fastapi's release notes, at load 15 on 2 cores). Where the worker's
        CPU time cannot be read, the budget is wall time.
        """
        deadline = time.monotonic() + self.timeout * WALL_FACTOR
        budget = self.timeout
        while True:
            if worker.reader.poll(budget):
                return True
            used = worker.cpu_seconds()
            if cpu_at_send is None or used is None:
                return False
            left = self.timeout - (used - cpu_at_send)
            wall_left = deadline - time.monotonic()
            if left <= 0 or wall_left <= 0:
                return False
            budget = min(max(left, 0.05), wall_left)

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise WorkerFailed(f"the {self.name} pool is closed")
            if self._idle:
                return self._idle.pop()
            starting = self._starting
        if starting is not None:  # start_soon's worker is on its way: wait for it
            starting[1].wait(STARTUP_TIMEOUT)
            with self._lock:
                if self._closed:
                    raise WorkerFailed(f"the {self.name} pool is closed")
                if self._idle:
                    return self._idle.pop()
        with self._lock:
            worker = self._spawn()
        worker.await_ready(self.name)
        return worker

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(worker)
                return
        worker.stop()


class PooledWorkers:
    """A pool's owner (``ParsePool``, ``RenderPool``, ``SearchProcesses``): what it shows of
    its workers, the same for each. A subclass sets ``_pool``."""

    _pool: WorkerPool

    def start_soon(self) -> None:
        """Start one worker in the background now, before the first job needs it."""
        self._pool.start_soon()

    @property
    def workers_started(self) -> int:
        """Worker processes started so far (diagnostics and tests)."""
        return self._pool.started

    def idle_worker_pids(self) -> list[int]:
        """Process ids of the workers waiting for a job (diagnostics and tests)."""
        return self._pool.idle_worker_pids()

    def close(self) -> None:
        self._pool.close()


def serve(answer: Callable[[object], Answer]) -> None:
    """A worker's main loop: announce readiness, then answer jobs until stdin closes."""
    protocol_out = os.dup(1)
    os.dup2(2, 1)
    reader = Connection(0, writable=False)
    writer = Connection(protocol_out, readable=False)
    writer.send(("ready", None))
    while True:
        try:
            job = reader.recv()
        except (EOFError, OSError):
            return
        writer.send(answer(job))
