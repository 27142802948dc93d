"""Rate limits: the store protocol and the pure arithmetic of windows, keys and retry times.

A ``Counter`` is one window counter (a key, its limit, and when its key may expire). The
daily counters are fixed windows (they reset at UTC midnight). The burst counter is a
sliding window: its count is this minute's count plus the previous minute's count weighted
by the share of the previous minute still inside the last 60 seconds, so no burst of twice
the limit fits across a minute boundary. A store's ``consume`` is all-or-nothing: if any
counter is at its limit nothing is counted and the first such counter is reported;
otherwise every counter goes up by one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from askdocs.error_codes import ErrorCode

MINUTE = 60
GUARD_FACTOR = 10  # a check altogether: 5 s at the default 0.5 s timeout


@dataclass(frozen=True)
class Counter:
    key: str
    limit: int
    expires_at: int  # epoch seconds when the window ends
    code: ErrorCode  # the error code when this counter is the one at its limit
    what: str  # for the message: "the per-visitor burst limit"
    previous: str | None = None  # sliding window: the previous window's key
    previous_weight: float = 0.0  # the share of the previous window still counted
    retry_at: int | None = None  # when to retry (default: expires_at)


def sliding_count(current: int, previous: int, weight: float) -> int:
    """The sliding-window estimate, rounded up (never under-counts a whole request)."""
    return current + math.ceil(previous * weight - 1e-9)


@dataclass(frozen=True)
class Consumed:
    """``counts`` are the counters' values after counting (when allowed) or as they stand."""

    allowed: bool
    counts: tuple[int, ...]
    blocked: int | None = None  # index of the first counter at its limit


class RateLimitStore(Protocol):
    """Where counters live. Every failure to reach the store raises (never counts as allowed)."""

    name: str

    async def consume(self, counters: Sequence[Counter], now: int) -> Consumed: ...

    async def peek(self, counters: Sequence[Counter], now: int) -> tuple[int, ...]:
        """The counters' current values (fixed windows), counting nothing."""
        ...

    async def ping(self) -> None:
        """Return when the store answers; raise when it does not (readiness)."""
        ...

    async def close(self) -> None: ...


def guard_seconds(limits_timeout_seconds: float) -> float:
    """The bound on one check altogether, awaited on the event loop. A store keeps
    ``ask.limits_timeout_seconds`` itself where it waits (Redis's socket, SQLite's busy
    timeout), so a loaded event loop never counts against it; this only ends a check of a
    store that neither answers nor fails."""
    return GUARD_FACTOR * limits_timeout_seconds


def burst_counter(visitor: str, limit: int, now: int) -> Counter:
    """A 60-second sliding window over two minute keys (each kept two minutes)."""
    window, elapsed = divmod(now, MINUTE)
    return Counter(
        f"burst:{visitor}:{window}",
        limit,
        (window + 2) * MINUTE,
        ErrorCode.BURST_LIMIT,
        f"too many questions in a minute (limit {limit})",
        previous=f"burst:{visitor}:{window - 1}",
        previous_weight=(MINUTE - elapsed) / MINUTE,
        retry_at=(window + 1) * MINUTE,
    )


def daily_counters(
    visitor: str, site: str, limits: tuple[int, int, int], now: int
) -> tuple[Counter, Counter, Counter]:
    """Per visitor on this site, per site, across all sites; they reset at UTC midnight."""
    day, reset = utc_day(now)
    visitor_limit, site_limit, global_limit = limits
    return (
        Counter(
            f"day:{day}:visitor:{site}:{visitor}",
            visitor_limit,
            reset,
            ErrorCode.VISITOR_DAILY_LIMIT,
            f"you have asked {visitor_limit} questions today, the daily limit",
        ),
        Counter(
            f"day:{day}:site:{site}",
            site_limit,
            reset,
            ErrorCode.SITE_DAILY_LIMIT,
            "this site has reached its daily number of questions",
        ),
        Counter(
            f"day:{day}:all",
            global_limit,
            reset,
            ErrorCode.GLOBAL_DAILY_LIMIT,
            "the service has reached its daily number of questions",
        ),
    )


def utc_day(now: int) -> tuple[str, int]:
    """The UTC date of ``now`` and the epoch second of the next UTC midnight."""
    moment = datetime.fromtimestamp(now, UTC)
    midnight = datetime(moment.year, moment.month, moment.day, tzinfo=UTC) + timedelta(days=1)
    return moment.date().isoformat(), int(midnight.timestamp())


def retry_after(counter: Counter, now: int) -> int:
    at = counter.retry_at if counter.retry_at is not None else counter.expires_at
    return max(1, at - now)


def remaining(counters: Sequence[Counter], counts: Sequence[int]) -> int:
    """What is left of the tightest counter."""
    return max(0, min(c.limit - n for c, n in zip(counters, counts, strict=True)))
