"""Tool grants: accounts start with none, the first platform administrator gets the full
grant once, no migration widens a grant, and grants are assigned only from what one holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from askdocs.admin.grants import ensure_first_admin_grant
from askdocs.admin.table import grantable_tools
from askdocs.db import Database
from askdocs.db.admin_models import ToolGrantRow
from askdocs.db.engine import make_engine
from askdocs.db.migrate import migrate
from askdocs.errors import Forbidden, InvalidInput
from askdocs.users.service import UserService
from tests.admin.world import World, db_state


def grants(db: Database, user_id: str) -> list[str]:
    with db.session() as session:
        query = select(ToolGrantRow.tool_name).where(ToolGrantRow.user_id == user_id)
        return sorted(session.scalars(query))


def test_new_accounts_hold_nothing_and_the_first_admin_holds_everything(tmp_path: Path) -> None:
    db = Database.from_url(f"sqlite:///{tmp_path / 'g.db'}")
    users = UserService(db)
    plain = users.create_user("a@x.io")
    assert (
        ensure_first_admin_grant(db, grantable_tools()) is None
    )  # no administrator yet: nothing granted
    first = users.create_user("root@x.io", platform_admin=True)
    second = users.create_user("root2@x.io", platform_admin=True)
    assert ensure_first_admin_grant(db, grantable_tools()) == first.id
    assert grants(db, first.id) == sorted(grantable_tools())
    assert grants(db, plain.id) == []
    assert grants(db, second.id) == []
    UserService(db).delete(first.id)  # once is once: nobody inherits the full grant
    assert ensure_first_admin_grant(db, grantable_tools()) == first.id
    assert grants(db, second.id) == []
    db.close()


def test_no_migration_widens_an_existing_grant(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine, "0001")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO users (id, email, display_name, platform_admin, created_at) "
            "VALUES ('u1', 'root@x.io', '', true, CURRENT_TIMESTAMP)"
        )
    migrate(engine)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM tool_grants").scalar() == 0
        assert conn.exec_driver_sql("SELECT count(*) FROM admin_markers").scalar() == 0
    engine.dispose()


def test_a_tool_not_granted_is_refused_and_writes_nothing(world: World) -> None:
    with world.db.session(write=True) as session:
        session.execute(
            ToolGrantRow.__table__.delete().where(ToolGrantRow.user_id == world.owner.id)
        )
    before = db_state(world.db)
    for call in (
        lambda: world.api.read("list_sites", world.owner.id, {}),
        lambda: world.api.propose("DeleteSite", world.owner.id, {"siteId": "alpha"}),
        lambda: world.api.apply(
            "DeleteSite", world.owner.id, {"siteId": "alpha", "confirmationToken": "0" * 64}
        ),
    ):
        with pytest.raises(Forbidden) as refused:
            call()
        assert refused.value.code == "tool_not_granted"
    assert db_state(world.db) == before


def test_grants_are_assigned_only_from_what_the_assigner_holds(world: World) -> None:
    some = ["list_sites", "read_page"]
    with world.db.session(write=True) as session:
        session.execute(
            ToolGrantRow.__table__.delete().where(ToolGrantRow.user_id == world.member.id)
        )
        session.execute(
            ToolGrantRow.__table__.delete().where(
                ToolGrantRow.user_id == world.admin.id,
                ToolGrantRow.tool_name.in_(["list_pages", "propose_assign_tool_grants"]),
            )
        )
    # the owner holds everything: grants two tools to the member
    args = {"userId": world.member.id, "tools": some}
    proposal = world.api.propose("AssignToolGrants", world.owner.id, args)
    assert "add list_sites, read_page" in proposal["proposal"]["summary"]
    world.api.apply(
        "AssignToolGrants",
        world.owner.id,
        {**args, "confirmationToken": proposal["confirmationToken"]},
    )
    assert grants(world.db, world.member.id) == some
    # the admin cannot hand out list_pages, which it does not hold itself
    with pytest.raises(Forbidden):
        world.api.propose(
            "AssignToolGrants", world.admin.id, {"userId": world.member.id, "tools": ["list_pages"]}
        )
    world.grant_all(world.admin)
    with world.db.session(write=True) as session:
        session.execute(
            ToolGrantRow.__table__.delete().where(
                ToolGrantRow.user_id == world.admin.id, ToolGrantRow.tool_name == "list_pages"
            )
        )
    with pytest.raises(InvalidInput) as refused:
        world.api.propose(
            "AssignToolGrants", world.admin.id, {"userId": world.member.id, "tools": ["list_pages"]}
        )
    assert refused.value.code == "grant_not_held"
    with pytest.raises(InvalidInput):
        world.api.propose(
            "AssignToolGrants", world.owner.id, {"userId": world.member.id, "tools": ["rm_rf"]}
        )


def test_removing_tools_leaves_the_ones_the_assigner_does_not_hold(world: World) -> None:
    with world.db.session(write=True) as session:
        session.execute(
            ToolGrantRow.__table__.delete().where(
                ToolGrantRow.user_id == world.admin.id, ToolGrantRow.tool_name == "list_sites"
            )
        )
    args = {"userId": world.member.id, "tools": []}
    token = world.api.propose("AssignToolGrants", world.admin.id, args)["confirmationToken"]
    world.api.apply("AssignToolGrants", world.admin.id, {**args, "confirmationToken": token})
    assert grants(world.db, world.member.id) == ["list_sites"]
