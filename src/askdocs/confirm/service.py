"""``ConfirmationTokens``: mint and verify, one instance (one key) per deployment and process.

Every surface (assistant tools, REST) must share one instance: with a process-local key, a
second instance would derive its own key and refuse tokens its sibling just minted. The
application object builds it once (``confirmation_tokens``) and hands it to the admin API.
"""

from __future__ import annotations

from pathlib import Path

from askdocs.confirm.keys import KEY_FILE, ConfirmationKey
from askdocs.confirm.mac import compute, verify
from askdocs.settings import Settings


class ConfirmationTokens:
    def __init__(self, key: ConfirmationKey) -> None:
        self._key = key

    @property
    def key_source(self) -> str:
        return self._key.source

    def mint(self, operation: str, payload: str, user_id: str) -> str:
        return compute(self._key.get(), operation, payload, user_id)

    def verify(self, operation: str, payload: str, user_id: str, presented: object) -> bool:
        """False for a missing, malformed or wrong token, and when the key cannot be had."""
        try:
            key = self._key.get()
        except Exception:
            return False
        return verify(key, operation, payload, user_id, presented)


def key_file_of(settings: Settings) -> Path:
    return settings.admin.confirmation_token_key_file or settings.data_dir / KEY_FILE


def confirmation_tokens(settings: Settings) -> ConfirmationTokens:
    """The deployment's tokens; build once per process (``askdocs.app.App`` does)."""
    configured = settings.admin.confirmation_token_key
    secret = configured.get_secret_value() if configured else ""
    return ConfirmationTokens(ConfirmationKey(secret or None, key_file_of(settings)))
