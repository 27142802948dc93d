"""The confirmation key of a deployment, resolved lazily on first use.

Order: the configured key (``admin.confirmation_token_key``, hex or base64, at least 32
bytes) -> the key file -> on first run 32 random bytes persisted with write-then-rename ->
a process-local key when the file cannot be written (logged; tokens then do not survive a
restart). A configured key that cannot be decoded is logged and skipped, never half-used.
The key is never logged or returned by any surface.
"""

from __future__ import annotations

import base64
import binascii
import logging
import secrets
import threading
from pathlib import Path

from askdocs.auth.keys import write_secret_file

log = logging.getLogger(__name__)
KEY_BYTES = 32
KEY_FILE = "assistant-confirmation-token"


def decode_key(text: str) -> bytes | None:
    """Hex or base64 text of at least 32 bytes; None when it is neither."""
    value = text.strip()
    for decode in (bytes.fromhex, _b64):
        try:
            raw = decode(value)
        except (ValueError, binascii.Error):
            continue
        if len(raw) >= KEY_BYTES:
            return raw
    return None


def _b64(value: str) -> bytes:
    padded = value + "=" * (-len(value) % 4)
    return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)


class ConfirmationKey:
    """Resolves once (thread-safe); constructing one touches nothing on disk."""

    def __init__(self, configured: str | None, key_file: Path) -> None:
        self._configured = configured
        self.key_file = key_file
        self._key: bytes | None = None
        self.source = "unresolved"
        self._lock = threading.Lock()

    def get(self) -> bytes:
        with self._lock:
            if self._key is None:
                self._key, self.source = self._resolve()
            return self._key

    def _resolve(self) -> tuple[bytes, str]:
        if self._configured:
            raw = decode_key(self._configured)
            if raw is not None:
                return raw, "configured"
            log.warning("admin.confirmation_token_key is not 32+ bytes of hex or base64; ignored")
        existing = self._read_file()
        if existing is not None:
            return existing, "file"
        return self._generate()

    def _read_file(self) -> bytes | None:
        try:
            text = self.key_file.read_text(encoding="ascii")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("cannot read the confirmation key file %s: %s", self.key_file, exc)
            return None
        raw = decode_key(text)
        if raw is None:
            log.warning("the confirmation key file %s is malformed; ignored", self.key_file)
        return raw

    def _generate(self) -> tuple[bytes, str]:
        fresh = secrets.token_bytes(KEY_BYTES)
        try:
            stored = write_secret_file(self.key_file, fresh.hex())
        except OSError as exc:
            log.warning(
                "cannot persist the confirmation key to %s (%s): using a process-local key; "
                "tokens proposed before a restart will be refused after it",
                self.key_file,
                exc.strerror or exc,
            )
            return fresh, "process-local"
        raw = decode_key(stored)
        return (raw, "file") if raw is not None else (fresh, "process-local")
