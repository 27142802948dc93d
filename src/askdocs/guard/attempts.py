"""Sign-in attempts are rate limited per email address and per visitor, failing closed.

Every attempt counts (a right password too), in fixed windows of
``auth.sign_in_window_seconds``; the email is counted by its hash, never stored in clear.
"""

from __future__ import annotations

import hashlib

import anyio

from askdocs.error_codes import ErrorCode
from askdocs.errors import RateLimited, ServiceUnavailable
from askdocs.guard.limits import Counter, RateLimitStore, retry_after
from askdocs.settings import AuthSettings


def attempt_counters(auth: AuthSettings, email: str, visitor: str, now: int) -> list[Counter]:
    window = auth.sign_in_window_seconds
    slot, ends = now // window, (now // window + 1) * window
    digest = hashlib.sha256(email.strip().lower().encode("utf-8")).hexdigest()[:32]
    what = "too many sign-in attempts; wait and try again"
    return [
        Counter(
            f"signin:email:{digest}:{slot}",
            auth.sign_in_attempts_per_email,
            ends,
            ErrorCode.SIGN_IN_LIMITED,
            what,
        ),
        Counter(
            f"signin:visitor:{visitor}:{slot}",
            auth.sign_in_attempts_per_visitor,
            ends,
            ErrorCode.SIGN_IN_LIMITED,
            what,
        ),
    ]


async def count_attempt(
    store: RateLimitStore, auth: AuthSettings, email: str, visitor: str, now: int, timeout: float
) -> None:
    """Count one attempt; ``RateLimited`` (429) at a limit, 503 when the store cannot answer."""
    counters = attempt_counters(auth, email, visitor, now)
    try:
        with anyio.fail_after(timeout):
            consumed = await store.consume(counters, now)
    except Exception:
        raise ServiceUnavailable(
            "sign-in is unavailable right now: its attempt limits cannot be checked",
            code=ErrorCode.LIMITS_UNAVAILABLE,
        ) from None
    if consumed.blocked is not None:
        counter = counters[consumed.blocked]
        raise RateLimited(counter.what, retry_after=retry_after(counter, now), code=counter.code)
