"""Single sign-on subjects linked to accounts (table ``oidc_links``).

Single sign-on signs in to an existing account only through a link: the account was
created by single sign-on (linked at once), or an administrator allowed a link (a row with
no issuer and no subject, filled in by the account's next verified single sign-on). An
email address alone never links: a provider vouching for an address is not its account's
owner saying yes.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.db import Database
from askdocs.db.auth_models import OidcLinkRow
from askdocs.db.models import UserRow


class OidcLinks:
    def __init__(self, db: Database) -> None:
        self._db = db

    def user_for(self, issuer: str, subject: str) -> str | None:
        """The account linked to ``subject`` at ``issuer``, if any."""
        query = select(OidcLinkRow.user_id).where(
            OidcLinkRow.issuer == issuer, OidcLinkRow.subject == subject
        )
        with self._db.session() as session:
            return session.scalars(query).first()

    def add(self, user_id: str, issuer: str, subject: str) -> None:
        with self._db.session(write=True) as session:
            session.add(OidcLinkRow(user_id=user_id, issuer=issuer, subject=subject))

    def claim(self, user_id: str, issuer: str, subject: str) -> bool:
        """Fill in an allowed link of ``user_id`` with this subject; False when there is
        none, or the account is already linked to another subject at ``issuer``."""
        with self._db.session(write=True) as session:
            if _link(session, user_id, issuer) is not None:
                return False
            pending = _link(session, user_id, None)
            if pending is None:
                return False
            pending.issuer, pending.subject = issuer, subject
            return True

    def allow(self, user_id: str, created_by: str | None = None) -> bool:
        """Let the account's next verified single sign-on link it; False: no such user."""
        with self._db.session(write=True) as session:
            if session.get(UserRow, user_id) is None:
                return False
            if _link(session, user_id, None) is None:
                session.add(OidcLinkRow(user_id=user_id, created_by=created_by))
            return True


def _link(session: Session, user_id: str, issuer: str | None) -> OidcLinkRow | None:
    query = select(OidcLinkRow).where(OidcLinkRow.user_id == user_id)
    query = query.where(
        OidcLinkRow.issuer.is_(None) if issuer is None else OidcLinkRow.issuer == issuer
    )
    return session.scalars(query).first()
