"""Which site a caller may name as context (a thread's site, a turn's ``siteId``).

A site is usable when the engine serves it and either it is public, or it is an
organisation site of an organisation the caller is a member of. Both are re-read from the
database on every call; anything else is dropped exactly like an unknown id, so a guessed
id of another organisation's private site learns nothing.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.db.models import MembershipRow
from askdocs.errors import NotFound
from askdocs.sites import SiteCaller, SiteCatalog
from askdocs.users.ownership import owner_in


def member_organisations(session: Session, user_id: str) -> set[str]:
    query = select(MembershipRow.organisation_id).where(MembershipRow.user_id == user_id)
    return set(session.scalars(query))


def member_caller(session: Session, user_id: str) -> SiteCaller:
    """The signed-in caller's standing as the database says now (memberships, and whether
    one of their organisations owns the configured sites)."""
    orgs = member_organisations(session, user_id)
    return SiteCaller.member(orgs, owner_in(session), account=user_id)


def usable_site(
    session: Session, catalog: SiteCatalog, user_id: str, site_id: str | None
) -> str | None:
    """``site_id`` when the caller may use it as context, else None: the catalog's one
    resolution with the caller's memberships as re-read now."""
    if site_id is None:
        return None
    caller = member_caller(session, user_id)
    try:
        return catalog.resolve(site_id=site_id, caller=caller).id
    except NotFound:
        return None
