"""Sign-in: password credentials, browser sessions and invitations.

Creates tables only; no account gains a password, a session or a grant here.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def _user_fk(name: str = "user_id", *, primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(
        name,
        sa.String(36),
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        nullable=False,
        primary_key=primary_key,
    )


def upgrade() -> None:
    op.create_table(
        "password_credentials",
        _user_fk(primary_key=True),
        sa.Column("hash", sa.Text(), nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
    )
    op.create_table(
        "auth_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        _user_fk(),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("method", sa.String(16), nullable=False),
        sa.Column("user_agent", sa.String(300), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("last_seen_at", _TS, nullable=False),
        sa.Column("expires_at", _TS, nullable=False),
        sa.Column("revoked_at", _TS, nullable=True),
    )
    op.create_index("ix_auth_sessions_user_id", "auth_sessions", ["user_id"])
    _invitations()


def _invitations() -> None:
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column(
            "organisation_id",
            sa.String(36),
            sa.ForeignKey("organisations.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("role", sa.String(16), nullable=True),
        sa.Column("platform_admin", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.String(36), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("expires_at", _TS, nullable=False),
        sa.Column("accepted_at", _TS, nullable=True),
        sa.Column("accepted_by", sa.String(36), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("invitations")
    op.drop_index("ix_auth_sessions_user_id", table_name="auth_sessions")
    op.drop_table("auth_sessions")
    op.drop_table("password_credentials")
