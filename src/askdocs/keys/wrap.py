"""The secrets key: what every secret askdocs stores is encrypted with (provider API keys,
the keys of ``install_keys``). Fernet: AES-128-CBC + HMAC-SHA256.

It comes from the configuration, never from the database it protects:
``admin.secrets_key`` (``ASKDOCS_ADMIN__SECRETS_KEY``: one or more Fernet keys separated by
commas or spaces, newest first), else ``admin.secrets_key_file`` (default
``<data_dir>/provider-secrets.key``: one key a line, newest first; made on first use with
write-then-rename and mode 0600). The newest key encrypts; every listed key decrypts, so
rotating it is: list a new key first, run ``askdocs keys rewrap`` (every stored secret is
encrypted again with it), then drop the old one. There is no process-local fallback: a key
that vanished at restart would make every stored secret unreadable, so a key file that
cannot be written is a configuration error.
"""

from __future__ import annotations

import base64
import threading
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError
from askdocs.keys.files import write_secret_file
from askdocs.settings import Settings

KEY_FILE = "provider-secrets.key"


def secrets_key_file(settings: Settings) -> Path:
    return settings.admin.secrets_key_file or settings.data_dir / KEY_FILE


def parse_keys(text: str) -> list[bytes]:
    """Fernet keys, newest first, from text (commas, spaces or lines between them)."""
    keys = [part.strip().encode("ascii") for part in text.replace(",", " ").split()]
    for key in keys:
        try:
            Fernet(key)
        except ValueError as exc:
            raise ConfigError(
                "the secrets key must be Fernet keys (32 url-safe base64 bytes each)"
            ) from exc
    return keys


class SecretBox:
    """Encrypts and decrypts short secrets; the keys are read (or made) on first use."""

    def __init__(self, key_file: Path, configured: str | None = None) -> None:
        self._key_file = key_file
        self._configured = configured or None
        self._fernet: MultiFernet | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> SecretBox:
        configured = settings.admin.secrets_key
        text = configured.get_secret_value() if configured else None
        return cls(secrets_key_file(settings), text)

    def _cipher(self) -> MultiFernet:
        with self._lock:
            if self._fernet is None:
                self._fernet = MultiFernet([Fernet(key) for key in self._load_keys()])
            return self._fernet

    def _load_keys(self) -> list[bytes]:
        if self._configured is not None:
            return parse_keys(self._configured)
        try:
            text = self._key_file.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            text = ""
        except OSError as exc:
            raise ConfigError(f"cannot read the secrets key file: {exc.strerror}") from exc
        if not text:
            try:
                text = write_secret_file(self._key_file, Fernet.generate_key().decode("ascii"))
            except OSError as exc:
                raise ConfigError(f"cannot write the secrets key file: {exc.strerror}") from exc
        return parse_keys(text)

    def encrypt(self, secret: str) -> str:
        return self._cipher().encrypt(secret.encode("utf-8")).decode("ascii")

    def decrypt(self, token: str) -> str:
        try:
            return self._cipher().decrypt(token.encode("ascii")).decode("utf-8")
        except (InvalidToken, ValueError) as exc:
            raise ConfigError("a stored API key cannot be decrypted with the secrets key") from exc

    def wrap(self, secret: bytes) -> str:
        return self.encrypt(base64.b64encode(secret).decode("ascii"))

    def unwrap(self, token: str) -> bytes:
        """The bytes ``wrap`` was given; ``secrets_key_mismatch`` when no key opens it."""
        try:
            text = self._cipher().decrypt(token.encode("ascii"))
        except (InvalidToken, ValueError) as exc:
            raise ConfigError(
                "the keys stored in the database were encrypted with another secrets key: "
                "give every replica the same admin.secrets_key (or admin.secrets_key_file)",
                code=ErrorCode.SECRETS_KEY_MISMATCH,
            ) from exc
        return base64.b64decode(text)

    def rewrap(self, token: str) -> str:
        """``token`` encrypted again with the newest key (``askdocs keys rewrap``)."""
        try:
            return self._cipher().rotate(token.encode("ascii")).decode("ascii")
        except (InvalidToken, ValueError) as exc:
            raise ConfigError(
                "a stored secret cannot be decrypted with any secrets key",
                code=ErrorCode.SECRETS_KEY_MISMATCH,
            ) from exc
