"""The threads store: caller-scoped in every query, sequences unique and consecutive.

``sequence`` is 1-based and unique per thread. A user turn takes ``max + 1``, or ``max + 2``
when the newest message is an unanswered user turn (its reply slot stays reserved), and a
reply is written at ``user.sequence + 1``, so both halves of an exchange are consecutive.
Appending touches the thread's ``updated_at``, which orders the thread list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import CursorResult, Result, Select, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from askdocs.assistant.turnlog import TurnStart, add_turn, latest_turns, live_turn
from askdocs.assistant.types import MessageRecord, ThreadDetail, ThreadSummary, TurnView
from askdocs.db import Database
from askdocs.db.models import MessageRow, ThreadRow, new_id, utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound

THREAD_NOT_FOUND = "Thread not found"
REPLAYED_ROLES = ("user", "assistant")


def thread_not_found() -> NotFound:
    return NotFound(THREAD_NOT_FOUND, code=ErrorCode.THREAD_NOT_FOUND)


def _message(row: MessageRow) -> MessageRecord:
    return MessageRecord(
        row.id,
        row.thread_id,
        row.role,
        row.content,
        row.sequence,
        row.created_at,
        row.metadata_json,
    )


def _summary(row: ThreadRow, last_role: str | None, turn: TurnView | None) -> ThreadSummary:
    return ThreadSummary(
        id=row.id,
        site_id=row.site_id,
        title=row.title,
        created_at=row.created_at,
        updated_at=row.updated_at,
        archived=row.archived_at is not None,
        last_role=last_role,
        turn=turn,
    )


def _owned(user_id: str, thread_id: str) -> Select[ThreadRow]:
    return select(ThreadRow).where(ThreadRow.id == thread_id, ThreadRow.user_id == user_id)


def _newest(session: Session, thread_id: str) -> MessageRow | None:
    query = (
        select(MessageRow)
        .where(MessageRow.thread_id == thread_id)
        .order_by(MessageRow.sequence.desc())
        .limit(1)
    )
    return session.scalars(query).first()


def _changed(result: Result[Any]) -> bool:
    return cast(CursorResult[Any], result).rowcount > 0


def _touch(session: Session, thread_id: str, user_id: str | None = None) -> bool:
    """Set ``updated_at`` (and take the row's write lock); False when no such thread."""
    query = update(ThreadRow).where(ThreadRow.id == thread_id).values(updated_at=utcnow())
    if user_id is not None:
        query = query.where(ThreadRow.user_id == user_id)
    return _changed(session.execute(query))


class ThreadStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    def create(self, user_id: str, site_id: str | None, title: str) -> str:
        row = ThreadRow(user_id=user_id, site_id=site_id, title=title)
        with self._db.session(write=True) as session:
            session.add(row)
        return row.id

    def for_user(self, user_id: str, *, archived: bool = False) -> list[ThreadSummary]:
        """The caller's non-archived (or, with ``archived``, archived) threads, most
        recently updated first."""
        shelf = ThreadRow.archived_at.is_not(None) if archived else ThreadRow.archived_at.is_(None)
        query = (
            select(ThreadRow)
            .where(ThreadRow.user_id == user_id, shelf)
            .order_by(ThreadRow.updated_at.desc(), ThreadRow.id)
        )
        with self._db.session() as session:
            rows = list(session.scalars(query))
            ids = [row.id for row in rows]
            roles, turns = _last_roles(session, ids), latest_turns(session, ids)
        return [_summary(row, roles.get(row.id), turns.get(row.id)) for row in rows]

    def get(self, user_id: str, thread_id: str) -> ThreadDetail | None:
        with self._db.session() as session:
            row = session.scalars(_owned(user_id, thread_id)).first()
            if row is None:
                return None
            query = (
                select(MessageRow)
                .where(MessageRow.thread_id == row.id)
                .order_by(MessageRow.sequence)
            )
            messages = tuple(_message(m) for m in session.scalars(query))
            turn = latest_turns(session, [row.id]).get(row.id)
        last = messages[-1].role if messages else None
        return ThreadDetail(_summary(row, last, turn), messages)

    def summary(self, user_id: str, thread_id: str) -> ThreadSummary | None:
        with self._db.session() as session:
            row = session.scalars(_owned(user_id, thread_id)).first()
            if row is None:
                return None
            newest = _newest(session, row.id)
            turn = latest_turns(session, [row.id]).get(row.id)
            return _summary(row, newest.role if newest else None, turn)

    def update(
        self, user_id: str, thread_id: str, *, title: str | None, archived: bool | None
    ) -> bool:
        """Rename and/or archive; a None field is left unchanged. False when not the caller's."""
        with self._db.session(write=True) as session:
            row = session.scalars(_owned(user_id, thread_id)).first()
            if row is None:
                return False
            if title is not None:
                row.title = title
            if archived is not None:
                row.archived_at = (row.archived_at or utcnow()) if archived else None
            return True

    def set_title_if(self, thread_id: str, title: str, *, current: str) -> bool:
        """Replace the title only if it is still ``current`` (a rename in between wins)."""
        query = (
            update(ThreadRow)
            .where(ThreadRow.id == thread_id, ThreadRow.title == current)
            .values(title=title)
        )
        with self._db.session(write=True) as session:
            return _changed(session.execute(query))

    def delete(self, user_id: str, thread_id: str) -> bool:
        with self._db.session(write=True) as session:
            row = session.scalars(_owned(user_id, thread_id)).first()
            if row is None:
                return False
            session.execute(delete(MessageRow).where(MessageRow.thread_id == row.id))
            session.delete(row)
            return True

    def append_user(
        self, user_id: str, thread_id: str, content: str, *, reuse_unanswered: bool
    ) -> tuple[MessageRecord, bool]:
        """Append the user's turn; with ``reuse_unanswered``, an identical trailing unanswered
        turn is returned instead of stored twice. Returns the record and whether it was reused.
        """
        with self._db.session(write=True) as session:
            if not _touch(session, thread_id, user_id):
                raise thread_not_found()
            return _append_user(session, thread_id, content, reuse_unanswered=reuse_unanswered)

    def admit(
        self, user_id: str, thread_id: str, content: str, start: TurnStart, lost_seconds: float
    ) -> MessageRecord:
        """Admit a turn, in one transaction with the thread row locked (so replicas admitting
        turns on one thread take turns): append the user's message, or reuse an identical
        trailing unanswered one when no live turn answers it anywhere, and register the turn."""
        with self._db.session(write=True) as session:
            if not _touch(session, thread_id, user_id):
                raise thread_not_found()
            running = live_turn(session, thread_id, lost_seconds) is not None
            record, _ = _append_user(session, thread_id, content, reuse_unanswered=not running)
            add_turn(session, start, thread_id, record.sequence)
        return record

    def append_reply(
        self,
        thread_id: str,
        user_sequence: int,
        content: str,
        metadata: dict[str, Any],
        message_id: str | None = None,
    ) -> MessageRecord:
        """Write the assistant's half at ``user_sequence + 1``, with ``message_id`` (the id
        the stream's ``start`` chunk announced) when given."""
        row = MessageRow(
            id=message_id or new_id(),
            thread_id=thread_id,
            role="assistant",
            content=content,
            sequence=user_sequence + 1,
            metadata_json=metadata,
        )
        try:
            with self._db.session(write=True) as session:
                if not _touch(session, thread_id):
                    raise thread_not_found()
                session.add(row)
        except IntegrityError:  # the slot was taken after all: keep the reply, at the end
            row = self._append_at_end(row)
        return _message(row)

    def _append_at_end(self, row: MessageRow) -> MessageRow:
        with self._db.session(write=True) as session:
            if not _touch(session, row.thread_id):
                raise thread_not_found()
            newest = _newest(session, row.thread_id)
            fresh = MessageRow(
                id=row.id,
                thread_id=row.thread_id,
                role=row.role,
                content=row.content,
                sequence=(newest.sequence if newest else 0) + 1,
                metadata_json=row.metadata_json,
            )
            session.add(fresh)
        return fresh

    def replay(self, thread_id: str, limit: int) -> list[MessageRecord]:
        """The newest ``limit`` user/assistant turns, oldest first."""
        query = (
            select(MessageRow)
            .where(MessageRow.thread_id == thread_id, MessageRow.role.in_(REPLAYED_ROLES))
            .order_by(MessageRow.sequence.desc())
            .limit(limit)
        )
        with self._db.session() as session:
            rows = list(session.scalars(query))
        return [_message(row) for row in reversed(rows)]


def _append_user(
    session: Session, thread_id: str, content: str, *, reuse_unanswered: bool
) -> tuple[MessageRecord, bool]:
    newest = _newest(session, thread_id)
    if reuse_unanswered and newest and newest.role == "user" and newest.content == content:
        return _message(newest), True
    sequence = _next_user_sequence(newest)
    row = MessageRow(thread_id=thread_id, role="user", content=content, sequence=sequence)
    session.add(row)
    session.flush()
    return _message(row), False


def _next_user_sequence(newest: MessageRow | None) -> int:
    if newest is None:
        return 1
    return newest.sequence + (2 if newest.role == "user" else 1)


def _last_roles(session: Session, thread_ids: Sequence[str]) -> dict[str, str]:
    if not thread_ids:
        return {}
    newest = (
        select(MessageRow.thread_id, func.max(MessageRow.sequence).label("seq"))
        .where(MessageRow.thread_id.in_(thread_ids))
        .group_by(MessageRow.thread_id)
        .subquery()
    )
    query = select(MessageRow.thread_id, MessageRow.role).join(
        newest,
        (MessageRow.thread_id == newest.c.thread_id) & (MessageRow.sequence == newest.c.seq),
    )
    return {str(row[0]): str(row[1]) for row in session.execute(query)}
