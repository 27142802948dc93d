"""Switching a SQLite file to write-ahead logging when several connections open it at once.

``PRAGMA journal_mode=WAL`` needs an exclusive lock the first time, and SQLite answers
``database is locked`` at once (without its busy handler) when another connection is
switching the same file at that moment. The switch is persistent, so it is retried with a
short backoff until a deadline; once the file is in WAL mode it costs one read.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Protocol


class _Executes(Protocol):
    def execute(self, sql: str, /) -> sqlite3.Cursor: ...


def enable_wal(db: _Executes, deadline_seconds: float = 10.0) -> None:
    """Put the connection's file in WAL mode, waiting out a concurrent switch."""
    give_up = time.monotonic() + deadline_seconds
    pause = 0.005
    while True:
        try:
            mode = db.execute("PRAGMA journal_mode").fetchone()
            if mode is not None and str(mode[0]).lower() == "wal":
                return
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() + pause > give_up:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text
