"""How one HTTP search runs (seed 003 "DocsSearchExecution"): who pays, how many at once,
for how long, and what happens when the caller leaves.

``App.search_execution`` runs every ``GET /api/search``, in this order:

1. **Concurrency, before any work.** The account (the signed-in user, else the visitor's
   hashed address) runs at most ``search.max_concurrent_per_account`` searches at once in
   this process; the next one is refused at once with ``429 search_concurrency_limit``
   (``Retry-After: 1``). A slot is given back when the work really ends, or when it is
   dropped before it started, not when the response goes out: abandoned work still counts.
2. **Spend, before any work.** With a hosted embedding provider every search pays for one
   query embedding, so the account's daily budget ``search.daily_budget_per_account`` is
   counted in the limits store (Redis or the SQLite file, as Ask AI's limits):
   ``429 search_budget_exceeded`` when it is spent, ``503 limits_unavailable`` when the
   store cannot answer (fails closed, never counts as allowed). The bundled local model
   costs nothing per query and counts nothing. 0 turns the budget off.
3. **Deadline.** The search runs on the blocking pool with a ``StopToken`` whose deadline is
   ``search.timeout_seconds`` after admission (queueing included); past it the answer is
   ``503 search_timeout`` and the work stops at its next check.
4. **Cancellation.** While the search runs the connection is watched: a caller that
   disconnects stops the token (the work ends at its next check, a search still queued
   never starts), and the request ends as ``499 client_closed_request`` in the log and the
   metrics (nobody is left to read it).

``SearchMetrics`` counts answers by status, work stopped early by reason, and searches in
flight (``GET /api/v1/metrics``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from askdocs.blocking import BlockingPool
from askdocs.error_codes import ErrorCode
from askdocs.errors import (
    AskDocsError,
    DeadlineExceeded,
    RateLimited,
    ServiceUnavailable,
)
from askdocs.guard.limiter import Limiter
from askdocs.guard.limits import Counter as LimitCounter
from askdocs.guard.limits import utc_day
from askdocs.search.stop import StopToken, client_closed
from askdocs.settings import SearchSettings
from askdocs.types import SearchResult

log = logging.getLogger(__name__)
SearchWork = Callable[[StopToken], SearchResult]


@dataclass
class SearchMetrics:
    """Process-wide counters of the search route (thread-safe)."""

    statuses: Counter[int] = field(default_factory=Counter)
    stopped: Counter[str] = field(default_factory=Counter)  # by the stop reason's code
    in_flight: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def answered(self, status: int) -> None:
        with self._lock:
            self.statuses[status] += 1

    def work_stopped(self, code: str) -> None:
        with self._lock:
            self.stopped[code] += 1

    def running(self, change: int) -> None:
        with self._lock:
            self.in_flight += change

    def snapshot(self) -> tuple[dict[int, int], dict[str, int], int]:
        with self._lock:
            return dict(self.statuses), dict(self.stopped), self.in_flight


class AccountSlots:
    """At most ``per_account`` searches of one account at once (thread-safe)."""

    def __init__(self, per_account: int) -> None:
        self.per_account = per_account
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, account: str) -> Callable[[], None]:
        """A slot for ``account``, or ``RateLimited``; returns its (idempotent) release."""
        with self._lock:
            if self._held[account] >= self.per_account:
                raise concurrency_refusal(self.per_account)
            self._held[account] += 1
        released = threading.Event()

        def release() -> None:
            if released.is_set():
                return
            released.set()
            with self._lock:
                self._held[account] -= 1
                if self._held[account] <= 0:
                    del self._held[account]

        return release

    def held(self, account: str) -> int:
        with self._lock:
            return self._held[account]


def concurrency_refusal(limit: int) -> RateLimited:
    return RateLimited(
        f"this account already runs {limit} searches at once; retry when one has finished",
        retry_after=1,
        code=ErrorCode.SEARCH_CONCURRENCY_LIMIT,
    )


def spend_counter(account: str, limit: int, now: int) -> LimitCounter:
    """The account's daily search budget (a fixed window, reset at UTC midnight)."""
    day, reset = utc_day(now)
    return LimitCounter(
        f"day:{day}:search:{account}",
        limit,
        reset,
        ErrorCode.SEARCH_BUDGET_EXCEEDED,
        f"this account has spent its daily search budget ({limit} searches)",
    )


