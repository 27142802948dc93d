"""Tables of sign-in (migration 0003): password credentials, browser sessions, invitations.

A session row is looked up by the SHA-256 of the cookie's value, never the value itself,
and an invitation by the SHA-256 of its link token: a database dump signs nobody in.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from askdocs.db.models import Base, UtcDateTime, new_id, utcnow


class PasswordRow(Base):
    __tablename__ = "password_credentials"

    user_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    hash: Mapped[str] = mapped_column(Text)  # argon2id, PHC string format
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class SessionRow(Base):
    __tablename__ = "auth_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256(cookie value)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    method: Mapped[str] = mapped_column(String(16))  # password | oidc | invitation
    user_agent: Mapped[str] = mapped_column(String(300), default="")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime())  # the absolute expiry
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class InvitationRow(Base):
    __tablename__ = "invitations"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(320))
    organisation_id: Mapped[str | None] = mapped_column(
        ForeignKey("organisations.id", ondelete="CASCADE"), nullable=True
    )
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    platform_admin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[str | None] = mapped_column(String(36), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime())
    accepted_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    accepted_by: Mapped[str | None] = mapped_column(String(36), nullable=True)
