"""Canonical payloads (pure): one byte-exact JSON text for one meaning.

Keys sorted, no whitespace, ASCII only (non-ASCII characters escaped), no NaN. Because the
text is ASCII, its length in characters and in UTF-8 bytes is the same number.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

FINGERPRINT_PREFIX = "sha256:"


def canonical_json(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )


def sha256_hex(data: str | bytes) -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


def key_fingerprint(secret: str) -> str:
    """What a payload binds instead of an API key: ``sha256:<hex>`` of the submitted text."""
    return FINGERPRINT_PREFIX + sha256_hex(secret)


def secret_change(value: str | None) -> str:
    """A submitted secret as the payload states it: unchanged, clear, or a fingerprint."""
    if value is None:
        return "unchanged"
    if value == "":
        return "clear"
    return key_fingerprint(value)
