"""Organisations and their members, with who may do what (re-read on every call).

A caller of ``None`` is the operator at the command line: allowed everything. Otherwise:
a platform admin sees and manages every organisation; an organisation's owners and admins
manage its members; any member may list them; anybody else learns nothing (404
``organisation_not_found``, exactly like a missing id). Only an owner (or a platform admin)
grants, changes or removes the ``owner`` role, and an organisation always keeps one owner.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from askdocs.admin.authority import ORG_ADMIN_ROLES, refusal
from askdocs.auth.emails import normalise_email
from askdocs.db import Database
from askdocs.db.models import MembershipRow, OrganisationRow, UserRow
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput, NotFound
from askdocs.users.ownership import claim_configured_sites
from askdocs.users.service import UserService, membership_query
from askdocs.users.types import ORG_ROLES, Organisation, OrgRole

MAX_NAME_CHARS = 200


@dataclass(frozen=True)
class Member:
    user_id: str
    email: str
    display_name: str
    role: OrgRole


@dataclass(frozen=True)
class OrgSummary:
    id: str
    name: str
    role: OrgRole | None  # the caller's role; None for a platform admin who is not a member
    members: int


def org_not_found() -> NotFound:
    return NotFound("no such organisation", code=ErrorCode.ORGANISATION_NOT_FOUND)


def member_not_found() -> NotFound:
    return NotFound("no such member of this organisation", code=ErrorCode.MEMBER_NOT_FOUND)


def parse_role(value: str) -> OrgRole:
    for role in ORG_ROLES:
        if role == value:
            return role
    raise InvalidInput(f"unknown organisation role {value!r}", code=ErrorCode.INVALID_ROLE)


def _role_of(session: Session, org_id: str, user_id: str) -> OrgRole | None:
    query = select(MembershipRow.role).where(
        MembershipRow.organisation_id == org_id, MembershipRow.user_id == user_id
    )
    value = session.scalars(query).first()
    return parse_role(value) if value is not None else None


def _is_platform_admin(session: Session, user_id: str) -> bool:
    row = session.get(UserRow, user_id)
    return row is not None and row.platform_admin


@dataclass(frozen=True)
class Standing:
    """What the caller is in one organisation, for this one call."""

    operator: bool  # the CLI, or a platform admin
    role: OrgRole | None

    @property
    def manages(self) -> bool:
        return self.operator or self.role in ORG_ADMIN_ROLES

    @property
    def owns(self) -> bool:
        return self.operator or self.role == "owner"


class OrgDirectory:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._users = UserService(db)

    def create(self, name: str, owner_id: str, caller: str | None = None) -> Organisation:
        """A new organisation owned by ``owner_id``; over HTTP only platform admins create."""
        title = " ".join(name.split())[:MAX_NAME_CHARS]
        if not title:
            raise InvalidInput("the organisation needs a name", code=ErrorCode.INVALID_NAME)
        with self._db.session() as session:
            if caller is not None and not _is_platform_admin(session, caller):
                raise refusal()
            if session.get(UserRow, owner_id) is None:
                raise NotFound("no such user", code=ErrorCode.USER_NOT_FOUND)
        org = self._users.create_organisation(title, owner_id)
        claim_configured_sites(self._db, org.id, owner_id)
        return org

    def visible(self, caller: str | None) -> list[OrgSummary]:
        """Every organisation for the operator and platform admins; else the caller's own."""
        counts = (
            select(MembershipRow.organisation_id, func.count().label("n"))
            .group_by(MembershipRow.organisation_id)
            .subquery()
        )
        query = select(OrganisationRow.id, OrganisationRow.name, counts.c.n).join(
            counts, counts.c.organisation_id == OrganisationRow.id, isouter=True
        )
        with self._db.session() as session:
            everything = caller is None or _is_platform_admin(session, caller)
            found = []
            for org_id, name, n in session.execute(query.order_by(OrganisationRow.name)):
                role = _role_of(session, org_id, caller) if caller else None
                if everything or role is not None:
                    found.append(OrgSummary(org_id, name, role, int(n or 0)))
            return found

    def standing(self, session: Session, org_id: str, caller: str | None) -> Standing:
        """The caller's standing; ``organisation_not_found`` when they may not see it."""
        if session.get(OrganisationRow, org_id) is None:
            raise org_not_found()
        if caller is None or _is_platform_admin(session, caller):
            return Standing(True, _role_of(session, org_id, caller) if caller else None)
        role = _role_of(session, org_id, caller)
        if role is None:
            raise org_not_found()
        return Standing(False, role)

    def get(self, org_id: str, caller: str | None) -> tuple[Organisation, list[Member]]:
        with self._db.session() as session:
            self.standing(session, org_id, caller)
            org = session.get(OrganisationRow, org_id)
            assert org is not None
            query = (
                select(UserRow, MembershipRow.role)
                .join(MembershipRow, MembershipRow.user_id == UserRow.id)
                .where(MembershipRow.organisation_id == org_id)
                .order_by(UserRow.email)
            )
            members = [
                Member(user.id, user.email, user.display_name, parse_role(role))
                for user, role in session.execute(query)
            ]
            return Organisation(org.id, org.name), members

    def add_member(self, org_id: str, email: str, role: OrgRole, caller: str | None) -> Member:
        """Add an existing account (or change its role when it is already a member)."""
        address = normalise_email(email)
        with self._db.session(write=True) as session:
            standing = self.standing(session, org_id, caller)
            user = session.scalars(select(UserRow).where(UserRow.email == address)).first()
            if user is None:
                raise NotFound(f"no user with email {address}", code=ErrorCode.USER_NOT_FOUND)
            self._change(session, org_id, user.id, role, standing)
            return Member(user.id, user.email, user.display_name, role)

    def set_role(self, org_id: str, user_id: str, role: OrgRole, caller: str | None) -> None:
        with self._db.session(write=True) as session:
            standing = self.standing(session, org_id, caller)
            if _role_of(session, org_id, user_id) is None:
                raise member_not_found()
            self._change(session, org_id, user_id, role, standing)

    def remove_member(self, org_id: str, user_id: str, caller: str | None) -> None:
        with self._db.session(write=True) as session:
            standing = self.standing(session, org_id, caller)
            current = _role_of(session, org_id, user_id)
            if current is None:
                raise member_not_found()
            self._may_change(standing, current, None)
            self._keep_an_owner(session, org_id, current, None)
            row = session.scalars(membership_query(org_id, user_id)).one()
            session.delete(row)

    def check_invite(
        self, caller: str | None, org_id: str | None, role: OrgRole | None, platform: bool
    ) -> None:
        """May ``caller`` invite someone into ``org_id`` as ``role`` (and as platform admin)?
        Without an organisation, or for platform administration: platform admins only."""
        with self._db.session() as session:
            operator = caller is None or _is_platform_admin(session, caller)
            if (platform or org_id is None) and not operator:
                raise refusal()
            if org_id is not None:
                self._may_change(self.standing(session, org_id, caller), None, role)

    def _change(
        self, session: Session, org_id: str, user_id: str, role: OrgRole, standing: Standing
    ) -> None:
        current = _role_of(session, org_id, user_id)
        self._may_change(standing, current, role)
        self._keep_an_owner(session, org_id, current, role)
        row = session.scalars(membership_query(org_id, user_id)).first()
        if row is None:
            session.add(MembershipRow(organisation_id=org_id, user_id=user_id, role=role))
        else:
            row.role = role

    @staticmethod
    def _may_change(standing: Standing, current: OrgRole | None, new: OrgRole | None) -> None:
        if not standing.manages:
            raise refusal()
        if "owner" in (current, new) and not standing.owns:
            raise refusal()

    @staticmethod
    def _keep_an_owner(
        session: Session, org_id: str, current: OrgRole | None, new: OrgRole | None
    ) -> None:
        if current != "owner" or new == "owner":
            return
        owners = select(func.count()).where(
            MembershipRow.organisation_id == org_id, MembershipRow.role == "owner"
        )
        if (session.scalar(owners) or 0) <= 1:
            raise InvalidInput(
                "an organisation keeps at least one owner: make someone else owner first",
                code=ErrorCode.LAST_OWNER,
            )
