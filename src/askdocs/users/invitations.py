"""One-time links for one email address: invitations (join, and set a password) and
password resets.

The link carries a random token; the row keeps its SHA-256. Using it is one conditional
update (``accepted_at IS NULL``), so two clicks on one link use it once. A link has a
purpose (``join`` or ``reset``) and works only for it. An invitation may name an
organisation and a role, and (from a platform admin or the CLI) platform administration.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import update

from askdocs.auth.emails import normalise_email
from askdocs.db import Database
from askdocs.db.auth_models import InvitationRow
from askdocs.db.models import utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput, NotFound
from askdocs.users.sessions import changed, token_hash
from askdocs.users.types import ORG_ROLES, OrgRole

INVITE_PATH = "/invite/"
RESET_PATH = "/reset/"
Purpose = Literal["join", "reset"]
PATHS: dict[Purpose, str] = {"join": INVITE_PATH, "reset": RESET_PATH}


@dataclass(frozen=True)
class Invitation:
    id: str
    email: str
    organisation_id: str | None
    role: OrgRole | None
    platform_admin: bool
    expires_at: datetime
    purpose: Purpose = "join"


@dataclass(frozen=True)
class NewInvitation:
    token: str  # the link's secret: shown once, never stored
    invitation: Invitation

    def link(self, base_url: str) -> str:
        return base_url.rstrip("/") + PATHS[self.invitation.purpose] + self.token


def _invitation(row: InvitationRow) -> Invitation:
    role = next((r for r in ORG_ROLES if r == row.role), None)
    purpose: Purpose = "reset" if row.purpose == "reset" else "join"
    return Invitation(
        row.id, row.email, row.organisation_id, role, row.platform_admin, row.expires_at, purpose
    )


def invalid_invitation() -> NotFound:
    return NotFound(
        "this invitation link is not valid (used, expired or unknown)",
        code=ErrorCode.INVITATION_INVALID,
    )


def invalid_link(purpose: Purpose) -> NotFound:
    if purpose == "join":
        return invalid_invitation()
    return NotFound(
        "this reset link is not valid (used, expired or unknown)", code=ErrorCode.RESET_LINK_INVALID
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
        purpose: Purpose = "join",
        ttl_seconds: int | None = None,
    ) -> NewInvitation:
        if (organisation_id is None) != (role is None):
            raise InvalidInput(
                "an organisation and a role go together", code=ErrorCode.INVALID_ROLE
            )
        token, now = secrets.token_urlsafe(32), utcnow()
        ttl = self._ttl if ttl_seconds is None else timedelta(seconds=ttl_seconds)
        row = InvitationRow(
            token_hash=token_hash(token),
            email=normalise_email(email),
            organisation_id=organisation_id,
            role=role,
            platform_admin=platform_admin,
            created_by=created_by,
            created_at=now,
            expires_at=now + ttl,
            purpose=purpose,
        )
        with self._db.session(write=True) as session:
            session.add(row)
        return NewInvitation(token, _invitation(row))

    def peek(self, token: str, purpose: Purpose = "join") -> Invitation:
        """The open link ``token`` names for ``purpose``; 404 (``invitation_invalid``,
        ``reset_link_invalid``) otherwise."""
        with self._db.session() as session:
            row = session.query(InvitationRow).filter_by(token_hash=token_hash(token)).first()
            used = row is None or row.accepted_at is not None or utcnow() >= row.expires_at
            if used or row is None or row.purpose != purpose:
                raise invalid_link(purpose)
            return _invitation(row)

    def claim(self, token: str, user_id: str, purpose: Purpose = "join") -> Invitation:
        """Mark the link used by ``user_id``, exactly once."""
        invitation, now = self.peek(token, purpose), utcnow()
        query = (
            update(InvitationRow)
            .where(InvitationRow.id == invitation.id, InvitationRow.accepted_at.is_(None))
            .values(accepted_at=now, accepted_by=user_id)
        )
        with self._db.session(write=True) as session:
            if changed(session.execute(query)) != 1:
                raise invalid_link(purpose)
        return invitation
