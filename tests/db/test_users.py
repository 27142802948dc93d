from __future__ import annotations

import pytest
from sqlalchemy import func, select

from askdocs.db import Database
from askdocs.db.models import MembershipRow, UserRow
from askdocs.errors import InvalidInput, NotFound
from askdocs.users.service import UserService


def test_users_are_unique_by_normalised_email(db: Database) -> None:
    users = UserService(db)
    created = users.create_user("  Ann@Example.COM ", "Ann", platform_admin=True)
    assert created.email == "ann@example.com"
    with pytest.raises(InvalidInput) as caught:
        users.create_user("ann@example.com")
    assert caught.value.code == "user_exists"
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(UserRow)) == 1
        row = session.get(UserRow, created.id)
        assert row is not None
        assert row.platform_admin
        assert row.display_name == "Ann"


def test_bad_email_is_refused(db: Database) -> None:
    with pytest.raises(InvalidInput):
        UserService(db).create_user("not-an-email")


def test_memberships_roles(db: Database) -> None:
    users = UserService(db)
    owner = users.create_user("o@x.io")
    member = users.create_user("m@x.io")
    org = users.create_organisation("Acme", owner.id)
    users.add_member(org.id, member.id, "member")
    assert users.role_in(owner.id, org.id) == "owner"
    assert users.role_in(member.id, org.id) == "member"
    users.add_member(org.id, member.id, "admin")
    assert users.role_in(member.id, org.id) == "admin"
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(MembershipRow)) == 2


def test_deleting_a_user_cascades_memberships(db: Database) -> None:
    users = UserService(db)
    owner = users.create_user("o@x.io")
    users.create_organisation("Acme", owner.id)
    assert users.delete(owner.id)
    assert users.get(owner.id) is None
    with pytest.raises(NotFound):
        users.by_email("o@x.io")
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(MembershipRow)) == 0
