"""Tables replicas share (migration 0006): the install's keys, its state, in-flight turns.

``install_keys`` holds every version of each stored key (``jwt``, ``confirmation``,
``visitor``), wrapped with the secrets key (``askdocs.keys``); a dump of the database alone
signs nothing. ``install_state`` holds named values with a version: the install id and the
``changes`` counter every replica polls (``askdocs.replicas``). ``assistant_turns`` is the
in-flight turn registry and ``assistant_turn_frames`` the stream each turn wrote, in
batches, for a reader on another replica.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from askdocs.db.models import Base, UtcDateTime, utcnow


class InstallKeyRow(Base):
    __tablename__ = "install_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    wrapped: Mapped[str] = mapped_column(Text)  # Fernet token of the key's bytes
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    retire_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class InstallStateRow(Base):
    __tablename__ = "install_state"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str | None] = mapped_column(Text, nullable=True)
    version: Mapped[int] = mapped_column(BigInteger, default=0)


class TurnRow(Base):
    __tablename__ = "assistant_turns"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)  # the reply's message id
    thread_id: Mapped[str] = mapped_column(ForeignKey("assistant_threads.id", ondelete="CASCADE"))
    user_sequence: Mapped[int]
    replica: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16))  # running | done | failed | interrupted
    started_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    heartbeat_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class TurnFrameRow(Base):
    __tablename__ = "assistant_turn_frames"

    turn_id: Mapped[str] = mapped_column(
        ForeignKey("assistant_turns.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
