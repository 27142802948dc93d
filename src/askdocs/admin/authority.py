"""The two authorities, re-read from the database on every call (seed 002).

Platform authority is ``users.platform_admin``; organisation authority is the ``owner`` or
``admin`` role in the active organisation (``memberships``). Neither is cached anywhere:
each gate opens its own read of the rows. A refusal raises ``Forbidden`` with the exact
text ``admin privileges required`` before anything is read beyond the caller's own rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.db.models import MembershipRow, UserRow
from askdocs.error_codes import ErrorCode
from askdocs.errors import Forbidden, InvalidInput

ADMIN_REQUIRED = "admin privileges required"
ORG_ADMIN_ROLES = frozenset({"owner", "admin"})


@dataclass(frozen=True)
class Actor:
    """Who passed a gate, for this one call only. ``org_id`` is set by the organisation gate."""

    user_id: str
    org_id: str | None = None


def refusal() -> Forbidden:
    return Forbidden(ADMIN_REQUIRED, code=ErrorCode.ADMIN_REQUIRED)


def platform_gate(session: Session, user_id: str) -> Actor:
    row = session.get(UserRow, user_id)
    if row is None or not row.platform_admin:
        raise refusal()
    return Actor(user_id)


def organisation_gate(session: Session, user_id: str, org_hint: str | None) -> Actor:
    """Owner/admin of the active organisation: ``org_hint`` (the token's organisation or the
    caller's choice), else the caller's only organisation."""
    query = select(MembershipRow.organisation_id, MembershipRow.role).where(
        MembershipRow.user_id == user_id
    )
    memberships = [(org, role) for org, role in session.execute(query)]
    if org_hint is not None:
        memberships = [(org, role) for org, role in memberships if org == org_hint]
    admin_of = [org for org, role in memberships if role in ORG_ADMIN_ROLES]
    if not admin_of:
        raise refusal()
    if len(memberships) > 1:
        raise InvalidInput(
            "you belong to several organisations: name one with organisationId",
            code=ErrorCode.ORGANISATION_REQUIRED,
        )
    return Actor(user_id, admin_of[0])
