"""Rendering with a time budget: Markdown is parsed in worker processes that can be killed.

Pathological Markdown (deep link openers, emphasis runs) makes markdown-it spend seconds
per kilobyte. A thread cannot be stopped, so each render runs in a small pool of worker
processes (``python -m askdocs.reader.worker``); a render that outlives its budget gets its
worker killed and replaced, and the caller gets ``RenderFailed``. Workers start on first use.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from multiprocessing.connection import Connection

from askdocs.reader.markup import Markup, MarkupJob

STARTUP_TIMEOUT = 30.0


class RenderFailed(Exception):
    """A render that timed out, produced too much output or crashed its worker."""


class _Worker:
    def __init__(self, max_output_chars: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "askdocs.reader.worker", str(max_output_chars)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
        )
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.writer = Connection(os.dup(self.process.stdin.fileno()), readable=False)
        self.reader = Connection(os.dup(self.process.stdout.fileno()), writable=False)
        self.process.stdin.close()
        self.process.stdout.close()
        self._await_ready()

    def _await_ready(self) -> None:
        """A fresh worker says it is ready once imported, so start-up never eats into a
        render's time budget."""
        try:
            if self.reader.poll(STARTUP_TIMEOUT) and self.reader.recv()[0] == "ready":
                return
        except (EOFError, OSError):
            pass
        self.stop()
        raise RenderFailed("the render worker did not start")

    def stop(self) -> None:
        self.writer.close()
        self.reader.close()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=5)


class RenderPool:
    """At most ``workers`` renders at a time, each bounded by ``timeout`` seconds."""

    def __init__(self, *, workers: int, timeout: float, max_output_chars: int) -> None:
        self.timeout = timeout
        self.max_output_chars = max_output_chars
        self._slots = threading.BoundedSemaphore(workers)
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._closed = False

    def render(self, job: MarkupJob) -> Markup:
        with self._slots:
            worker = self._take()
            try:
                result = self._run(worker, job)
            except BaseException:
                worker.stop()
                raise
            self._give_back(worker)
            return result

    def _run(self, worker: _Worker, job: MarkupJob) -> Markup:
        try:
            worker.writer.send(job)
            if not worker.reader.poll(self.timeout):
                raise RenderFailed(f"rendering took longer than {self.timeout:g} s")
            status, value = worker.reader.recv()
        except (EOFError, OSError) as exc:
            raise RenderFailed("the render worker stopped") from exc
        if status == "ok" and isinstance(value, Markup):
            return value
        if status == "too-large":
            raise RenderFailed(f"rendered HTML is too large ({value} characters)")
        raise RenderFailed(f"rendering failed: {value}")

    def idle_worker_pids(self) -> list[int]:
        """Process ids of the workers waiting for a render (diagnostics and tests)."""
        with self._lock:
            return [worker.process.pid for worker in self._idle]

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise RenderFailed("the render pool is closed")
            if self._idle:
                return self._idle.pop()
        return _Worker(self.max_output_chars)

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(worker)
                return
        worker.stop()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.stop()
