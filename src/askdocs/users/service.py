"""The users service: create and find users, organisations and memberships."""

from __future__ import annotations

from sqlalchemy import Select, select, update
from sqlalchemy.exc import IntegrityError

from askdocs.auth.emails import normalise_email
from askdocs.db import Database
from askdocs.db.auth_models import PasswordRow
from askdocs.db.models import MembershipRow, OrganisationRow, UserRow, utcnow
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput, NotFound
from askdocs.users.passwords import check_policy, hash_password
from askdocs.users.types import ORG_ROLES, Organisation, OrgRole, User


def _user(row: UserRow) -> User:
    return User(row.id, row.email, row.display_name, row.platform_admin, row.token_version)


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
                f"a user with email {row.email} already exists", code=ErrorCode.USER_EXISTS
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
                raise NotFound(f"no user with email {address}", code=ErrorCode.USER_NOT_FOUND)
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
        """Set the password; replacing one bumps the account's token version."""
        value = hash_password(check_policy(password, min_chars))
        self.store_hash(user_id, value, change=True)

    def store_hash(self, user_id: str, value: str, *, change: bool = False) -> None:
        """Store a hash; ``change`` (a new password, not a re-hash of the same one) bumps
        the token version when it replaces a password, in the same transaction."""
        with self._db.session(write=True) as session:
            user = session.get(UserRow, user_id)
            if user is None:
                raise NotFound("no such user", code=ErrorCode.USER_NOT_FOUND)
            row = session.get(PasswordRow, user_id)
            if row is None:
                session.add(PasswordRow(user_id=user_id, hash=value, updated_at=utcnow()))
                return
            row.hash, row.updated_at = value, utcnow()
            if change:
                user.token_version += 1

    def bump_token_version(self, user_id: str) -> None:
        """End every bearer token and session issued to the account until now."""
        with self._db.session(write=True) as session:
            session.execute(
                update(UserRow)
                .where(UserRow.id == user_id)
                .values(token_version=UserRow.token_version + 1)
            )

    def set_platform_admin(self, user_id: str, value: bool) -> None:
        with self._db.session(write=True) as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise NotFound("no such user", code=ErrorCode.USER_NOT_FOUND)
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
            raise InvalidInput(f"unknown organisation role {role!r}", code=ErrorCode.INVALID_ROLE)
        with self._db.session(write=True) as session:
            existing = session.scalars(membership_query(org_id, user_id)).first()
            if existing is None:
                session.add(MembershipRow(organisation_id=org_id, user_id=user_id, role=role))
            else:
                existing.role = role

    def memberships(self, user_id: str) -> list[tuple[Organisation, OrgRole]]:
        """The user's organisations with their role in each, by organisation name."""
        query = (
            select(OrganisationRow.id, OrganisationRow.name, MembershipRow.role)
            .join(MembershipRow, MembershipRow.organisation_id == OrganisationRow.id)
            .where(MembershipRow.user_id == user_id)
            .order_by(OrganisationRow.name)
        )
        with self._db.session() as session:
            rows = session.execute(query).all()
        found = [(Organisation(org_id, name), _role(role)) for org_id, name, role in rows]
        return [(org, role) for org, role in found if role is not None]

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
