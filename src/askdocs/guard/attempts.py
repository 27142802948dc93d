"""Password checks are rate limited, failing closed, without letting a stranger lock the
owner out (issue 27, defects 3 and 7).

Every password check counts: signing in, and changing a password (its current password is
a check too). The counters live in fixed windows of ``auth.sign_in_window_seconds``; an
account is named by its email's hash, never in clear:

- per client (visitor): every check from it, whatever the account, counted before the
  password is verified (atomically: no burst gets past it);
- from a browser with the account's device cookie (``askdocs.auth.device``): every check
  from that browser, the same way;
- from any other client, the **failed** checks: per account and client
  (``sign_in_attempts_per_account_client``: one client's guesses are slowed down, with
  ``Retry-After``, until its window ends) and per account across every such client
  (``sign_in_attempts_per_email``: a distributed guesser stops too). A check is refused
  before the password is verified once either is at its limit.

The owner's own browsers are counted apart and are never paused by a stranger; a new
browser signs in with single sign-on or a reset link instead.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

import anyio

from askdocs.auth.device import account_digest
from askdocs.error_codes import ErrorCode
from askdocs.errors import RateLimited, ServiceUnavailable
from askdocs.guard.limits import Counter, RateLimitStore, retry_after
from askdocs.settings import AuthSettings

CODE = ErrorCode.SIGN_IN_LIMITED
TOO_MANY = "too many sign-in attempts; wait and try again"
T = TypeVar("T")
STRANGERS = (
    "too many sign-in attempts for this account from unrecognised browsers; wait, or sign "
    "in from a browser you signed in from before, with single sign-on or a reset link"
)


@dataclass(frozen=True)
class Attempt:
    """One password check: for ``email``, from ``visitor``, on a recognised ``device``."""

    email: str
    visitor: str
    device: str | None = None  # a live device cookie of this account names this browser


@dataclass(frozen=True)
class Counters:
    every: list[Counter]  # every check, counted before it runs
    failed: list[Counter]  # failed checks only (unrecognised clients), checked before


def attempt_counters(auth: AuthSettings, attempt: Attempt, now: int) -> Counters:
    window = auth.sign_in_window_seconds
    slot, ends = now // window, (now // window + 1) * window
    account = account_digest(attempt.email)

    def counter(key: str, limit: int, what: str = TOO_MANY) -> Counter:
        return Counter(f"signin:{key}:{slot}", limit, ends, CODE, what)

    every = [counter(f"visitor:{attempt.visitor}", auth.sign_in_attempts_per_visitor)]
    if attempt.device is not None:
        device = f"device:{account}:{attempt.device}"
        return Counters([*every, counter(device, auth.sign_in_attempts_per_device)], [])
    failed = [
        counter(f"client:{account}:{attempt.visitor}", auth.sign_in_attempts_per_account_client),
        counter(f"email:{account}", auth.sign_in_attempts_per_email, STRANGERS),
    ]
    return Counters(every, failed)


async def count_attempt(
    store: RateLimitStore, auth: AuthSettings, attempt: Attempt, now: int, timeout: float
) -> None:
    """Before a check: count it, and refuse it (``RateLimited`` 429) when the client, the
    browser or (for strangers) the account is at a limit; 503 when the store cannot answer."""
    counters = attempt_counters(auth, attempt, now)
    consumed = await _answer(store.consume(counters.every, now), timeout)
    if consumed.blocked is not None:
        raise _limited(counters.every[consumed.blocked], now)
    if counters.failed:
        counts = await _answer(store.peek(counters.failed, now), timeout)
        for counter, count in zip(counters.failed, counts, strict=True):
            if count >= counter.limit:
                raise _limited(counter, now)


async def count_failure(
    store: RateLimitStore, auth: AuthSettings, attempt: Attempt, now: int, timeout: float
) -> None:
    """After a wrong password from an unrecognised client: count it against the account."""
    failed = attempt_counters(auth, attempt, now).failed
    if failed:
        await _answer(store.consume(failed, now), timeout)


async def _answer(call: Awaitable[T], timeout: float) -> T:
    try:
        with anyio.fail_after(timeout):
            return await call
    except Exception:
        raise ServiceUnavailable(
            "sign-in is unavailable right now: its attempt limits cannot be checked",
            code=ErrorCode.LIMITS_UNAVAILABLE,
        ) from None


def _limited(counter: Counter, now: int) -> RateLimited:
    return RateLimited(counter.what, retry_after=retry_after(counter, now), code=counter.code)
