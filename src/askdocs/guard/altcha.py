"""The self-hosted bot check: ALTCHA proof of work (PyPI ``altcha``, protocol v2).

``GET /api/altcha/challenge`` hands out a challenge: PBKDF2/SHA-256 with
``bot_check.altcha_cost`` iterations, a random counter below ``bot_check.altcha_max_number``
that the browser must find (the difficulty), an expiry ``bot_check.altcha_expire_seconds``
ahead, and the action it is for, all signed with an HMAC key derived from the JWT signing
key (so every replica signs and checks alike). The widget (npm ``altcha``, served by
askdocs itself) solves it and sends the solution as the bot-check token. ``verify``:

1. the token is at most ``MAX_PAYLOAD_CHARS`` and a solution of a challenge this server
   signed, not expired, whose derived key is right (checked by the key's own HMAC, so
   checking costs no key derivation), for this action;
2. the solution is accepted **once**: its challenge signature is counted in the limits
   store (SQLite or Redis, shared by every replica) with a limit of one until the
   challenge expires, so a replayed solution is refused everywhere.

Failures are ``403 bot_check_failed``; a limits store that cannot answer is ``503
bot_check_unavailable`` (fails closed).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import altcha
import anyio

from askdocs.error_codes import ErrorCode
from askdocs.errors import Forbidden, ServiceUnavailable
from askdocs.guard.limits import Counter, RateLimitStore

log = logging.getLogger(__name__)
ALGORITHM = "PBKDF2/SHA-256"
MAX_PAYLOAD_CHARS = 4096


@dataclass(frozen=True)
class AltchaPolicy:
    cost: int  # PBKDF2 iterations per try
    max_number: int  # the counter to find is below this: the difficulty
    expire_seconds: int
    store_timeout: float


@dataclass(frozen=True)
class AltchaKeys:
    challenge: bytes  # signs the challenge's parameters
    solution: bytes  # signs the derived key (fast verification)


class AltchaCheck:
    name = "altcha"

    def __init__(
        self,
        keys: AltchaKeys | Callable[[], AltchaKeys],  # a callable: read when needed
        policy: AltchaPolicy,
        store: RateLimitStore,
    ) -> None:
        self._keys_of = keys
        self._policy = policy
        self._store = store

    @property
    def _keys(self) -> AltchaKeys:
        keys = self._keys_of
        return keys() if callable(keys) else keys

    def challenge(self, action: str, now: int | None = None) -> dict[str, Any]:
        """A fresh signed challenge for ``action`` (the widget's JSON)."""
        moment = int(time.time()) if now is None else now
        made = altcha.create_challenge(
            ALGORITHM,
            self._policy.cost,
            counter=secrets.randbelow(self._policy.max_number),
            expires_at=moment + self._policy.expire_seconds,
            data={"action": action},
            hmac_secret=self._keys.challenge,
            hmac_key_secret=self._keys.solution,
        )
        challenge: dict[str, Any] = made.to_dict()
        return challenge

    async def verify(
        self, token: str, *, action: str, hostnames: Collection[str], remote_ip: str | None
    ) -> None:
        payload = self._solved(token, action, int(time.time()))
        await self._once(payload, int(time.time()))

    def _solved(self, token: str, action: str, now: int) -> altcha.Payload:
        if not token or len(token) > MAX_PAYLOAD_CHARS:
            raise _failed("missing or malformed bot-check solution")
        try:
            payload = altcha.Payload.from_base64(token)
            result = altcha.verify_solution(
                payload, self._keys.challenge, hmac_key_secret=self._keys.solution
            )
        except Exception:  # whatever a forged payload makes the parser do, it is refused
            raise _failed("missing or malformed bot-check solution") from None
        if not result.verified:
            raise _failed("the bot-check solution is expired or wrong")
        params = payload.challenge.parameters
        expires = params.expires_at
        if not isinstance(expires, int) or expires > now + self._policy.expire_seconds:
            raise _failed("the bot-check challenge has no valid expiry")
        if (params.data or {}).get("action") != action:
            raise _failed("the bot-check challenge was issued for another action")
        return payload

    async def _once(self, payload: altcha.Payload, now: int) -> None:
        signature = str(payload.challenge.signature)
        digest = hashlib.sha256(signature.encode("ascii", "replace")).hexdigest()[:40]
        expires = int(payload.challenge.parameters.expires_at or now) + 1
        used = Counter(f"altcha:{digest}", 1, expires, ErrorCode.BOT_CHECK_FAILED, "used")
        try:
            with anyio.fail_after(self._policy.store_timeout):
                consumed = await self._store.consume([used], now)
        except Exception as exc:
            log.warning("altcha replay check failed: %s", type(exc).__name__)
            raise ServiceUnavailable(
                "the bot check cannot be completed right now", code=ErrorCode.BOT_CHECK_UNAVAILABLE
            ) from None
        if consumed.blocked is not None:
            raise _failed("this bot-check solution was already used")


def _failed(message: str) -> Forbidden:
    return Forbidden(message, code=ErrorCode.BOT_CHECK_FAILED)
