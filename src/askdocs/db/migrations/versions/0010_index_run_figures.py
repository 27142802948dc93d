"""Index runs record every run of an organisation site, the background indexer's too: a
run need not have a user (``user_id`` nullable, ``initiator`` ``background``), and each run
keeps its figures (pages, chunks embedded and reused, files that could not be used).

Revision ID: 0010
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0006"
branch_labels = None
depends_on = None

FIGURES = ("pages", "embedded", "reused", "failed_files")


def upgrade() -> None:
    with op.batch_alter_table("index_runs") as batch:
        batch.alter_column("user_id", existing_type=sa.String(36), nullable=True)
        for name in FIGURES:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=True))


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM index_runs WHERE user_id IS NULL"))
    with op.batch_alter_table("index_runs") as batch:
        for name in FIGURES:
            batch.drop_column(name)
        batch.alter_column("user_id", existing_type=sa.String(36), nullable=False)
