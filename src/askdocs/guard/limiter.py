"""Ask AI's limits over a store, failing closed.

``burst`` and ``daily`` raise ``RateLimited`` (429, with Retry-After) at a limit, and
``ServiceUnavailable`` (503, code ``limits_unavailable``) when the store cannot answer:
refused, or silent past ``ask.limits_timeout_seconds`` (each store keeps that bound where it
waits: Redis's socket, SQLite's busy timeout, so a loaded event loop never counts against
the store). ``guard_seconds`` (``limits.GUARD_FACTOR`` x the timeout) bounds a check altogether,
for a store that neither answers nor fails. There is no fallback to per-process or
unlimited counting.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

import anyio

from askdocs.error_codes import ErrorCode
from askdocs.errors import RateLimited, ServiceUnavailable
from askdocs.guard.limits import (
    Consumed,
    Counter,
    RateLimitStore,
    burst_counter,
    daily_counters,
    guard_seconds,
    remaining,
    retry_after,
)
from askdocs.guard.store_sqlite import SQLiteLimitsStore
from askdocs.settings import Settings

log = logging.getLogger(__name__)
LIMITS_FILE = "limits.sqlite3"


class Limiter:
    def __init__(self, store: RateLimitStore, settings: Settings) -> None:
        self.store = store
        self._ask = settings.ask
        self.guard_seconds = guard_seconds(settings.ask.limits_timeout_seconds)

    async def burst(self, visitor: str, now: int | None = None) -> None:
        now = _now(now)
        await self._consume([burst_counter(visitor, self._ask.burst_per_minute, now)], now)

    async def consume_one(self, counter: Counter, now: int) -> None:
        """Count one against ``counter`` (another per-visitor limit, e.g. feedback)."""
        await self._consume([counter], now)

    async def daily(self, visitor: str, site: str, now: int | None = None) -> int:
        """Count one question; return the questions left today (the tightest counter)."""
        now = _now(now)
        counters = self._daily(visitor, site, now)
        consumed = await self._consume(counters, now)
        return remaining(counters, consumed.counts)

    async def left_today(self, visitor: str, site: str, now: int | None = None) -> DailyLeft:
        """The questions left today and when the daily counters reset, counting nothing."""
        now = _now(now)
        counters = self._daily(visitor, site, now)
        try:
            with anyio.fail_after(self.guard_seconds):
                counts = await self.store.peek(counters, now)
        except Exception as exc:
            raise _unavailable(self.store.name, exc) from None
        return DailyLeft(remaining(counters, counts), counters[0].expires_at)

    def _daily(self, visitor: str, site: str, now: int) -> tuple[Counter, ...]:
        ask = self._ask
        limits = (ask.daily_visitor_limit, ask.daily_site_limit, ask.daily_global_limit)
        return daily_counters(visitor, site, limits, now)

    async def available(self) -> bool:
        """Whether the store answers a ping within the timeout (``/readyz``)."""
        try:
            with anyio.fail_after(self.guard_seconds):
                await self.store.ping()
        except Exception as exc:
            log.warning("limits store %s unavailable: %s", self.store.name, type(exc).__name__)
            return False
        return True

    async def close(self) -> None:
        await self.store.close()

    async def _consume(self, counters: Sequence[Counter], now: int) -> Consumed:
        try:
            with anyio.fail_after(self.guard_seconds):
                consumed = await self.store.consume(counters, now)
        except Exception as exc:
            raise _unavailable(self.store.name, exc) from None
        if consumed.blocked is not None:
            counter = counters[consumed.blocked]
            raise RateLimited(
                f"Rate limit reached: {counter.what}",
                retry_after=retry_after(counter, now),
                code=counter.code,
            )
        return consumed


@dataclass(frozen=True)
class DailyLeft:
    remaining: int
    resets_at: int  # epoch seconds (the next UTC midnight)


def _unavailable(store: str, exc: Exception) -> ServiceUnavailable:
    log.warning("limits store %s unavailable: %s", store, type(exc).__name__)
    return ServiceUnavailable(
        "Ask AI is unavailable right now: its usage limits cannot be checked",
        code=ErrorCode.LIMITS_UNAVAILABLE,
    )


def open_limits_store(settings: Settings) -> RateLimitStore:
    """Redis when ``redis_url`` is set, else the SQLite file in the data dir."""
    timeout = settings.ask.limits_timeout_seconds
    if settings.redis_url:
        from askdocs.guard.store_redis import RedisLimitsStore  # redis: 6 MB, only when used

        return RedisLimitsStore(settings.redis_url, timeout)
    return SQLiteLimitsStore(settings.data_dir / LIMITS_FILE, timeout)


def _now(now: int | None) -> int:
    return int(time.time()) if now is None else now
