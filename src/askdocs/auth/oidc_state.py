"""The state of one single sign-on attempt, kept in a signed, short-lived cookie (pure).

Between the redirect to the provider and its redirect back, askdocs remembers the ``state``
(matched against the callback's), the ``nonce`` (matched against the id token's), the PKCE
code verifier and where to go afterwards. They travel in an HttpOnly cookie sealed with an
HMAC-SHA256 over the JSON; a cookie that was altered, or is older than its expiry, is
worthless.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import asdict, dataclass

STATE_COOKIE = "askdocs_oidc"


@dataclass(frozen=True)
class FlowState:
    state: str
    nonce: str
    verifier: str
    next: str
    expires_at: int

    @classmethod
    def fresh(cls, next_path: str, expires_at: int) -> FlowState:
        return cls(
            state=secrets.token_urlsafe(24),
            nonce=secrets.token_urlsafe(24),
            verifier=secrets.token_urlsafe(48),
            next=next_path,
            expires_at=expires_at,
        )


def _mac(key: bytes, body: bytes) -> str:
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def seal(key: bytes, flow: FlowState) -> str:
    body = base64.urlsafe_b64encode(json.dumps(asdict(flow)).encode("utf-8"))
    return body.decode("ascii") + "." + _mac(key, body)


def unseal(key: bytes, value: str | None, now: int) -> FlowState | None:
    """The sealed state when the MAC holds and it has not expired; else None."""
    body, _, mac = (value or "").partition(".")
    if not body or not hmac.compare_digest(mac, _mac(key, body.encode("ascii", "replace"))):
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(body.encode("ascii")))
        flow = FlowState(**data)
    except (ValueError, TypeError):
        return None
    return flow if now < flow.expires_at else None
