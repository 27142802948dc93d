"""Rendering with a time budget: Markdown is rendered in worker processes that can be killed
(``askdocs.workers``; the worker is ``python -m askdocs.reader.worker``). A render that
outlives its budget gets its worker killed and replaced, and the caller gets
``RenderFailed``. Workers start on first use, or in the background with ``start_soon()``.
"""

from __future__ import annotations

from askdocs.reader.markup import Markup, MarkupJob
from askdocs.workers import PooledWorkers, WorkerFailed, WorkerPool, WorkerTimeout


class RenderFailed(Exception):
    """A render that timed out, produced too much output or crashed its worker."""


class RenderPool(PooledWorkers):
    """At most ``workers`` renders at a time, each bounded by ``timeout`` seconds."""

    def __init__(self, *, workers: int, timeout: float, max_output_chars: int) -> None:
        self.timeout = timeout
        self.max_output_chars = max_output_chars
        self._pool = WorkerPool(
            "askdocs.reader.worker",
            [str(max_output_chars)],
            workers=workers,
            timeout=timeout,
            name="render",
        )

    def render(self, job: MarkupJob) -> Markup:
        try:
            status, value = self._pool.call(job)
        except WorkerTimeout:
            raise RenderFailed(f"rendering took longer than {self.timeout:g} s") from None
        except WorkerFailed as exc:
            raise RenderFailed(str(exc)) from None
        if status == "ok" and isinstance(value, Markup):
            return value
        if status == "too-large":
            raise RenderFailed(f"rendered HTML is too large ({value} characters)")
        raise RenderFailed(f"rendering failed: {value}")
