"""``ReindexSite``: a rolling-hour cap per (user, site), then the App's one background
indexer (``askdocs.indexing.Indexer``) runs the index and the run records its outcome.

The cap (``admin.max_executions_per_hour``) counts runs whose ``started_at`` lies in the
last hour; every admitted run starts at once, a refused call records nothing. Counting and
inserting happen under a process lock per (user, site) and in one write transaction that,
on PostgreSQL, first takes ``pg_advisory_xact_lock`` on a key derived from (user, site), and
on SQLite holds the database's write lock (``BEGIN IMMEDIATE``): two concurrent calls at the
limit cannot both pass, in one process or across several.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import anyio
from sqlalchemy import func, select, text

from askdocs.admin.run_log import Figures
from askdocs.db import Database
from askdocs.db.admin_models import IndexRunRow
from askdocs.db.models import utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import RateLimited
from askdocs.indexing import Indexer, Job, Outcome
from askdocs.settings import SiteConfig

WINDOW = timedelta(hours=1)
MAX_ERROR_CHARS = 500
IndexFn = Callable[[SiteConfig], Any]


def advisory_key(user_id: str, site_id: str) -> int:
    digest = hashlib.sha256(f"reindex\n{user_id}\n{site_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class LockTable:
    """One ``threading.Lock`` per key, made on first use."""

    def __init__(self) -> None:
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: tuple[str, str]) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(key, threading.Lock())


class ReindexGuard:
    def __init__(
        self,
        db: Database,
        max_per_hour: int,
        locks: LockTable | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self._db, self._max, self._clock = db, max_per_hour, clock
        self._locks = locks or LockTable()  # one per AdminApi, i.e. per App

    def start(self, user_id: str, site_id: str, initiator: str) -> str:
        """Insert a started run and return its id, or raise ``RateLimited``."""
        with self._locks.get((user_id, site_id)), self._db.session(write=True) as session:
            if session.get_bind().dialect.name == "postgresql":
                key = advisory_key(user_id, site_id)
                session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})
            now = self._clock()
            since = now - WINDOW
            query = select(func.count(), func.min(IndexRunRow.started_at)).where(
                IndexRunRow.user_id == user_id,
                IndexRunRow.site_id == site_id,
                IndexRunRow.started_at.is_not(None),
                IndexRunRow.started_at >= since,
            )
            count, oldest = session.execute(query).one()
            if count >= self._max:
                raise _limited(self._max, oldest, now)
            run = IndexRunRow(
                site_id=site_id, user_id=user_id, initiator=initiator, status="running"
            )
            run.started_at = now
            session.add(run)
            session.flush()
            return run.id


def _limited(limit: int, oldest: datetime | None, now: datetime) -> RateLimited:
    if oldest is not None and oldest.tzinfo is None:
        oldest = oldest.replace(tzinfo=now.tzinfo)
    wait = (oldest + WINDOW - now).total_seconds() if oldest else WINDOW.total_seconds()
    return RateLimited(
        f"reindex limit reached: at most {limit} runs per hour for this site",
        retry_after=max(1, math.ceil(wait)),
        code=ErrorCode.REINDEX_RATE_LIMITED,
    )


class RunTracker:
    """Hands each admitted run to the background indexer and records how it ended."""

    def __init__(self, db: Database, index: IndexFn, indexer: Indexer) -> None:
        self._db, self._index, self._indexer = db, index, indexer
        self._jobs: list[Job] = []

    def launch(self, run_id: str, config: SiteConfig) -> None:
        job = self._indexer.submit(
            config.id, lambda _progress: self._index(config), partial(self._record, run_id)
        )
        self._jobs = [*(known for known in self._jobs if not known.finished.is_set()), job]

    def _record(self, run_id: str, outcome: Outcome) -> None:
        """On the indexer's thread, once the run ended."""
        if outcome.phase == "done":
            self._finish(run_id, "succeeded", Figures.of(outcome.result), None)
        else:
            self._finish(run_id, "failed", Figures(), outcome.error or "indexing stopped")

    def _finish(self, run_id: str, status: str, figures: Figures, error: str | None) -> None:
        with self._db.session(write=True) as session:
            run = session.get(IndexRunRow, run_id)
            if run is None:  # its site was deleted meanwhile
                return
            run.status, run.finished_at = status, utcnow()
            run.error = error[:MAX_ERROR_CHARS] if error else None
            figures.write(run)

    async def wait(self) -> None:
        """Until every run started so far has finished (tests, shutdown)."""
        for job in list(self._jobs):
            await anyio.to_thread.run_sync(job.finished.wait)
