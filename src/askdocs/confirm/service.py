"""``ConfirmationTokens``: mint and verify with the install's ``confirmation`` key.

The key comes from the ``KeyRing`` (``askdocs.keys``): configured, else stored in the
database, so a token proposed on one replica applies on any other, and after a restart.
Every surface (assistant tools, REST) shares the application's one instance.
After a rotation the previous version still verifies for its grace period; a token that
verifies with no known key makes the ring re-read once (at most once a second) in case
another replica rotated the key a moment ago.
"""

from __future__ import annotations

import logging

from askdocs.confirm.mac import compute, verify
from askdocs.keys import KeyRing

log = logging.getLogger(__name__)


class ConfirmationTokens:
    def __init__(self, keys: KeyRing) -> None:
        self._keys = keys

    @property
    def key_source(self) -> str:
        """``configured`` or ``database`` (never the key itself)."""
        return "configured" if self._keys.configured("confirmation") else "database"

    def mint(self, operation: str, payload: str, user_id: str) -> str:
        return compute(self._keys.signing("confirmation").secret, operation, payload, user_id)

    def verify(self, operation: str, payload: str, user_id: str, presented: object) -> bool:
        """False for a missing, malformed or wrong token, and when the key cannot be had."""
        try:
            if self._verifies(operation, payload, user_id, presented):
                return True
            return self._keys.refresh() and self._verifies(operation, payload, user_id, presented)
        except Exception as exc:
            log.warning("confirmation key unavailable: %s", type(exc).__name__)
            return False

    def _verifies(self, operation: str, payload: str, user_id: str, presented: object) -> bool:
        keys = self._keys.verifying("confirmation")
        return any(verify(k.secret, operation, payload, user_id, presented) for k in keys)
