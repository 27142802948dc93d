"""What a reader may see of a provider's API key: its last four characters (the key itself
is encrypted at rest with the secrets key, ``askdocs.keys.wrap``)."""

from __future__ import annotations


def last_four(secret: str) -> str:
    return secret[-4:] if len(secret) >= 8 else ""
