"""Confirmation tokens (seed 002): a propose step mints one, the apply step verifies it.

``canonical`` and ``mac`` are pure; the key is the install's ``confirmation`` key
(``askdocs.keys``); ``ConfirmationTokens`` ties them together. See docs/admin-tools.md.
"""

from askdocs.confirm.canonical import canonical_json, key_fingerprint, sha256_hex
from askdocs.confirm.mac import compute, verify
from askdocs.confirm.service import ConfirmationTokens

__all__ = [
    "ConfirmationTokens",
    "canonical_json",
    "compute",
    "key_fingerprint",
    "sha256_hex",
    "verify",
]
