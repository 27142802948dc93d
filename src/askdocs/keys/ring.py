"""``KeyRing``: the keys of an install, configured or stored in the database.

A configured key (``askdocs.keys.specs``) is the only key of its name (version 0). Any
other key lives in ``install_keys``, wrapped with the secrets key (``askdocs.keys.wrap``),
so every replica on the database signs and verifies with the same keys and a dump of the
database alone reveals none. The first replica to need a key stores version 1: the
install's legacy data-dir key when there is one, else a fresh one; a replica that loses the
race reads the winner's.

Rotation (``askdocs keys rotate NAME``) stores version n+1, which signs from then on; the
older versions keep verifying until their ``retire_at`` (the grace period), then never
again. A replica reloads the ring when the change version moves (``askdocs.replicas``)
and when it meets a version newer than any it knows, so a bearer token signed on another
replica just after a rotation verifies everywhere at once (a confirmation token, which
names no version, makes the ring re-read at most once a second).
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import Select, select
from sqlalchemy.exc import IntegrityError

from askdocs.db.models import utcnow
from askdocs.db.replica_models import InstallKeyRow
from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError, Conflict, InvalidInput
from askdocs.keys.specs import KEY_NAMES, SPECS, KeyName, legacy_key
from askdocs.keys.wrap import SecretBox
from askdocs.replicas.changes import bump
from askdocs.settings import Settings

if TYPE_CHECKING:
    from askdocs.db import Database

RELOAD_SECONDS = 1.0  # the most often an unknown version makes the ring re-read


@dataclass(frozen=True)
class Key:
    name: str
    version: int  # 0: from the configuration
    secret: bytes = field(repr=False)
    created_at: datetime | None = None
    retire_at: datetime | None = None

    def verifies(self, now: datetime) -> bool:
        return self.retire_at is None or self.retire_at > now


def key_name(value: str) -> KeyName:
    for name in KEY_NAMES:
        if name == value:
            return name
    raise InvalidInput(
        f"no key named {value!r}: one of {', '.join(KEY_NAMES)}", code=ErrorCode.UNKNOWN_KEY
    )


class KeyRing:
    """Thread-safe; reads the database on first use of each name and after ``reload()``."""

    def __init__(
        self, settings: Settings, database: Callable[[], Database], box: SecretBox | None = None
    ) -> None:
        self._settings = settings
        self._database = database
        self.box = box or SecretBox.from_settings(settings)
        self._keys: dict[str, tuple[Key, ...]] = {}  # newest first
        self._loaded = 0.0
        self._lock = threading.Lock()

    # -- reading -----------------------------------------------------------------------------

    def signing(self, name: KeyName) -> Key:
        """The key that signs now: the configured one, else the newest stored version."""
        return self._ring(name)[0]

    def verifying(self, name: KeyName) -> tuple[Key, ...]:
        """Every key a signature may be checked with now, the signing one first."""
        ring, now = self._ring(name), utcnow()
        return (ring[0], *(key for key in ring[1:] if key.verifies(now)))

    def version(self, name: KeyName, version: int) -> Key | None:
        """The verifying key of that version; re-reads first when the version is newer than
        any known (another replica rotated the key a moment ago)."""
        if version > self.signing(name).version:
            self.reload()
        return _find(self.verifying(name), version)

    def derived(self, purpose: str) -> bytes:
        """A key for one purpose (``"askdocs oidc state"``, ``"askdocs device"``), derived
        from the signing ``jwt`` key: HMAC-SHA256(key, purpose)."""
        return derive(self.signing("jwt").secret, purpose)

    def derived_all(self, purpose: str) -> tuple[bytes, ...]:
        """The purpose's key of every verifying ``jwt`` version (opening what a replica
        sealed before a rotation), the signing one first."""
        return tuple(derive(key.secret, purpose) for key in self.verifying("jwt"))

    def peek(self, name: KeyName) -> Key | None:
        """The signing key when it is already read; never touches the database."""
        with self._lock:
            found = self._keys.get(name)
        return found[0] if found else None

    def configured(self, name: KeyName) -> bool:
        return SPECS[name].configured(self._settings) is not None

    def refresh(self) -> bool:
        """Forget the stored keys if the last read is over a second old; whether it did."""
        with self._lock:
            if time.monotonic() - self._loaded < RELOAD_SECONDS:
                return False
            self._keys.clear()
            return True

    def reload(self) -> None:
        """Forget every stored key (the change version moved): the next use re-reads."""
        with self._lock:
            self._keys.clear()

    def _ring(self, name: KeyName) -> tuple[Key, ...]:
        with self._lock:
            found = self._keys.get(name)
            if found is None:
                found = self._keys[name] = self._load(name)
                self._loaded = time.monotonic()
            return found

    def _load(self, name: KeyName) -> tuple[Key, ...]:
        spec = SPECS[name]
        configured = spec.configured(self._settings)
        if configured is not None:
            return (Key(name, 0, configured),)
        db = self._database()
        rows = _rows(db, name)
        if not rows:
            secret = legacy_key(self._settings, spec) or spec.fresh()
            _insert_first(db, InstallKeyRow(name=name, version=1, wrapped=self.box.wrap(secret)))
            rows = _rows(db, name)
        return tuple(self._key(row) for row in rows)

    def _key(self, row: InstallKeyRow) -> Key:
        secret = self.box.unwrap(row.wrapped)
        return Key(row.name, row.version, secret, row.created_at, row.retire_at)

    # -- operator commands (askdocs keys) ------------------------------------------------

    def rotate(self, name: KeyName, grace_seconds: float) -> Key:
        """Store a new version that signs from now on; older ones verify for
        ``grace_seconds`` more (0: not at all). Every replica picks it up (change version)."""
        if self.configured(name):
            raise ConfigError(
                f"the {name} key is configured: rotate it by changing the configuration "
                "on every replica",
                code=ErrorCode.KEY_CONFIGURED,
            )
        self.signing(name)  # version 1 exists (imported or made) before the next one
        retire = utcnow() + timedelta(seconds=grace_seconds)
        try:
            with self._database().session(write=True) as session:
                rows = list(session.scalars(_query(name)))
                for row in rows:
                    if row.retire_at is None or row.retire_at > retire:
                        row.retire_at = retire
                fresh = SPECS[name].fresh()
                version = rows[0].version + 1 if rows else 1
                session.add(InstallKeyRow(name=name, version=version, wrapped=self.box.wrap(fresh)))
                bump(session)
        except IntegrityError as exc:
            raise Conflict(f"another rotation of the {name} key ran at the same time") from exc
        self.reload()
        return self.signing(name)

    def listing(self) -> list[Key]:
        """Every stored version of every key, secrets left out (``askdocs keys list``)."""
        with self._database().session() as session:
            rows = list(session.scalars(select(InstallKeyRow).order_by(InstallKeyRow.name)))
        return [Key(r.name, r.version, b"", r.created_at, r.retire_at) for r in rows]

    def rewrap(self) -> int:
        """Encrypt every stored secret again with the newest secrets key; how many."""
        from askdocs.db.admin_models import ProviderRow

        count = 0
        with self._database().session(write=True) as session:
            for row in session.scalars(select(InstallKeyRow)):
                row.wrapped = self.box.rewrap(row.wrapped)
                count += 1
            for provider in session.scalars(select(ProviderRow)):
                if provider.api_key_encrypted:
                    provider.api_key_encrypted = self.box.rewrap(provider.api_key_encrypted)
                    count += 1
        return count


def derive(secret: bytes, purpose: str) -> bytes:
    return hmac.new(secret, purpose.encode("ascii"), hashlib.sha256).digest()


def _find(keys: tuple[Key, ...], version: int) -> Key | None:
    return next((key for key in keys if key.version == version), None)


def _query(name: str) -> Select[InstallKeyRow]:
    return (
        select(InstallKeyRow)
        .where(InstallKeyRow.name == name)
        .order_by(InstallKeyRow.version.desc())
    )


def _rows(db: Database, name: str) -> list[InstallKeyRow]:
    with db.session() as session:
        return list(session.scalars(_query(name)))


def _insert_first(db: Database, row: InstallKeyRow) -> None:
    try:
        with db.session(write=True) as session:
            session.add(row)
    except IntegrityError:
        pass  # another replica stored version 1 first: its key is the one


@contextmanager
def standalone_ring(settings: Settings) -> Iterator[KeyRing]:
    """A ring over a database opened from ``settings`` only when a stored key is needed,
    closed afterwards (the CLI, one-off checks)."""
    from askdocs.db import Database

    opened: list[Database] = []

    def database() -> Database:
        if not opened:
            opened.append(Database.open(settings))
        return opened[0]

    try:
        yield KeyRing(settings, database)
    finally:
        for db in opened:
            db.close()
