"""Ask AI records: one row per answered question (question, site, kind, match decision,
sources, citation flag) and the visitor's rating and comment, for the gaps report.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)
_JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "ask_records",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("site_id", sa.String(63), nullable=False),
        sa.Column("visitor", sa.String(128), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("locale", sa.String(16), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("matched", sa.Boolean(), nullable=False),
        sa.Column("sources", _JSON, nullable=False),
        sa.Column("flagged", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("rated_at", _TS, nullable=True),
    )
    op.create_index("ix_ask_records_site_created", "ask_records", ["site_id", "created_at"])
    op.create_index("ix_ask_records_created_at", "ask_records", ["created_at"])


def downgrade() -> None:
    op.drop_table("ask_records")
