"""The users service: create and find users, organisations and memberships."""

from __future__ import annotations

import re

from sqlalchemy import Select, select
from sqlalchemy.exc import IntegrityError

from askdocs.db import Database
from askdocs.db.auth_models import PasswordRow
from askdocs.db.models import MembershipRow, OrganisationRow, UserRow, utcnow
from askdocs.errors import InvalidInput, NotFound
from askdocs.guard.validation import BLANK_CHARS
from askdocs.users.passwords import check_policy, hash_password
from askdocs.users.types import ORG_ROLES, Organisation, OrgRole, User

MAX_EMAIL_CHARS = 320
# ``local@domain``: no NUL, no whitespace (what ``str.strip`` removes), one ``@``; written
# in the regex syntax ``/openapi.json`` shares (``EMAIL_PATTERN`` allows the whitespace
# around it that ``normalise_email`` trims)
_SPACE = BLANK_CHARS
_ADDRESS = rf"[^@\x00{_SPACE}]+@[^@\x00{_SPACE}]+"
EMAIL_PATTERN = rf"^[{_SPACE}]*{_ADDRESS}[{_SPACE}]*$"


def normalise_email(email: str) -> str:
    """Trimmed and lower-cased; must look like ``local@domain``."""
    value = email.strip().lower()
    if len(value) > MAX_EMAIL_CHARS or not re.fullmatch(_ADDRESS, value):
        raise InvalidInput(f"not an email address: {email!r}", code="invalid_email")
    return value


def _user(row: UserRow) -> User:
    return User(row.id, row.email, row.display_name, row.platform_admin)


class UserService:
    def __init__(self, db: Database) -> None:
        self._db = db

    def create_user(self, email: str, name: str = "", *, platform_admin: bool = False) -> User:
        row = UserRow(
            email=normalise_email(email),
            display_name=name.strip()[:200],
            platform_admin=platform_admin,
        )
        try:
            with self._db.session(write=True) as session:
                session.add(row)
        except IntegrityError as exc:
            raise InvalidInput(
                f"a user with email {row.email} already exists", code="user_exists"
            ) from exc
        return _user(row)

    def get(self, user_id: str) -> User | None:
        with self._db.session() as session:
            row = session.get(UserRow, user_id)
            return _user(row) if row is not None else None

    def by_email(self, email: str) -> User:
        address = normalise_email(email)
        with self._db.session() as session:
            row = session.scalars(select(UserRow).where(UserRow.email == address)).first()
            if row is None:
                raise NotFound(f"no user with email {address}", code="user_not_found")
            return _user(row)

    def all(self) -> list[User]:
        with self._db.session() as session:
            return [_user(row) for row in session.scalars(select(UserRow).order_by(UserRow.email))]

    def find_email(self, email: str) -> tuple[User | None, str | None]:
        """The user with ``email`` and their password hash (either may be None)."""
        with self._db.session() as session:
            row = session.scalars(select(UserRow).where(UserRow.email == email)).first()
            if row is None:
                return None, None
            credential = session.get(PasswordRow, row.id)
            return _user(row), credential.hash if credential else None

    def set_password(self, user_id: str, password: str, min_chars: int) -> None:
        value = hash_password(check_policy(password, min_chars))
        self.store_hash(user_id, value)

    def store_hash(self, user_id: str, value: str) -> None:
        with self._db.session(write=True) as session:
            if session.get(UserRow, user_id) is None:
                raise NotFound("no such user", code="user_not_found")
            row = session.get(PasswordRow, user_id)
            if row is None:
                session.add(PasswordRow(user_id=user_id, hash=value, updated_at=utcnow()))
            else:
                row.hash, row.updated_at = value, utcnow()

    def set_platform_admin(self, user_id: str, value: bool) -> None:
        with self._db.session(write=True) as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise NotFound("no such user", code="user_not_found")
            row.platform_admin = value

    def delete(self, user_id: str) -> bool:
        with self._db.session(write=True) as session:
            row = session.get(UserRow, user_id)
            if row is None:
                return False
            session.delete(row)
            return True

    def create_organisation(self, name: str, owner_id: str) -> Organisation:
        org = OrganisationRow(name=name.strip()[:200] or "Organisation")
        with self._db.session(write=True) as session:
            session.add(org)
            session.flush()
            session.add(MembershipRow(organisation_id=org.id, user_id=owner_id, role="owner"))
        return Organisation(org.id, org.name)

    def add_member(self, org_id: str, user_id: str, role: OrgRole) -> None:
        if role not in ORG_ROLES:
            raise InvalidInput(f"unknown organisation role {role!r}", code="invalid_role")
        with self._db.session(write=True) as session:
            existing = session.scalars(membership_query(org_id, user_id)).first()
            if existing is None:
                session.add(MembershipRow(organisation_id=org_id, user_id=user_id, role=role))
            else:
                existing.role = role

    def role_in(self, user_id: str, org_id: str) -> OrgRole | None:
        with self._db.session() as session:
            row = session.scalars(membership_query(org_id, user_id)).first()
            return _role(row.role) if row is not None else None


def membership_query(org_id: str, user_id: str) -> Select[MembershipRow]:
    return select(MembershipRow).where(
        MembershipRow.organisation_id == org_id, MembershipRow.user_id == user_id
    )


def _role(value: str) -> OrgRole | None:
    for role in ORG_ROLES:
        if role == value:
            return role
    return None
