"""Several connections switching one new SQLite file to WAL at the same moment all succeed."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from askdocs.sqlite_wal import enable_wal


def _race(path: Path, openers: int) -> tuple[list[str], list[BaseException]]:
    start = threading.Barrier(openers)
    modes: list[str] = []
    failures: list[BaseException] = []

    def open_one() -> None:
        db = sqlite3.connect(path, timeout=0.01, isolation_level=None)
        try:
            start.wait()
            enable_wal(db)
            modes.append(db.execute("PRAGMA journal_mode").fetchone()[0])
        except BaseException as exc:  # collected and asserted by the caller
            failures.append(exc)
        finally:
            db.close()

    threads = [threading.Thread(target=open_one) for _ in range(openers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return modes, failures


def test_concurrent_openers_of_a_new_file_all_end_in_wal(tmp_path: Path) -> None:
    # A bare "PRAGMA journal_mode=WAL" fails for about 2% of such openers.
    for round_ in range(40):
        modes, failures = _race(tmp_path / f"race-{round_}.sqlite3", 6)
        assert failures == []
        assert modes == ["wal"] * 6


def test_an_error_other_than_busy_is_raised_at_once(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "x.sqlite3")
    db.close()
    with pytest.raises(sqlite3.ProgrammingError):
        enable_wal(db)
