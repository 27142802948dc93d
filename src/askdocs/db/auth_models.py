"""Tables of sign-in (migrations 0003, 0008): password credentials, browser sessions,
one-time links (invitations and password resets) and single sign-on links.

A session row is looked up by the SHA-256 of the cookie's value, never the value itself,
and an invitation by the SHA-256 of its link token: a database dump signs nobody in.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
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
    token_version: Mapped[int] = mapped_column(default=0, server_default="0")  # the user's


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
    purpose: Mapped[str] = mapped_column(String(16), default="join", server_default="join")


class OidcLinkRow(Base):
    """A single sign-on subject linked to an account; no issuer and no subject: a link an
    administrator allowed, filled in by the account's next verified single sign-on."""

    __tablename__ = "oidc_links"
    __table_args__ = (
        UniqueConstraint("issuer", "subject", name="uq_oidc_links_subject"),
        UniqueConstraint("user_id", "issuer", name="uq_oidc_links_user"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    issuer: Mapped[str | None] = mapped_column(String(500), nullable=True)
    subject: Mapped[str | None] = mapped_column(String(255), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    created_by: Mapped[str | None] = mapped_column(String(36), nullable=True)
