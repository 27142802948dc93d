"""Thread lanes: a few worker threads of their own for work that must never queue behind
the shared thread pool (which database-bound requests can fill while a database hangs).

``/readyz`` and the Ask AI limits check each run in their own lane; ``/healthz`` runs on
the event loop and needs no thread at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")


class Lane:
    """``tokens`` threads at most, created on first use inside the event loop."""

    def __init__(self, tokens: int = 2) -> None:
        self.tokens = tokens
        self._limiter: anyio.CapacityLimiter | None = None

    def limiter(self) -> anyio.CapacityLimiter:
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.tokens)
        return self._limiter

    async def run(self, call: Callable[[], T], *, abandon_on_cancel: bool = False) -> T:
        return await anyio.to_thread.run_sync(
            call, limiter=self.limiter(), abandon_on_cancel=abandon_on_cancel
        )


def app_lane(state: Any, name: str, tokens: int = 2) -> Lane:
    """The lane ``name`` kept on an app's ``state`` (one per app, so one per event loop)."""
    lane = getattr(state, name, None)
    if not isinstance(lane, Lane):
        lane = Lane(tokens)
        setattr(state, name, lane)
    return lane
