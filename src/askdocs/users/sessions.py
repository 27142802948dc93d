"""Server-side browser sessions: created at sign-in, found by the cookie, revocable.

The cookie holds a random token; the row is keyed by its SHA-256. A session ends at the
first of: its absolute expiry, ``idle`` seconds without a request, or revocation (sign-out,
an administrator, a password change). Every request re-reads the row, so a revoked session
stops working at once. A session also records the account's token version when it began;
the caller compares it with the account's now (``users.web.identify``), as for bearer
tokens, so a password change ends it even where a revocation was missed.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, Result, select, update

from askdocs.db import Database
from askdocs.db.auth_models import SessionRow
from askdocs.db.models import UserRow, utcnow

TOUCH_EVERY = timedelta(seconds=60)  # last_seen_at is written at most once a minute


@dataclass(frozen=True)
class SessionInfo:
    id: str
    user_id: str
    csrf_token: str
    method: str
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime
    token_version: int = 0


@dataclass(frozen=True)
class NewSession:
    token: str  # the cookie value: shown once, never stored
    info: SessionInfo


def changed(result: Result[Any]) -> int:
    """How many rows an UPDATE changed."""
    return cast(CursorResult[Any], result).rowcount


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _info(row: SessionRow) -> SessionInfo:
    return SessionInfo(
        row.id,
        row.user_id,
        row.csrf_token,
        row.method,
        row.created_at,
        row.last_seen_at,
        row.expires_at,
        row.token_version,
    )


class SessionStore:
    def __init__(self, db: Database, idle_seconds: int, absolute_seconds: int) -> None:
        self._db = db
        self._idle = timedelta(seconds=idle_seconds)
        self._absolute = timedelta(seconds=absolute_seconds)

    def create(self, user_id: str, method: str, user_agent: str = "") -> NewSession:
        token, now = secrets.token_urlsafe(32), utcnow()
        row = SessionRow(
            id=token_hash(token),
            user_id=user_id,
            csrf_token=secrets.token_urlsafe(32),
            method=method,
            user_agent=user_agent[:300],
            created_at=now,
            last_seen_at=now,
            expires_at=now + self._absolute,
        )
        with self._db.session(write=True) as session:
            user = session.get(UserRow, user_id)
            row.token_version = user.token_version if user is not None else 0
            session.add(row)
        return NewSession(token, _info(row))

    def find(self, token: str, now: datetime | None = None) -> SessionInfo | None:
        """The live session the cookie names (touching its idle clock), else None."""
        moment = now or utcnow()
        with self._db.session() as session:
            row = session.get(SessionRow, token_hash(token))
            if row is None or not self._live(row, moment):
                return None
            info = _info(row)
        if moment - info.last_seen_at >= TOUCH_EVERY:
            self._touch(info.id, moment)
        return info

    def _live(self, row: SessionRow, now: datetime) -> bool:
        return (
            row.revoked_at is None and now < row.expires_at and now < row.last_seen_at + self._idle
        )

    def _touch(self, session_id: str, now: datetime) -> None:
        with self._db.session(write=True) as session:
            session.execute(
                update(SessionRow).where(SessionRow.id == session_id).values(last_seen_at=now)
            )

    def revoke(self, session_id: str, user_id: str | None = None) -> bool:
        """Revoke one session (only ``user_id``'s when given); False when there was none."""
        query = update(SessionRow).where(
            SessionRow.id == session_id, SessionRow.revoked_at.is_(None)
        )
        if user_id is not None:
            query = query.where(SessionRow.user_id == user_id)
        with self._db.session(write=True) as session:
            return changed(session.execute(query.values(revoked_at=utcnow()))) > 0

    def revoke_all(self, user_id: str) -> int:
        query = update(SessionRow).where(
            SessionRow.user_id == user_id, SessionRow.revoked_at.is_(None)
        )
        with self._db.session(write=True) as session:
            return changed(session.execute(query.values(revoked_at=utcnow())))

    def for_user(self, user_id: str) -> list[SessionInfo]:
        """The user's live sessions, newest first."""
        now = utcnow()
        query = select(SessionRow).where(SessionRow.user_id == user_id)
        with self._db.session() as session:
            rows = session.scalars(query.order_by(SessionRow.created_at.desc())).all()
            return [_info(row) for row in rows if self._live(row, now)]
