"""Stored proposals: a propose result kept server-side, so a change proposed while the
browser was away, or left pending across a reload, can still be applied.

A row holds the operation, the arguments apply is called with, the summary and diff, the
confirmation token (read back only by its own user), the thread it came from, and a state:
``pending`` -> ``applying`` -> ``applied``, or ``discarded``, or ``expired`` once
``expires_at`` passes. Another user's proposal answers exactly like a missing one (404).

Applying claims the row with one conditional update (``pending`` -> ``applying``), so two
clicks, two tabs or two replicas apply a proposal at most once; the second is
``409 proposal_settled``. The claimed apply still runs the whole Apply path (authority
re-read, payload re-derived from the database, token verified); when that refuses, the row
goes back to ``pending`` and nothing was written.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, get_args

from pydantic import JsonValue
from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session

from askdocs.db import Database
from askdocs.db.admin_models import ProposalRow
from askdocs.db.models import utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import Conflict, Forbidden, NotFound

ProposalState = Literal["pending", "applying", "applied", "discarded", "expired"]
Source = Literal["assistant", "api"]
STATES: dict[str, ProposalState] = {state: state for state in get_args(ProposalState)}
MISMATCH = "the confirmation token does not match this proposal"


@dataclass(frozen=True)
class NewProposal:
    user_id: str
    thread_id: str | None
    source: Source
    operation: str
    arguments: dict[str, JsonValue]
    summary: str
    diff: str | None
    token: str


@dataclass(frozen=True)
class StoredProposal:
    id: str
    user_id: str
    thread_id: str | None
    source: str
    operation: str
    arguments: dict[str, JsonValue]
    summary: str
    diff: str | None
    token: str
    state: ProposalState
    created_at: datetime
    expires_at: datetime
    result: dict[str, JsonValue] | None

    @property
    def pending(self) -> bool:
        return self.state == "pending"


def not_found() -> NotFound:
    return NotFound("no such proposal", code=ErrorCode.PROPOSAL_NOT_FOUND)


def _state(row: ProposalRow, now: datetime) -> ProposalState:
    if row.state == "pending" and row.expires_at <= now:
        return "expired"
    return STATES[row.state]


def _stored(row: ProposalRow, now: datetime) -> StoredProposal:
    return StoredProposal(
        id=row.id,
        user_id=row.user_id,
        thread_id=row.thread_id,
        source=row.source,
        operation=row.operation,
        arguments=dict(row.arguments),
        summary=row.summary,
        diff=row.diff,
        token=row.token,
        state=_state(row, now),
        created_at=row.created_at,
        expires_at=row.expires_at,
        result=row.result,
    )


class ProposalStore:
    def __init__(self, db: Database, ttl_seconds: int) -> None:
        self.db = db
        self.ttl = timedelta(seconds=ttl_seconds)

    def add(self, new: NewProposal) -> StoredProposal:
        now = utcnow()
        row = ProposalRow(
            user_id=new.user_id,
            thread_id=new.thread_id,
            source=new.source,
            operation=new.operation,
            arguments=new.arguments,
            summary=new.summary,
            diff=new.diff,
            token=new.token,
            state="pending",
            created_at=now,
            expires_at=now + self.ttl,
        )
        with self.db.session(write=True) as session:
            session.add(row)
            session.flush()
            return _stored(row, now)

    def get(self, user_id: str, proposal_id: str) -> StoredProposal | None:
        """The caller's own proposal; None for a missing one and for another user's."""
        with self.db.session() as session:
            row = _own(session, user_id, proposal_id)
            return _stored(row, utcnow()) if row is not None else None

    def of_thread(self, user_id: str, thread_id: str) -> list[StoredProposal]:
        query = (
            select(ProposalRow)
            .where(ProposalRow.user_id == user_id, ProposalRow.thread_id == thread_id)
            .order_by(ProposalRow.created_at)
        )
        now = utcnow()
        with self.db.session() as session:
            return [_stored(row, now) for row in session.scalars(query)]

    def claim(self, user_id: str, proposal_id: str, presented: object) -> StoredProposal:
        """Take a pending, unexpired proposal for applying; every refusal writes nothing."""
        found = self.get(user_id, proposal_id)
        if found is None:
            raise not_found()
        _check_open(found)
        if not isinstance(presented, str) or not hmac.compare_digest(presented, found.token):
            raise Forbidden(MISMATCH, code=ErrorCode.CONFIRMATION_INVALID)
        if not self._move(found.id, "pending", "applying"):
            raise _refusal(self.get(user_id, proposal_id) or found)
        return found

    def finish(self, proposal_id: str, result: dict[str, JsonValue]) -> None:
        with self.db.session(write=True) as session:
            session.execute(
                update(ProposalRow)
                .where(ProposalRow.id == proposal_id, ProposalRow.state == "applying")
                .values(state="applied", decided_at=utcnow(), result=result)
            )

    def release(self, proposal_id: str) -> None:
        """An apply that was refused: the proposal is pending again."""
        self._move(proposal_id, "applying", "pending", decided=False)

    def discard(self, user_id: str, proposal_id: str) -> StoredProposal:
        found = self.get(user_id, proposal_id)
        if found is None:
            raise not_found()
        _check_open(found)
        if not self._move(found.id, "pending", "discarded"):
            raise _refusal(self.get(user_id, proposal_id) or found)
        return self.get(user_id, proposal_id) or found

    def _move(self, proposal_id: str, old: str, new: str, *, decided: bool = True) -> bool:
        now = utcnow()
        query = update(ProposalRow).where(ProposalRow.id == proposal_id, ProposalRow.state == old)
        if old == "pending":
            query = query.where(ProposalRow.expires_at > now)
        moved = query.values(state=new, decided_at=now if decided else None)
        with self.db.session(write=True) as session:
            done = session.execute(moved)
            return isinstance(done, CursorResult) and done.rowcount == 1


def _own(session: Session, user_id: str, proposal_id: str) -> ProposalRow | None:
    row = session.get(ProposalRow, proposal_id) if len(proposal_id) <= 36 else None
    return row if row is not None and row.user_id == user_id else None


def _check_open(found: StoredProposal) -> None:
    if not found.pending:
        raise _refusal(found)


def _refusal(found: StoredProposal) -> NotFound | Conflict:
    if found.state in ("expired", "pending"):  # pending here: it expired meanwhile
        return NotFound(
            "this proposal has expired; ask for it again", code=ErrorCode.PROPOSAL_EXPIRED
        )
    return settled(found)


def settled(found: StoredProposal) -> Conflict:
    return Conflict(f"this proposal is already {found.state}", code=ErrorCode.PROPOSAL_SETTLED)
