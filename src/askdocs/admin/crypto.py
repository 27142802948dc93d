"""Provider API keys at rest: Fernet (AES-128-CBC + HMAC-SHA256) with a key in the data dir.

The key is ``admin.secrets_key_file`` (default ``<data_dir>/provider-secrets.key``), made on
first use with write-then-rename and mode 0600. Unlike the confirmation key there is no
process-local fallback: a key that vanished at restart would make every stored secret
unreadable, so a key file that cannot be written is a configuration error.
"""

from __future__ import annotations

import threading
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

from askdocs.auth.keys import write_secret_file
from askdocs.errors import ConfigError
from askdocs.settings import Settings

KEY_FILE = "provider-secrets.key"


def secrets_key_file(settings: Settings) -> Path:
    return settings.admin.secrets_key_file or settings.data_dir / KEY_FILE


def last_four(secret: str) -> str:
    return secret[-4:] if len(secret) >= 8 else ""


class SecretBox:
    """Encrypts and decrypts short secrets; the key is read (or made) on first use."""

    def __init__(self, key_file: Path) -> None:
        self._key_file = key_file
        self._fernet: Fernet | None = None
        self._lock = threading.Lock()

    def _cipher(self) -> Fernet:
        with self._lock:
            if self._fernet is None:
                self._fernet = Fernet(self._load_key())
            return self._fernet

    def _load_key(self) -> bytes:
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
        return text.encode("ascii")

    def encrypt(self, secret: str) -> str:
        return self._cipher().encrypt(secret.encode("utf-8")).decode("ascii")

    def decrypt(self, token: str) -> str:
        try:
            return self._cipher().decrypt(token.encode("ascii")).decode("utf-8")
        except (InvalidToken, ValueError) as exc:
            raise ConfigError("a stored API key cannot be decrypted with the secrets key") from exc