class SearchExecution:
    """Admission, deadline and cancellation for every HTTP search of one process."""

    def __init__(self, settings: SearchSettings, limiter: Limiter, pool: BlockingPool) -> None:
        self.settings = settings
        self.limiter = limiter
        self.pool = pool
        self.slots = AccountSlots(settings.max_concurrent_per_account)
        self.metrics = SearchMetrics()

    async def run(
        self, account: str, paid: bool, work: SearchWork, gone: Callable[[], Awaitable[None]]
    ) -> SearchResult:
        """``work`` for ``account`` once admitted; ``gone()`` returns when the caller left.
        ``paid``: the query embedding is billed (the spend budget applies)."""
        try:
            result = await self._admitted(account, paid, work, gone)
        except AskDocsError as exc:
            self.metrics.answered(exc.status)
            raise
        self.metrics.answered(200)
        return result

    async def _admitted(
        self, account: str, paid: bool, work: SearchWork, gone: Callable[[], Awaitable[None]]
    ) -> SearchResult:
        release = self.slots.take(account)
        try:
            if paid:
                await self._spend(account)
            stop = StopToken(time.monotonic() + self.settings.timeout_seconds)
            future = self.pool.submit(self._stoppable(work, stop))
        except BaseException:
            release()
            raise
        future.add_done_callback(lambda _: release())
        return await self._await(future, stop, gone)

    async def _spend(self, account: str) -> None:
        limit = self.settings.daily_budget_per_account
        if limit <= 0:
            return
        now = int(time.time())
        try:
            await self.limiter.consume_one(spend_counter(account, limit, now), now)
        except ServiceUnavailable as exc:
            raise ServiceUnavailable(
                "search is unavailable right now: its budget cannot be checked",
                code=ErrorCode.LIMITS_UNAVAILABLE,
            ) from exc

    def _stoppable(self, work: SearchWork, stop: StopToken) -> Callable[[], SearchResult]:
        """``work`` on a pool thread, counted in flight, its early stop counted by reason."""

        def run() -> SearchResult:
            self.metrics.running(+1)
            try:
                return work(stop)
            except AskDocsError as exc:
                if stop.stopped_at is not None:
                    self.metrics.work_stopped(exc.code)
                    log.info("search work stopped before %s: %s", stop.stopped_at, exc.code)
                raise
            finally:
                self.metrics.running(-1)

        return run

    async def _await(
        self, future: Future[SearchResult], stop: StopToken, gone: Callable[[], Awaitable[None]]
    ) -> SearchResult:
        answer: asyncio.Future[SearchResult] = asyncio.wrap_future(future)
        watcher: asyncio.Future[None] = asyncio.ensure_future(gone())
        timeout = max(0.0, (stop.deadline or 0.0) - time.monotonic())
        waited: set[asyncio.Future[Any]] = {answer, watcher}
        try:
            done, _ = await asyncio.wait(
                waited, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            watcher.cancel()
        if answer in done:
            return answer.result()
        reason = client_closed() if watcher in done else deadline_exceeded()
        stop.stop(reason)
        future.cancel()  # a search still queued never starts
        answer.cancel()
        if watcher in done:
            log.info("GET /api/search -> 499 %s", reason.code)
        raise reason


def deadline_exceeded() -> DeadlineExceeded:
    return DeadlineExceeded("the search took longer than its deadline and was stopped")


async def until_disconnected(receive: Callable[[], Awaitable[MutableMapping[str, Any]]]) -> None:
    """Return when the ASGI connection reports ``http.disconnect`` (a GET has no body, so
    the first message is the empty request and the next one waits for the disconnect)."""
    while (await receive()).get("type") != "http.disconnect":
        continue
