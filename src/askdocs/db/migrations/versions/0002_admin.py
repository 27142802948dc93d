"""Admin domain: sites, inference providers, tool grants, indexing runs, markers.

Creates tables only: no existing account receives a grant here (a migration never widens
a grant; the first platform administrator is granted at run time, once).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)
_JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def _fk(table: str, *, nullable: bool = False) -> sa.Column[str]:
    target = f"{table}.id"
    name = "organisation_id" if table == "organisations" else "user_id"
    return sa.Column(
        name, sa.String(36), sa.ForeignKey(target, ondelete="CASCADE"), nullable=nullable
    )


def upgrade() -> None:
    op.create_table(
        "sites",
        sa.Column("id", sa.String(63), primary_key=True),
        _fk("organisations"),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("roots", _JSON, nullable=False),
        sa.Column("hostnames", _JSON, nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("ask_enabled", sa.Boolean(), nullable=False),
        sa.Column("ask_daily_limit", sa.Integer(), nullable=True),
        sa.Column("default_locale", sa.String(16), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
        sa.UniqueConstraint("organisation_id", "name", name="uq_sites_org_name"),
    )
    op.create_index("ix_sites_organisation_id", "sites", ["organisation_id"])
    _providers()
    _grants_and_markers()
    _runs()


def _providers() -> None:
    op.create_table(
        "inference_providers",
        sa.Column("id", sa.String(36), primary_key=True),
        _fk("organisations", nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("capability", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("base_url", sa.String(500), nullable=True),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("api_key_encrypted", sa.Text(), nullable=True),
        sa.Column("api_key_last_four", sa.String(4), nullable=True),
        sa.Column("last_test_at", _TS, nullable=True),
        sa.Column("last_test_ok", sa.Boolean(), nullable=True),
        sa.Column("last_test_error", sa.Text(), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
    )


def _grants_and_markers() -> None:
    op.create_table(
        "tool_grants",
        sa.Column(
            "user_id",
            sa.String(36),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("tool_name", sa.String(100), primary_key=True),
        sa.Column("granted_by", sa.String(36), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
    )
    op.create_table(
        "admin_markers",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
    )


def _runs() -> None:
    op.create_table(
        "index_runs",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "site_id", sa.String(63), sa.ForeignKey("sites.id", ondelete="CASCADE"), nullable=False
        ),
        _fk("users"),
        sa.Column("initiator", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("started_at", _TS, nullable=True),
        sa.Column("finished_at", _TS, nullable=True),
        sa.Column("chunks", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
    )
    op.create_index("ix_index_runs_site_id", "index_runs", ["site_id"])
    op.create_index(
        "ix_index_runs_user_site_started", "index_runs", ["user_id", "site_id", "started_at"]
    )


def downgrade() -> None:
    op.drop_table("index_runs")
    op.drop_table("admin_markers")
    op.drop_table("tool_grants")
    op.drop_table("inference_providers")
    op.drop_index("ix_sites_organisation_id", table_name="sites")
    op.drop_table("sites")
