"""Ratings of assistant replies, per signed-in user: a thumbs up or down with an optional
comment, kept in the reply's metadata (``metadata.feedback = {rating, comment, at}``), and
read back for the docs-gaps report's disliked answers. Blocking: callers run it off the
event loop.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import select

from askdocs.answer.report import Disliked
from askdocs.db import Database
from askdocs.db.models import MessageRow, ThreadRow, utcnow

Rating = Literal["up", "down"]


def rate_reply(
    db: Database, user_id: str, message_id: str, rating: Rating, comment: str | None
) -> bool:
    """Store the user's rating of one of their own assistant replies; False when there is no
    such reply of theirs (someone else's id looks exactly like a missing one)."""
    with db.session(write=True) as session:
        query = (
            select(MessageRow)
            .join(ThreadRow, ThreadRow.id == MessageRow.thread_id)
            .where(MessageRow.id == message_id, ThreadRow.user_id == user_id)
        )
        row = session.scalars(query).first()
        if row is None or row.role != "assistant":
            return False
        feedback = {"rating": 1 if rating == "up" else -1, "comment": comment or None}
        row.metadata_json = {
            **(row.metadata_json or {}),
            "feedback": {**feedback, "at": utcnow().isoformat()},
        }
        return True


def disliked_replies(db: Database, since: datetime) -> list[Disliked]:
    """Assistant replies rated down since ``since``, with the question each answered."""
    with db.session() as session:
        query = select(MessageRow).where(
            MessageRow.role == "assistant", MessageRow.created_at >= since
        )
        out: list[Disliked] = []
        for row in session.scalars(query):
            feedback = (row.metadata_json or {}).get("feedback")
            if not isinstance(feedback, dict) or feedback.get("rating") != -1:
                continue
            asked = session.scalars(
                select(MessageRow.content)
                .where(
                    MessageRow.thread_id == row.thread_id,
                    MessageRow.sequence < row.sequence,
                    MessageRow.role == "user",
                )
                .order_by(MessageRow.sequence.desc())
            ).first()
            comment = feedback.get("comment")
            text = comment if isinstance(comment, str) else None
            out.append(Disliked(asked or "", text, [], "assistant", False, row.created_at))
        return out
