"""Stopping a search nobody waits for (seed 003: caller cancellation and a retrieval lifetime).

A ``StopToken`` travels with one search from the route to the thread that runs it. The
route stops it when the caller goes away (``Cancelled``, 499) or when the search's deadline
passes (``DeadlineExceeded``, 503 ``search_timeout``); the retrieval checks it between its
steps (before planning, after the query embedding, after the engine query, before the
exact cosines and the unknown-name probes) and raises the reason at the first check after
it was stopped, so the work ends there instead of running on for an answer nobody reads.
A step already running (one query embedding, one engine query) finishes first: each is
bounded on its own (``embedding.query_timeout_seconds``, ``index.qdrant_timeout_seconds``).
Thread-safe: stopped from the event loop, checked on a pool thread.
"""

from __future__ import annotations

import threading
import time

from askdocs.errors import AskDocsError, Cancelled, DeadlineExceeded


class StopToken:
    """One search's stop signal and deadline (``time.monotonic`` seconds; None: none)."""

    def __init__(self, deadline: float | None = None) -> None:
        self.deadline = deadline
        self._event = threading.Event()
        self._reason: AskDocsError | None = None
        self.stopped_at: str | None = None  # the step whose check ended the work

    def stop(self, reason: AskDocsError) -> None:
        """Stop the work at its next check, which raises ``reason``. The first reason wins."""
        if not self._event.is_set():
            self._reason = reason
            self._event.set()

    @property
    def stopped(self) -> bool:
        return self._event.is_set()

    def check(self, step: str) -> None:
        """Raise the stop reason (or ``DeadlineExceeded`` past the deadline) before ``step``."""
        if self.deadline is not None and not self.stopped and time.monotonic() >= self.deadline:
            self.stop(DeadlineExceeded("the search outlived its deadline and was stopped"))
        if self._event.is_set() and self._reason is not None:
            self.stopped_at = step
            raise self._reason


def client_closed() -> Cancelled:
    return Cancelled("the caller went away before the answer; the search stopped")


class _Never(StopToken):
    """The token of work no caller can abandon: the CLI, the bench, warm-up searches."""

    def stop(self, reason: AskDocsError) -> None:
        return None


NEVER: StopToken = _Never()
