"""Ask AI's records (migration 0004): one row per answered question, for the visitor's
feedback and the docs team's gaps report.

A row holds the question, the site, the answer's kind (``no_match``, ``extractive``,
``model``, ``unavailable``), the match decision, the sources shown, whether the citation
check removed markers, and the visitor's rating and comment. For an anonymous visitor the
only identity stored is the keyed visitor hash (``guard.visitor``); never an address. Rows
older than ``ask.record_retention_days`` are deleted.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from askdocs.db.models import Base, JsonType, UtcDateTime, new_id, utcnow


class AskRecordRow(Base):
    __tablename__ = "ask_records"
    __table_args__ = (Index("ix_ask_records_site_created", "site_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    site_id: Mapped[str] = mapped_column(String(63))
    visitor: Mapped[str] = mapped_column(String(128))
    question: Mapped[str] = mapped_column(Text)
    locale: Mapped[str | None] = mapped_column(String(16), nullable=True)
    kind: Mapped[str] = mapped_column(String(16))
    matched: Mapped[bool]
    sources: Mapped[list[dict[str, Any]]] = mapped_column(JsonType)
    flagged: Mapped[bool] = mapped_column(default=False)
    rating: Mapped[int | None] = mapped_column(nullable=True)  # 1 up, -1 down
    comment: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow, index=True)
    rated_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
