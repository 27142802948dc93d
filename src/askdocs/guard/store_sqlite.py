"""The embedded limits store: counters in a SQLite file in the data dir.

Daily counters survive a restart (they are a cost control). Every ``consume`` is one
``BEGIN IMMEDIATE`` transaction, so several server processes on one data dir share exact
counts. A locked or unwritable file raises after the busy timeout; it never counts as allowed.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from askdocs.guard.limits import Consumed, Counter, sliding_count
from askdocs.lanes import Lane
from askdocs.sqlite_wal import enable_wal

SCHEMA = """
CREATE TABLE IF NOT EXISTS counters (
    key TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS counters_expiry ON counters (expires_at);
"""


class SQLiteLimitsStore:
    name = "sqlite"

    def __init__(self, path: Path, timeout: float = 0.5) -> None:
        self.path = path
        self._timeout = timeout
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._lane = Lane(2)  # never queues behind the shared thread pool

    async def consume(self, counters: Sequence[Counter], now: int) -> Consumed:
        return await self._lane.run(
            lambda: self.consume_sync(list(counters), now), abandon_on_cancel=True
        )

    def consume_sync(self, counters: Sequence[Counter], now: int) -> Consumed:
        with self._lock:
            db = self._connect()
            db.execute("BEGIN IMMEDIATE")
            try:
                result = _consume(db, counters, now)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result

    async def peek(self, counters: Sequence[Counter], now: int) -> tuple[int, ...]:
        return await self._lane.run(
            lambda: self.peek_sync(list(counters), now), abandon_on_cancel=True
        )

    def peek_sync(self, counters: Sequence[Counter], now: int) -> tuple[int, ...]:
        with self._lock:
            db = self._connect()
            return tuple(_live_count(db, c.key, now) for c in counters)

    async def ping(self) -> None:
        await self._lane.run(self.ping_sync, abandon_on_cancel=True)

    def ping_sync(self) -> None:
        with self._lock:
            self._connect().execute("SELECT count(*) FROM counters WHERE 0").fetchone()

    async def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(
                self.path, timeout=self._timeout, isolation_level=None, check_same_thread=False
            )
            enable_wal(db)
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(SCHEMA)
            self._db = db
        return self._db


def _consume(db: sqlite3.Connection, counters: Sequence[Counter], now: int) -> Consumed:
    db.execute("DELETE FROM counters WHERE expires_at <= ?", (now,))
    counts = tuple(_effective(db, c) for c in counters)
    for index, (counter, count) in enumerate(zip(counters, counts, strict=True)):
        if count >= counter.limit:
            return Consumed(False, counts, index)
    for counter in counters:
        db.execute(
            "INSERT INTO counters (key, count, expires_at) VALUES (?, 1, ?) "
            "ON CONFLICT (key) DO UPDATE SET count = count + 1",
            (counter.key, counter.expires_at),
        )
    return Consumed(True, tuple(n + 1 for n in counts))


def _effective(db: sqlite3.Connection, counter: Counter) -> int:
    current = _count(db, counter.key)
    if counter.previous is None:
        return current
    return sliding_count(current, _count(db, counter.previous), counter.previous_weight)


def _live_count(db: sqlite3.Connection, key: str, now: int) -> int:
    row = db.execute(
        "SELECT count FROM counters WHERE key = ? AND expires_at > ?", (key, now)
    ).fetchone()
    return int(row[0]) if row else 0


def _count(db: sqlite3.Connection, key: str) -> int:
    row = db.execute("SELECT count FROM counters WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row else 0
