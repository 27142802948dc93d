"""Confirmation tokens (seed 002): a propose step mints one, the apply step verifies it.

``canonical`` and ``mac`` are pure; ``keys`` resolves the one key of a deployment;
``ConfirmationTokens`` ties them together. See docs/admin-tools.md.
"""

from askdocs.confirm.canonical import canonical_json, key_fingerprint, sha256_hex
from askdocs.confirm.keys import ConfirmationKey
from askdocs.confirm.mac import compute, verify
from askdocs.confirm.service import ConfirmationTokens, confirmation_tokens

__all__ = [
    "ConfirmationKey",
    "ConfirmationTokens",
    "canonical_json",
    "compute",
    "confirmation_tokens",
    "key_fingerprint",
    "sha256_hex",
    "verify",
]
