"""The JWT signing key: configured, else generated once and persisted in the data dir."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from askdocs.errors import ConfigError
from askdocs.settings import Settings

MIN_KEY_CHARS = 32
KEY_FILE = "jwt-signing-key"


def signing_key(settings: Settings) -> str:
    """``ASKDOCS_AUTH__JWT_SIGNING_KEY`` (or ``ASKDOCS_JWT_SIGNING_KEY``), else the data-dir key."""
    configured = settings.auth.jwt_signing_key
    value = (
        configured.get_secret_value() if configured else os.environ.get("ASKDOCS_JWT_SIGNING_KEY")
    )
    if value:
        if len(value) < MIN_KEY_CHARS:
            raise ConfigError(f"the JWT signing key must be at least {MIN_KEY_CHARS} characters")
        return value
    return _persisted_key(settings.data_dir / KEY_FILE)


def derived_key(settings: Settings, purpose: str) -> bytes:
    """A key for one purpose (``"askdocs oidc state"``, ``"askdocs device"``), derived from
    the signing key: HMAC-SHA256(signing key, purpose)."""
    secret = signing_key(settings).encode()
    return hmac.new(secret, purpose.encode("ascii"), hashlib.sha256).digest()


def _persisted_key(path: Path) -> str:
    try:
        existing = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        existing = ""
    if len(existing) >= MIN_KEY_CHARS:
        return existing
    return write_secret_file(path, secrets.token_urlsafe(48))


def write_secret_file(path: Path, value: str) -> str:
    """Write ``value`` with mode 0600 via temp file + fsync + rename; return what is on disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, value.encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    if path.exists():  # another process won the race: keep its key
        tmp.unlink()
        return path.read_text(encoding="ascii").strip()
    os.replace(tmp, path)
    return value
