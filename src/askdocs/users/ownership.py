"""Who owns the configured sites (the bundled askdocs docs and ``[[sites]]`` from the file).

The first organisation created with the instance's first platform administrator as owner
owns them, recorded once as the ``configured_sites_owner`` marker and never rewritten.
Sites created through the admin API belong to their own organisation (``sites`` rows).
Owning the configured sites means the owner organisation's members read them when they
are private (``public = false``): ``SiteCaller.member(..., owner_of_configured=...)``.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from askdocs.db import Database
from askdocs.db.admin_models import AdminMarkerRow
from askdocs.db.models import UserRow

OWNER_MARKER = "configured_sites_owner"


def first_platform_admin(db: Database) -> str | None:
    query = (
        select(UserRow.id)
        .where(UserRow.platform_admin.is_(True))
        .order_by(UserRow.created_at, UserRow.id)
        .limit(1)
    )
    with db.session() as session:
        return session.scalars(query).first()


def configured_sites_owner(db: Database) -> str | None:
    """The organisation that owns the configured sites, once there is one."""
    with db.session() as session:
        return owner_in(session)


def owner_in(session: Session) -> str | None:
    marker = session.get(AdminMarkerRow, OWNER_MARKER)
    return marker.value if marker is not None else None


def claim_configured_sites(db: Database, org_id: str, owner_id: str) -> bool:
    """Record ``org_id`` as the owner when ``owner_id`` is the first platform admin and no
    organisation owns the configured sites yet; True when this call recorded it."""
    if configured_sites_owner(db) is not None or first_platform_admin(db) != owner_id:
        return False
    try:
        with db.session(write=True) as session:
            if session.get(AdminMarkerRow, OWNER_MARKER) is not None:
                return False
            session.add(AdminMarkerRow(key=OWNER_MARKER, value=org_id))
    except IntegrityError:
        return False
    return True


def owns_configured_sites(db: Database, org_id: str) -> bool:
    return configured_sites_owner(db) == org_id
