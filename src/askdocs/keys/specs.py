"""The keys an install keeps, where each may come from, and how a fresh one is made.

- ``jwt`` signs bearer tokens (HS256); keys derived from it (``KeyRing.derived``) seal the
  single sign-on state cookie and the device cookie and sign ALTCHA challenges; configured by
  ``auth.jwt_signing_key`` or ``ASKDOCS_JWT_SIGNING_KEY``; legacy file ``jwt-signing-key``.
- ``confirmation`` signs confirmation tokens (propose -> apply); configured by
  ``admin.confirmation_token_key`` or ``admin.confirmation_token_key_file``; legacy file
  ``assistant-confirmation-token``.
- ``visitor`` keys the hash of a visitor's address (Ask AI limits); configured by
  ``ask.visitor_hash_key``; legacy file ``visitor-hash-key``.

A configured key wins and is the only one of its name. Otherwise the key lives in the
database (``askdocs.keys.ring``); a legacy file found in the data dir on first use is
imported, so an install that kept its keys there keeps its tokens valid.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from askdocs.errors import ConfigError
from askdocs.keys.files import write_secret_file
from askdocs.settings import Settings

log = logging.getLogger(__name__)
KeyName = Literal["jwt", "confirmation", "visitor"]
KEY_NAMES: tuple[KeyName, ...] = ("jwt", "confirmation", "visitor")
MIN_JWT_KEY_CHARS = 32
CONFIRMATION_KEY_BYTES = 32
JWT_ENV = "ASKDOCS_JWT_SIGNING_KEY"


@dataclass(frozen=True)
class KeySpec:
    name: KeyName
    legacy_file: str  # the data-dir file askdocs kept this key in before 0006
    configured: Callable[[Settings], bytes | None]
    legacy: Callable[[str], bytes | None]  # the legacy file's text as the key, or None
    fresh: Callable[[], bytes]


def decode_key(text: str) -> bytes | None:
    """Hex or base64 text of at least 32 bytes; None when it is neither."""
    value = text.strip()
    for decode in (bytes.fromhex, _b64):
        try:
            raw = decode(value)
        except (ValueError, binascii.Error):
            continue
        if len(raw) >= CONFIRMATION_KEY_BYTES:
            return raw
    return None


def _b64(value: str) -> bytes:
    padded = value + "=" * (-len(value) % 4)
    return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)


def _configured_jwt(settings: Settings) -> bytes | None:
    configured = settings.auth.jwt_signing_key
    value = configured.get_secret_value() if configured else os.environ.get(JWT_ENV)
    if not value:
        return None
    if len(value) < MIN_JWT_KEY_CHARS:
        raise ConfigError(f"the JWT signing key must be at least {MIN_JWT_KEY_CHARS} characters")
    return value.encode("utf-8")


def _configured_confirmation(settings: Settings) -> bytes | None:
    configured = settings.admin.confirmation_token_key
    if configured is not None and configured.get_secret_value():
        raw = decode_key(configured.get_secret_value())
        if raw is not None:
            return raw
        log.warning("admin.confirmation_token_key is not 32+ bytes of hex or base64; ignored")
    path = settings.admin.confirmation_token_key_file
    return _key_file(path) if path is not None else None


def _key_file(path: Path) -> bytes:
    """An operator-chosen key file (a volume every replica mounts): read, or made once."""
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        text = write_secret_file(path, secrets.token_bytes(CONFIRMATION_KEY_BYTES).hex())
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the confirmation key file {path}: {exc}") from exc
    raw = decode_key(text)
    if raw is None:
        raise ConfigError(f"the confirmation key file {path} is not 32+ bytes of hex or base64")
    return raw


def _configured_visitor(settings: Settings) -> bytes | None:
    configured = settings.ask.visitor_hash_key
    if configured is not None and configured.get_secret_value():
        return configured.get_secret_value().encode("utf-8")
    return None


def _text_key(text: str) -> bytes | None:
    value = text.strip()
    return value.encode("ascii") if len(value) >= MIN_JWT_KEY_CHARS and value.isascii() else None


SPECS: dict[KeyName, KeySpec] = {
    "jwt": KeySpec(
        "jwt",
        "jwt-signing-key",
        _configured_jwt,
        _text_key,
        lambda: secrets.token_urlsafe(48).encode("ascii"),
    ),
    "confirmation": KeySpec(
        "confirmation",
        "assistant-confirmation-token",
        _configured_confirmation,
        decode_key,
        lambda: secrets.token_bytes(CONFIRMATION_KEY_BYTES),
    ),
    "visitor": KeySpec(
        "visitor",
        "visitor-hash-key",
        _configured_visitor,
        _text_key,
        lambda: secrets.token_urlsafe(32).encode("ascii"),
    ),
}


def legacy_key(settings: Settings, spec: KeySpec) -> bytes | None:
    """The key an older askdocs kept in ``<data_dir>/<legacy_file>``, if it is there."""
    try:
        text = (settings.data_dir / spec.legacy_file).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    return spec.legacy(text)
