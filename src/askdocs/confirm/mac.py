"""The MAC (pure): lowercase hex HMAC-SHA256 over a length-prefixed message.

    <len(operation)>:<operation>\\n<len(payload)>:<payload>\\n<userId>

Lengths count UTF-8 bytes (canonical payloads are ASCII, so also characters). The lengths
stop a token for one (operation, payload) pair verifying for a re-split of the same text.
"""

from __future__ import annotations

import hashlib
import hmac

TOKEN_HEX_CHARS = 64


def mac_message(operation: str, payload: str, user_id: str) -> bytes:
    op, body = operation.encode("utf-8"), payload.encode("utf-8")
    return b"%d:%s\n%d:%s\n%s" % (len(op), op, len(body), body, user_id.encode("utf-8"))


def compute(key: bytes, operation: str, payload: str, user_id: str) -> str:
    return hmac.new(key, mac_message(operation, payload, user_id), hashlib.sha256).hexdigest()


def verify(key: bytes, operation: str, payload: str, user_id: str, presented: object) -> bool:
    """Constant-time check; False (never an exception) for anything that is not the token."""
    try:
        if not isinstance(presented, str) or len(presented) != TOKEN_HEX_CHARS:
            return False
        expected = compute(key, operation, payload, user_id).encode("ascii")
        return hmac.compare_digest(expected, presented.encode("ascii"))
    except Exception:
        return False
