"""Ask AI's records: what was asked and how it was answered, and the visitor's rating.

``AskRecords`` writes one row per question that reached retrieval (``db.ask_models``), marks
it when the citation check removed markers, stores a rating (``up``/``down``) with an
optional comment from the visitor who asked, and reads rows back for the gaps report. Rows
older than ``ask.record_retention_days`` are deleted as new ones arrive. Blocking: callers
run it off the event loop. Recording is best effort: Ask AI answers even when the database
cannot be written (the route logs it and sends no ``X-Ask-Id``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import delete, select, update

from askdocs.answer.prompt import Source
from askdocs.db import Database
from askdocs.db.ask_models import AskRecordRow
from askdocs.db.models import utcnow
from askdocs.settings import AskSettings

Rating = Literal["up", "down"]
RATING_VALUE: dict[Rating, int] = {"up": 1, "down": -1}


@dataclass(frozen=True)
class NewRecord:
    site_id: str
    visitor: str
    question: str
    locale: str | None
    kind: str
    matched: bool
    sources: Sequence[Source]


@dataclass(frozen=True)
class AskRecord:
    """One stored question, as the report reads it."""

    id: str
    site_id: str
    question: str
    kind: str
    matched: bool
    sources: list[dict[str, str]]
    flagged: bool
    rating: int | None
    comment: str | None
    created_at: datetime


class AskRecords:
    def __init__(self, db: Database, settings: AskSettings) -> None:
        self._db = db
        self._settings = settings

    @property
    def enabled(self) -> bool:
        return self._settings.record_questions

    def add(self, record: NewRecord, now: datetime | None = None) -> str:
        now = now or utcnow()
        row = AskRecordRow(
            site_id=record.site_id,
            visitor=record.visitor,
            question=record.question,
            locale=record.locale,
            kind=record.kind,
            matched=record.matched,
            sources=[
                {"title": s.title, "url": s.url, "heading": s.heading} for s in record.sources
            ],
            flagged=False,
            created_at=now,
        )
        with self._db.session(write=True) as session:
            cutoff = now - timedelta(days=self._settings.record_retention_days)
            session.execute(delete(AskRecordRow).where(AskRecordRow.created_at < cutoff))
            session.add(row)
            session.flush()
            return row.id

    def flag(self, record_id: str) -> None:
        """The citation check removed markers from this answer."""
        with self._db.session(write=True) as session:
            session.execute(
                update(AskRecordRow).where(AskRecordRow.id == record_id).values(flagged=True)
            )

    def rate(
        self, record_id: str, site_id: str, visitor: str, rating: Rating, comment: str | None
    ) -> bool:
        """Store the visitor's rating of their own answer; False when there is no such
        answer of this visitor on this site (a stranger's id looks exactly like a missing one)."""
        with self._db.session(write=True) as session:
            row = session.get(AskRecordRow, record_id)
            if row is None or row.site_id != site_id or row.visitor != visitor:
                return False
            row.rating = RATING_VALUE[rating]
            row.comment = comment or None
            row.rated_at = utcnow()
            return True

    def since(self, since: datetime, site_id: str | None = None) -> list[AskRecord]:
        query = select(AskRecordRow).where(AskRecordRow.created_at >= since)
        if site_id is not None:
            query = query.where(AskRecordRow.site_id == site_id)
        with self._db.session() as session:
            rows = session.scalars(query.order_by(AskRecordRow.created_at)).all()
            return [_record(row) for row in rows]


def _record(row: AskRecordRow) -> AskRecord:
    return AskRecord(
        id=row.id,
        site_id=row.site_id,
        question=row.question,
        kind=row.kind,
        matched=row.matched,
        sources=list(row.sources),
        flagged=row.flagged,
        rating=row.rating,
        comment=row.comment,
        created_at=row.created_at,
    )
