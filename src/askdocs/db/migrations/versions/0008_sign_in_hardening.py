"""Sign-in hardening (issue 27): a credentials version per account that a password change
bumps (every bearer token and session carries the version it was issued under), the
purpose of a one-time link (``join``: an invitation; ``reset``: a password reset), and the
single sign-on subjects linked to accounts.

An ``oidc_links`` row with no issuer and no subject is a link an administrator allowed:
the next verified single sign-on for the account's email fills them in. Accounts that had
signed in through single sign-on before this migration get such a row, so they keep
signing in that way; every other existing account is linked only by an administrator.

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0005"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def _version() -> sa.Column[int]:
    return sa.Column("token_version", sa.Integer(), nullable=False, server_default="0")


def upgrade() -> None:
    op.add_column("users", _version())
    op.add_column("auth_sessions", _version())
    op.add_column(
        "invitations",
        sa.Column("purpose", sa.String(16), nullable=False, server_default="join"),
    )
    op.create_table(
        "oidc_links",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "user_id",
            sa.String(36),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("issuer", sa.String(500), nullable=True),
        sa.Column("subject", sa.String(255), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("created_by", sa.String(36), nullable=True),
        sa.UniqueConstraint("issuer", "subject", name="uq_oidc_links_subject"),
        sa.UniqueConstraint("user_id", "issuer", name="uq_oidc_links_user"),
    )
    op.create_index("ix_oidc_links_user_id", "oidc_links", ["user_id"])
    op.execute(
        "INSERT INTO oidc_links (id, user_id, created_at) "
        "SELECT DISTINCT user_id, user_id, CURRENT_TIMESTAMP FROM auth_sessions "
        "WHERE method = 'oidc'"
    )


def downgrade() -> None:
    op.drop_index("ix_oidc_links_user_id", table_name="oidc_links")
    op.drop_table("oidc_links")
    op.drop_column("invitations", "purpose")
    op.drop_column("auth_sessions", "token_version")
    op.drop_column("users", "token_version")
