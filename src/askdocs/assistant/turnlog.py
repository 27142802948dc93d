"""The in-flight turn registry, in the database (``assistant_turns``), so every replica sees
every turn: seed 002's ``AssistantTurnRegistry`` across processes.

A turn row is written in the same transaction as the user's message it answers (the
thread row locked: two replicas admitting a turn on one thread take turns), with the
replica that runs it and a heartbeat the replica renews every
``assistant.turn_heartbeat_seconds``. A turn is live while it is ``running`` and its
heartbeat is younger than ``assistant.turn_lost_seconds``; a running turn whose heartbeat
is older lost its replica (killed, or cut off from the database) and reads as interrupted at
once, and the next sweep of any replica writes it so. The frames a turn streams are kept in
``assistant_turn_frames`` (one row per flushed batch) until ``FRAME_RETENTION`` after it
ended, so another replica can replay the stream from its start (``follow``).

Replica clocks must agree (NTP): heartbeats are compared with the reader's clock.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, delete, func, select, update
from sqlalchemy.orm import Session

from askdocs.assistant.types import ReplyState, ThreadSummary, TurnView
from askdocs.db import Database
from askdocs.db.models import utcnow
from askdocs.db.replica_models import TurnFrameRow, TurnRow

FRAME_RETENTION = timedelta(minutes=2)  # frames of an ended turn, for a late reader
LIVE = "running"


def replica_name() -> str:
    """This process's name in the registry: host, process id and a random suffix."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


def reply_state(summary: ThreadSummary, now: datetime, lost_seconds: float) -> ReplyState:
    """``running`` (replyInProgress), ``interrupted`` (the turn on the trailing question
    lost its replica) or ``idle``. Pure."""
    turn = summary.turn
    if turn is None or turn.state not in (LIVE, "interrupted"):
        return "idle"
    if turn.state == LIVE and now - turn.heartbeat_at < timedelta(seconds=lost_seconds):
        return "running"
    return "interrupted" if summary.last_role == "user" else "idle"


@dataclass(frozen=True)
class TurnStart:
    id: str  # the reply's message id, announced by the stream's ``start`` frame
    replica: str


def live_turn(session: Session, thread_id: str, lost_seconds: float) -> TurnRow | None:
    """The newest running turn of the thread whose replica is alive."""
    fresh = utcnow() - timedelta(seconds=lost_seconds)
    query = (
        select(TurnRow)
        .where(TurnRow.thread_id == thread_id, TurnRow.state == LIVE, TurnRow.heartbeat_at > fresh)
        .order_by(TurnRow.started_at.desc())
        .limit(1)
    )
    return session.scalars(query).first()


def add_turn(session: Session, start: TurnStart, thread_id: str, user_sequence: int) -> None:
    now = utcnow()
    session.add(
        TurnRow(
            id=start.id,
            thread_id=thread_id,
            user_sequence=user_sequence,
            replica=start.replica,
            state=LIVE,
            started_at=now,
            heartbeat_at=now,
        )
    )


def latest_turns(session: Session, thread_ids: Sequence[str]) -> dict[str, TurnView]:
    """Each thread's newest turn."""
    if not thread_ids:
        return {}
    newest = (
        select(TurnRow.thread_id, func.max(TurnRow.started_at).label("at"))
        .where(TurnRow.thread_id.in_(thread_ids))
        .group_by(TurnRow.thread_id)
        .subquery()
    )
    query = select(TurnRow).join(
        newest, (TurnRow.thread_id == newest.c.thread_id) & (TurnRow.started_at == newest.c.at)
    )
    return {row.thread_id: _view(row) for row in session.scalars(query)}


def _view(row: TurnRow) -> TurnView:
    return TurnView(row.id, row.state, row.user_sequence, row.heartbeat_at)


@dataclass(frozen=True)
class Followed:
    """What a reader of a turn's stream gets from one poll."""

    frames: tuple[tuple[int, bytes], ...]
    state: str
    heartbeat_at: datetime


class TurnLog:
    """The registry's writes and reads outside admission (blocking: run them in a thread)."""

    def __init__(self, db: Database, lost_seconds: float) -> None:
        self._db = db
        self.lost_seconds = lost_seconds

    def live(self, thread_id: str) -> str | None:
        """The id of the thread's live turn, if one runs anywhere."""
        with self._db.session() as session:
            row = live_turn(session, thread_id, self.lost_seconds)
            return row.id if row is not None else None

    def write_frames(self, turn_id: str, seq: int, data: bytes) -> None:
        with self._db.session(write=True) as session:
            session.add(TurnFrameRow(turn_id=turn_id, seq=seq, data=data))

    def end(self, turn_id: str, state: str) -> None:
        query = (
            update(TurnRow)
            .where(TurnRow.id == turn_id, TurnRow.state == LIVE)
            .values(state=state, ended_at=utcnow())
        )
        with self._db.session(write=True) as session:
            session.execute(query)

    def beat(self, turn_ids: Sequence[str]) -> None:
        """Renew the heartbeat of these running turns (this process's)."""
        query = (
            update(TurnRow)
            .where(TurnRow.id.in_(list(turn_ids)), TurnRow.state == LIVE)
            .values(heartbeat_at=utcnow())
        )
        with self._db.session(write=True) as session:
            session.execute(query)

    def end_replica(self, replica: str, state: str = "interrupted") -> None:
        """Every running turn of ``replica`` ends (its process shuts down)."""
        query = (
            update(TurnRow)
            .where(TurnRow.replica == replica, TurnRow.state == LIVE)
            .values(state=state, ended_at=utcnow())
        )
        with self._db.session(write=True) as session:
            session.execute(query)

    def sweep(self) -> int:
        """Write down turns whose replica was lost, drop old frames; how many were lost."""
        now = utcnow()
        lost = (
            update(TurnRow)
            .where(
                TurnRow.state == LIVE,
                TurnRow.heartbeat_at < now - timedelta(seconds=self.lost_seconds),
            )
            .values(state="interrupted", ended_at=now)
        )
        ended = select(TurnRow.id).where(
            TurnRow.ended_at.is_not(None), TurnRow.ended_at < now - FRAME_RETENTION
        )
        with self._db.session(write=True) as session:
            count = cast(CursorResult[Any], session.execute(lost)).rowcount
            session.execute(delete(TurnFrameRow).where(TurnFrameRow.turn_id.in_(ended)))
        return int(count or 0)

    def follow(self, turn_id: str, after: int) -> Followed | None:
        """The frames after ``after`` and the turn's state; None when there is no such turn."""
        with self._db.session() as session:
            row = session.get(TurnRow, turn_id)
            if row is None:
                return None
            query = (
                select(TurnFrameRow.seq, TurnFrameRow.data)
                .where(TurnFrameRow.turn_id == turn_id, TurnFrameRow.seq > after)
                .order_by(TurnFrameRow.seq)
            )
            frames = tuple((int(seq), bytes(data)) for seq, data in session.execute(query))
            return Followed(frames, row.state, row.heartbeat_at)
