"""Password checks are rate limited, failing closed, without letting a stranger lock the
owner out (issue 27, defects 3 and 7).

Every password check counts: signing in, and changing a password (its current password is
a check too). The counters live in fixed windows of ``auth.sign_in_window_seconds``; an
account is named by its email's hash, never in clear:

- per client (visitor): every check from it, whatever the account;
- from a browser with the account's device cookie (``askdocs.auth.device``): per device;
- from any other client: per account and client (``sign_in_attempts_per_account_client``:
  one client's guesses are slowed down, with ``Retry-After``, until its window ends), and
  per account across every such client (``sign_in_attempts_per_email``: a distributed
  guesser stops too). The owner's own browsers are counted apart and are never paused by
  a stranger; a new browser signs in with single sign-on or a reset link instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import anyio

from askdocs.auth.device import account_digest
from askdocs.errors import RateLimited, ServiceUnavailable
from askdocs.guard.limits import Counter, RateLimitStore, retry_after
from askdocs.settings import AuthSettings

CODE = "sign_in_limited"
TOO_MANY = "too many sign-in attempts; wait and try again"
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


def attempt_counters(auth: AuthSettings, attempt: Attempt, now: int) -> list[Counter]:
    window = auth.sign_in_window_seconds
    slot, ends = now // window, (now // window + 1) * window
    account = account_digest(attempt.email)

    def counter(key: str, limit: int, what: str = TOO_MANY) -> Counter:
        return Counter(f"signin:{key}:{slot}", limit, ends, CODE, what)

    counters = [counter(f"visitor:{attempt.visitor}", auth.sign_in_attempts_per_visitor)]
    if attempt.device is not None:
        return [
            *counters,
            counter(f"device:{account}:{attempt.device}", auth.sign_in_attempts_per_device),
        ]
    return [
        *counters,
        counter(f"client:{account}:{attempt.visitor}", auth.sign_in_attempts_per_account_client),
        counter(f"email:{account}", auth.sign_in_attempts_per_email, STRANGERS),
    ]


async def count_attempt(
    store: RateLimitStore, auth: AuthSettings, attempt: Attempt, now: int, timeout: float
) -> None:
    """Count one check; ``RateLimited`` (429) at a limit, 503 when the store cannot answer."""
    counters = attempt_counters(auth, attempt, now)
    try:
        with anyio.fail_after(timeout):
            consumed = await store.consume(counters, now)
    except Exception:
        raise ServiceUnavailable(
            "sign-in is unavailable right now: its attempt limits cannot be checked",
            code="limits_unavailable",
        ) from None
    if consumed.blocked is not None:
        counter = counters[consumed.blocked]
        raise RateLimited(counter.what, retry_after=retry_after(counter, now), code=counter.code)
