"""The change version: how one replica tells the others that cached state changed.

Every write that changes what a replica keeps in memory (organisation sites, inference
providers, the stored keys) bumps the ``changes`` row of ``install_state`` in the same
transaction. Every replica polls that one row (``ChangeWatcher``) every
``server.change_poll_seconds`` and, when it moved, re-reads what it caches: a change made
on one replica takes effect on every other within one poll interval plus the re-read.
Everything else (users, memberships, grants, threads, proposals) is read from the
database on every request and needs no signal.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from askdocs.db import Database
from askdocs.db.replica_models import InstallStateRow

log = logging.getLogger(__name__)
CHANGES = "changes"


def bump(session: Session) -> None:
    """Move the change version, inside the caller's write transaction."""
    row = InstallStateRow.__table__.c
    session.execute(
        update(InstallStateRow).where(row.name == CHANGES).values(version=row.version + 1)
    )


def current(db: Database) -> int:
    with db.session() as session:
        found = session.scalar(
            select(InstallStateRow.version).where(InstallStateRow.name == CHANGES)
        )
    return int(found or 0)


class ChangeWatcher:
    """Polls the change version on a daemon thread; runs ``listeners`` when it moves.

    ``poll()`` checks once (tests, and the thread's loop). A failed read or listener is
    logged and tried again at the next poll; the version seen is only advanced once every
    listener ran, so nothing is skipped.
    """

    def __init__(
        self, db: Database, interval: float, listeners: Sequence[Callable[[], None]]
    ) -> None:
        self._db = db
        self._interval = interval
        self._listeners = tuple(listeners)
        self._seen: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.applied = 0  # changes acted on (tests and the bench read it)
        self._failing = False  # a failure is logged once, until a poll succeeds

    def start(self) -> None:
        self._seen = current(self._db)
        self._thread = threading.Thread(target=self._loop, name="askdocs-changes", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self._interval + 5)
            self._thread = None

    def _loop(self) -> None:
        while not self._stop.wait(self._interval):
            self.poll()

    def poll(self) -> bool:
        """Act on a change since the last poll; whether there was one."""
        try:
            version = current(self._db)
            if version != self._seen:
                for listener in self._listeners:
                    listener()
        except Exception as exc:
            if not self._failing:
                log.warning("replica change check failed (retried every poll): %s", exc)
            self._failing = True
            return False
        self._failing = False
        if version == self._seen:
            return False
        self._seen = version
        self.applied += 1
        return True
