"""The one way to run blocking engine work (searches, corpus reads) off the event loop.

``BlockingPool`` is a fixed set of worker threads. A caller that stops waiting (a timeout,
a dropped request) abandons its call: a call not yet started is cancelled, a running one
finishes on its thread, and that thread stays taken until it does, so abandoned calls can
never push the number of threads past ``size``; new calls queue behind them instead.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def usable_cpus() -> int:
    """CPU cores this process may run on (respects affinity and container cpusets)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def pool_size(configured: int | None) -> int:
    """``server.search_concurrency``, or one thread per usable core when unset: the work
    is CPU-bound (query embedding, scoring), so more threads only queue inside the kernel
    scheduler and stretch every request's latency."""
    return configured or usable_cpus()


class BlockingPool:
    """At most ``size`` blocking calls run at once, counting abandoned ones."""

    def __init__(self, size: int, name: str = "askdocs-blocking") -> None:
        if size < 1:
            raise ValueError("a blocking pool needs at least one thread")
        self.size = size
        self._executor = ThreadPoolExecutor(max_workers=size, thread_name_prefix=name)

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` on a pool thread. Cancelling the caller abandons the call (see above)."""
        return await asyncio.wrap_future(self._executor.submit(fn))

    def submit(self, fn: Callable[[], T]) -> Future[T]:
        """``fn()`` on a pool thread as a concurrent future: ``cancel()`` drops it while it
        waits in the queue; its done callbacks run when it ends or is dropped."""
        return self._executor.submit(fn)

    def close(self) -> None:
        """Cancel queued calls; running ones end on their own (never waited for)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
