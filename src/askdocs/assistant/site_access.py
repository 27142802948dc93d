"""Which site a caller may name as context (a thread's site, a turn's ``siteId``).

A site is usable when the engine serves it and either it is public, or it is an
organisation site of an organisation the caller is a member of. Both are re-read from the
database on every call; anything else is dropped exactly like an unknown id, so a guessed
id of another organisation's private site learns nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.db.admin_models import SiteRow
from askdocs.db.models import MembershipRow
from askdocs.settings import SiteConfig


def is_member(session: Session, user_id: str, org_id: str) -> bool:
    query = select(MembershipRow.id).where(
        MembershipRow.user_id == user_id, MembershipRow.organisation_id == org_id
    )
    return session.scalars(query.limit(1)).first() is not None


def usable_site(
    session: Session, sites: Sequence[SiteConfig], user_id: str, site_id: str | None
) -> str | None:
    """``site_id`` when the caller may use it as context, else None."""
    served = next((site for site in sites if site.id == site_id), None)
    if served is None:
        return None
    row = session.get(SiteRow, served.id)
    if row is None:  # a configured site
        return served.id if served.public else None
    if row.public or is_member(session, user_id, row.organisation_id):
        return served.id
    return None
