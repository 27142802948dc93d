"""Invitations: a one-time link that lets one email address join (and set a password).

The link carries a random token; the row keeps its SHA-256. Accepting is one conditional
update (``accepted_at IS NULL``), so two clicks on one link accept it once. An invitation
may name an organisation and a role, and (from a platform admin or the CLI) platform
administration.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import update

from askdocs.db import Database
from askdocs.db.auth_models import InvitationRow
from askdocs.db.models import utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput, NotFound
from askdocs.users.service import normalise_email
from askdocs.users.sessions import changed, token_hash
from askdocs.users.types import ORG_ROLES, OrgRole

INVITE_PATH = "/invite/"


@dataclass(frozen=True)
class Invitation:
    id: str
    email: str
    organisation_id: str | None
    role: OrgRole | None
    platform_admin: bool
    expires_at: datetime


@dataclass(frozen=True)
class NewInvitation:
    token: str  # the link's secret: shown once, never stored
    invitation: Invitation

    def link(self, base_url: str) -> str:
        return base_url.rstrip("/") + INVITE_PATH + self.token


def _invitation(row: InvitationRow) -> Invitation:
    role = next((r for r in ORG_ROLES if r == row.role), None)
    return Invitation(
        row.id, row.email, row.organisation_id, role, row.platform_admin, row.expires_at
    )


def invalid_invitation() -> NotFound:
    return NotFound(
        "this invitation link is not valid (used, expired or unknown)",
        code=ErrorCode.INVITATION_INVALID,
    )


class Invitations:
    def __init__(self, db: Database, ttl_seconds: int) -> None:
        self._db = db
        self._ttl = timedelta(seconds=ttl_seconds)

    def create(
        self,
        email: str,
        *,
        organisation_id: str | None = None,
        role: OrgRole | None = None,
        platform_admin: bool = False,
        created_by: str | None = None,
    ) -> NewInvitation:
        if (organisation_id is None) != (role is None):
            raise InvalidInput(
                "an organisation and a role go together", code=ErrorCode.INVALID_ROLE
            )
        token, now = secrets.token_urlsafe(32), utcnow()
        row = InvitationRow(
            token_hash=token_hash(token),
            email=normalise_email(email),
            organisation_id=organisation_id,
            role=role,
            platform_admin=platform_admin,
            created_by=created_by,
            created_at=now,
            expires_at=now + self._ttl,
        )
        with self._db.session(write=True) as session:
            session.add(row)
        return NewInvitation(token, _invitation(row))

    def peek(self, token: str) -> Invitation:
        """The open invitation ``token`` names; ``invitation_invalid`` (404) otherwise."""
        with self._db.session() as session:
            row = session.query(InvitationRow).filter_by(token_hash=token_hash(token)).first()
            if row is None or row.accepted_at is not None or utcnow() >= row.expires_at:
                raise invalid_invitation()
            return _invitation(row)

    def claim(self, token: str, user_id: str) -> Invitation:
        """Mark the invitation used by ``user_id``, exactly once."""
        invitation, now = self.peek(token), utcnow()
        query = (
            update(InvitationRow)
            .where(InvitationRow.id == invitation.id, InvitationRow.accepted_at.is_(None))
            .values(accepted_at=now, accepted_by=user_id)
        )
        with self._db.session(write=True) as session:
            if changed(session.execute(query)) != 1:
                raise invalid_invitation()
        return invitation
