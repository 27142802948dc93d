"""Tables of the admin domain (migration 0002): sites, inference providers, tool grants,
indexing runs, and one-time markers; stored proposals (migration 0005).

Sites belong to an organisation. Inference providers with ``organisation_id IS NULL`` are
the platform's own rows, the only ones the provider tools touch. API keys are stored
encrypted (``askdocs.admin.crypto``); only a flag and the last four characters are readable.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from askdocs.db.models import Base, JsonType, UtcDateTime, new_id, utcnow


class SiteRow(Base):
    __tablename__ = "sites"
    __table_args__ = (UniqueConstraint("organisation_id", "name", name="uq_sites_org_name"),)

    id: Mapped[str] = mapped_column(String(63), primary_key=True)
    organisation_id: Mapped[str] = mapped_column(
        ForeignKey("organisations.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(200))
    roots: Mapped[list[dict[str, Any]]] = mapped_column(JsonType)
    hostnames: Mapped[list[str]] = mapped_column(JsonType)
    public: Mapped[bool] = mapped_column(default=True)
    ask_enabled: Mapped[bool] = mapped_column(default=True)
    ask_daily_limit: Mapped[int | None] = mapped_column(nullable=True)
    default_locale: Mapped[str] = mapped_column(String(16), default="en")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class ProviderRow(Base):
    __tablename__ = "inference_providers"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    organisation_id: Mapped[str | None] = mapped_column(
        ForeignKey("organisations.id", ondelete="CASCADE"), nullable=True
    )
    name: Mapped[str] = mapped_column(String(200))
    capability: Mapped[str] = mapped_column(String(16))  # chat | embedding
    kind: Mapped[str] = mapped_column(String(32))  # openai-compatible | anthropic | gemini
    base_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    model: Mapped[str] = mapped_column(String(200))
    api_key_encrypted: Mapped[str | None] = mapped_column(Text, nullable=True)
    api_key_last_four: Mapped[str | None] = mapped_column(String(4), nullable=True)
    last_test_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    last_test_ok: Mapped[bool | None] = mapped_column(nullable=True)
    last_test_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    active: Mapped[bool] = mapped_column(default=False)  # in use for its capability (0005)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class ToolGrantRow(Base):
    __tablename__ = "tool_grants"

    user_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    tool_name: Mapped[str] = mapped_column(String(100), primary_key=True)
    granted_by: Mapped[str | None] = mapped_column(String(36), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class AdminMarkerRow(Base):
    """One-time events, e.g. ``first_admin_grant``: written once, never rewritten."""

    __tablename__ = "admin_markers"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class IndexRunRow(Base):
    __tablename__ = "index_runs"
    __table_args__ = (Index("ix_index_runs_user_site_started", "user_id", "site_id", "started_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    site_id: Mapped[str] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[str | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True
    )  # None: the background indexer's run
    initiator: Mapped[str] = mapped_column(String(16))  # assistant | api | background
    status: Mapped[str] = mapped_column(String(16))  # running | succeeded | failed
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    chunks: Mapped[int | None] = mapped_column(nullable=True)
    pages: Mapped[int | None] = mapped_column(nullable=True)
    embedded: Mapped[int | None] = mapped_column(nullable=True)
    reused: Mapped[int | None] = mapped_column(nullable=True)
    failed_files: Mapped[int | None] = mapped_column(nullable=True)  # files it could not use
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class ProposalRow(Base):
    """A proposed admin change kept until its user applies, discards or outlives it."""

    __tablename__ = "admin_proposals"
    __table_args__ = (Index("ix_admin_proposals_user_thread", "user_id", "thread_id"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    thread_id: Mapped[str | None] = mapped_column(
        ForeignKey("assistant_threads.id", ondelete="CASCADE"), nullable=True
    )
    source: Mapped[str] = mapped_column(String(16))  # assistant | mcp
    operation: Mapped[str] = mapped_column(String(64))
    arguments: Mapped[dict[str, Any]] = mapped_column(JsonType)  # what apply is called with
    summary: Mapped[str] = mapped_column(Text)
    diff: Mapped[str | None] = mapped_column(Text, nullable=True)
    token: Mapped[str] = mapped_column(String(128))  # the confirmation token, owner-only
    state: Mapped[str] = mapped_column(String(16))  # pending|applying|applied|discarded|expired
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime())
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
