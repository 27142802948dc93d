"""Tool grants (seed 003): an account holds only the tools granted to it.

A new account holds none. The first platform administrator of an instance receives the full
grant once (the ``first_admin_grant`` marker makes that a one-time event); no migration and
no later start-up widens an existing grant. Grants are assigned by organisation owners and
admins, and only with tools the assigner holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from askdocs.db import Database
from askdocs.db.admin_models import AdminMarkerRow, ToolGrantRow
from askdocs.db.models import UserRow
from askdocs.error_codes import ErrorCode
from askdocs.errors import Forbidden

FIRST_ADMIN_MARKER = "first_admin_grant"
GRANT_LOCK = 0x61646D67  # "admg": PostgreSQL advisory lock for the one-time grant
NOT_GRANTED = "this tool is not granted to your account"


def grants_of(session: Session, user_id: str) -> list[str]:
    query = select(ToolGrantRow.tool_name).where(ToolGrantRow.user_id == user_id)
    return sorted(session.scalars(query))


def require_grant(session: Session, user_id: str, tool: str) -> None:
    row = session.get(ToolGrantRow, (user_id, tool))
    if row is None:
        raise Forbidden(NOT_GRANTED, code=ErrorCode.TOOL_NOT_GRANTED)


def replace_grants(session: Session, user_id: str, tools: list[str], granted_by: str) -> None:
    session.execute(delete(ToolGrantRow).where(ToolGrantRow.user_id == user_id))
    for tool in tools:
        session.add(ToolGrantRow(user_id=user_id, tool_name=tool, granted_by=granted_by))


def ensure_first_admin_grant(db: Database, tools: Sequence[str]) -> str | None:
    """Grant ``tools`` (every admin tool: ``admin.table.grantable_tools``) to the first
    platform administrator, once; their id, or None."""
    with db.session() as session:
        marker = session.get(AdminMarkerRow, FIRST_ADMIN_MARKER)
        if marker is not None:
            return marker.value
    try:
        with db.session(write=True) as session:
            return _first_grant(session, tools)
    except IntegrityError:
        return None  # another process recorded it first


def _first_grant(session: Session, tools: Sequence[str]) -> str | None:
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": GRANT_LOCK})
    marker = session.get(AdminMarkerRow, FIRST_ADMIN_MARKER)
    if marker is not None:
        return marker.value
    query = (
        select(UserRow)
        .where(UserRow.platform_admin.is_(True))
        .order_by(UserRow.created_at, UserRow.id)
        .limit(1)
    )
    first = session.scalars(query).first()
    if first is None:
        return None
    held = set(grants_of(session, first.id))
    for tool in tools:
        if tool not in held:
            session.add(ToolGrantRow(user_id=first.id, tool_name=tool, granted_by=None))
    session.add(AdminMarkerRow(key=FIRST_ADMIN_MARKER, value=first.id))
    return first.id
