"""``IndexCoordination``: the install id and the index build lock, from the database, for
the replicas of one install that share a Qdrant server (``askdocs.index.shared``).

On PostgreSQL the lock is a session advisory lock keyed by the install id, held on a
connection of its own for the whole build (``pg_try_advisory_lock``, retried every
``LOCK_POLL_SECONDS``, so no statement outlives the database timeout): exactly one replica
of the install builds at a time, and a replica that dies releases it with its connection.
On SQLite (one host) it is a file lock beside the database file, which every process of
the install opens.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from sqlalchemy import Connection, text

from askdocs.db import Database
from askdocs.index.files import exclusive, try_exclusive
from askdocs.replicas.install import install_id
from askdocs.settings import Settings

LOCK_POLL_SECONDS = 0.5
BUILD_LOCK_SUFFIX = ".index-build.lock"  # beside the SQLite file


def lock_key(install: str) -> int:
    """A signed 64-bit advisory lock key for the install's builds."""
    digest = hashlib.sha256(f"askdocs-build:{install}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class IndexCoordination:
    """Built once by the ``App``; reads the database only when the store first asks."""

    def __init__(self, settings: Settings, database: Callable[[], Database]) -> None:
        self._settings = settings
        self._database = database
        self._install: str | None = None
        self._lock = threading.Lock()

    def install_id(self) -> str:
        with self._lock:
            if self._install is None:
                self._install = install_id(self._database(), self._settings)
            return self._install

    @contextmanager
    def build_lock(self) -> Iterator[None]:
        with self._held(wait=True):
            yield

    def try_build_lock(self) -> AbstractContextManager[bool]:
        return self._held(wait=False)

    @contextmanager
    def _held(self, *, wait: bool) -> Iterator[bool]:
        db = self._database()
        if db.dialect != "postgresql":
            with _file_lock(_lock_file(db), wait) as got:
                yield got
            return
        with db.engine.connect() as connection:
            key = lock_key(self.install_id())
            got = _take(connection, key, wait)
            try:
                yield got
            finally:
                if got:
                    connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
                    connection.commit()


def _lock_file(db: Database) -> Path:
    return Path(f"{db.engine.url.database}{BUILD_LOCK_SUFFIX}")


@contextmanager
def _file_lock(path: Path, wait: bool) -> Iterator[bool]:
    if not wait:
        with try_exclusive(path) as got:
            yield got
        return
    with exclusive(path):
        yield True


def _take(connection: Connection, key: int, wait: bool) -> bool:
    while True:
        found = connection.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar()
        connection.commit()  # the lock is the session's: no transaction stays open
        if found or not wait:
            return bool(found)
        time.sleep(LOCK_POLL_SECONDS)
