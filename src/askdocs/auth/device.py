"""Device cookies (pure): a browser that signed in to an account before is recognised.

After a successful sign-in the browser gets an HttpOnly cookie naming the account (by the
SHA-256 of its email, never the address) and a random device id, sealed with an
HMAC-SHA256. Sign-in attempts from a recognised device are counted per device; attempts
from every other client are counted per account and client and per account as a whole,
so a stranger's wrong guesses pause password sign-in for strangers, never for the owner's
own browsers (OWASP's "device cookies" against targeted lockout; see
``askdocs.guard.attempts`` and docs/sign-in.md).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

DEVICE_COOKIE = "askdocs_device"
DEVICE_PURPOSE = "askdocs device"


def account_digest(email: str) -> str:
    """How limits and device cookies name an account: its email's SHA-256 (a prefix)."""
    return hashlib.sha256(email.strip().lower().encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class DeviceMark:
    account: str  # account_digest of the email
    device: str  # random, one per browser
    issued_at: int

    @classmethod
    def fresh(cls, email: str, now: int) -> DeviceMark:
        return cls(account_digest(email), secrets.token_urlsafe(16), now)


def _mac(key: bytes, body: str) -> str:
    return hmac.new(key, body.encode("ascii"), hashlib.sha256).hexdigest()


def seal(key: bytes, mark: DeviceMark) -> str:
    body = f"{mark.account}.{mark.device}.{mark.issued_at}"
    return body + "." + _mac(key, body)


def unseal(key: bytes, value: str | None, now: int, max_age: int) -> DeviceMark | None:
    """The mark when the MAC holds and it is younger than ``max_age`` seconds; else None."""
    body, _, mac = (value or "").rpartition(".")
    if not body or not body.isascii() or not hmac.compare_digest(mac, _mac(key, body)):
        return None
    parts = body.split(".")
    if len(parts) != 3 or not parts[2].isdigit() or not 0 <= now - int(parts[2]) < max_age:
        return None
    return DeviceMark(parts[0], parts[1], int(parts[2]))


def recognised(key: bytes, value: str | None, email: str, now: int, max_age: int) -> str | None:
    """The device id when ``value`` is a live device cookie of ``email``'s account."""
    mark = unseal(key, value, now, max_age)
    return mark.device if mark is not None and mark.account == account_digest(email) else None
