"""What replicas share through the database: the install's keys (wrapped with the secrets
key), its state (the install id, the change version replicas poll), and the in-flight
assistant turns with the frames they streamed (so another replica can resume a stream and
a turn whose replica died shows as interrupted).

Revision ID: 0006
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0008"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "install_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("wrapped", sa.Text(), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("retire_at", _TS, nullable=True),
    )
    state = op.create_table(
        "install_state",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=True),
        sa.Column("version", sa.BigInteger(), nullable=False, server_default="0"),
    )
    op.bulk_insert(state, [{"name": "changes", "value": None, "version": 0}])
    op.create_table(
        "assistant_turns",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "thread_id",
            sa.String(36),
            sa.ForeignKey("assistant_threads.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("user_sequence", sa.Integer(), nullable=False),
        sa.Column("replica", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("started_at", _TS, nullable=False),
        sa.Column("heartbeat_at", _TS, nullable=False),
        sa.Column("ended_at", _TS, nullable=True),
    )
    op.create_index("ix_assistant_turns_thread", "assistant_turns", ["thread_id", "started_at"])
    op.create_index("ix_assistant_turns_state", "assistant_turns", ["state", "heartbeat_at"])
    op.create_table(
        "assistant_turn_frames",
        sa.Column(
            "turn_id",
            sa.String(36),
            sa.ForeignKey("assistant_turns.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("assistant_turn_frames")
    op.drop_index("ix_assistant_turns_state", table_name="assistant_turns")
    op.drop_index("ix_assistant_turns_thread", table_name="assistant_turns")
    op.drop_table("assistant_turns")
    op.drop_table("install_state")
    op.drop_table("install_keys")
