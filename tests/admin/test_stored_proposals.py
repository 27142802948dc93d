"""Stored proposals on both backends: kept across a fresh store (a reload, a restart), applied
at most once with the whole Apply path, refused for another user like a missing one, and
expired after ``admin.proposal_ttl_seconds``."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import update

from askdocs.admin.proposals import ProposalStore
from askdocs.db.admin_models import ProposalRow, ToolGrantRow
from askdocs.db.models import MembershipRow, utcnow
from askdocs.errors import AskDocsError, Conflict, Forbidden, NotFound
from tests.admin.world import World, db_state, tree_state

PAGE = {"siteId": "alpha", "path": "install.md", "content": "# Install\n\nUse pipx.\n"}


def _install(world: World) -> str:
    return (world.sites_dir / "alpha" / "install.md").read_text()


def test_a_stored_proposal_survives_and_applies_once(any_world: World) -> None:
    world = any_world
    stored = world.api.propose_stored("WritePage", world.owner.id, PAGE, thread_id=None)
    assert stored.state == "pending"
    assert "pipx" not in _install(world)
    fresh = ProposalStore(world.db, 3600)  # a new process reading the same database
    found = fresh.get(world.owner.id, stored.id)
    assert found is not None
    assert found.token == stored.token
    assert found.arguments["organisationId"] == world.org_a
    result = world.api.apply_stored(world.owner.id, stored.id, found.token)
    assert result["applied"] == "WritePage"
    assert _install(world) == PAGE["content"]
    with pytest.raises(Conflict) as again:
        world.api.apply_stored(world.owner.id, stored.id, found.token)
    assert again.value.code == "proposal_settled"
    applied = fresh.get(world.owner.id, stored.id)
    assert applied is not None
    assert applied.state == "applied"
    assert applied.result == result


def test_two_applies_at_once_write_once(any_world: World) -> None:
    world = any_world
    stored = world.api.propose_stored("WritePage", world.owner.id, PAGE)
    outcomes: list[str] = []

    def run() -> None:
        try:
            world.api.apply_stored(world.owner.id, stored.id, stored.token)
            outcomes.append("applied")
        except AskDocsError as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied"] + ["proposal_settled"] * 3


def test_another_users_proposal_is_not_found(any_world: World) -> None:
    world = any_world
    stored = world.api.propose_stored("WritePage", world.owner.id, PAGE)
    before_db, before_files = db_state(world.db), tree_state(world.sites_dir)
    for other in (world.outsider_owner, world.admin, world.platform_admin):
        assert world.api.proposals.get(other.id, stored.id) is None
        with pytest.raises(NotFound) as applying:
            world.api.apply_stored(other.id, stored.id, stored.token)
        assert applying.value.code == "proposal_not_found"
        with pytest.raises(NotFound) as discarding:
            world.api.proposals.discard(other.id, stored.id)
        assert discarding.value.code == "proposal_not_found"
    assert db_state(world.db) == before_db
    assert tree_state(world.sites_dir) == before_files


def test_an_expired_proposal_says_so_and_applies_nothing(any_world: World) -> None:
    world = any_world
    stored = world.api.propose_stored("WritePage", world.owner.id, PAGE)
    with world.db.session(write=True) as session:
        past = utcnow() - timedelta(seconds=1)
        session.execute(
            update(ProposalRow).where(ProposalRow.id == stored.id).values(expires_at=past)
        )
    found = world.api.proposals.get(world.owner.id, stored.id)
    assert found is not None
    assert found.state == "expired"
    with pytest.raises(NotFound) as applying:
        world.api.apply_stored(world.owner.id, stored.id, stored.token)
    assert applying.value.code == "proposal_expired"
    assert "pipx" not in _install(world)


def test_a_wrong_token_is_refused_and_the_proposal_stays_pending(any_world: World) -> None:
    world = any_world
    stored = world.api.propose_stored("WritePage", world.owner.id, PAGE)
    for wrong in ("0" * 64, "", None, stored.token[:-1]):
        with pytest.raises(Forbidden) as refused:
            world.api.apply_stored(world.owner.id, stored.id, wrong)
        assert refused.value.code == "confirmation_invalid"
    found = world.api.proposals.get(world.owner.id, stored.id)
    assert found is not None
    assert found.state == "pending"
    assert "pipx" not in _install(world)


def test_authority_is_checked_again_when_a_stored_proposal_is_applied(any_world: World) -> None:
    world = any_world
    stored = world.api.propose_stored("WritePage", world.admin.id, PAGE)
    with world.db.session(write=True) as session:
        session.execute(
            update(MembershipRow)
            .where(MembershipRow.user_id == world.admin.id)
            .values(role="member")
        )
    with pytest.raises(Forbidden) as refused:
        world.api.apply_stored(world.admin.id, stored.id, stored.token)
    assert refused.value.code == "admin_required"
    found = world.api.proposals.get(world.admin.id, stored.id)
    assert found is not None
    assert found.state == "pending"  # refused: nothing written, still decidable
    assert "pipx" not in _install(world)


def test_a_revoked_grant_refuses_the_apply(world: World) -> None:
    stored = world.api.propose_stored("WritePage", world.owner.id, PAGE)
    with world.db.session(write=True) as session:
        session.query(ToolGrantRow).filter(
            ToolGrantRow.user_id == world.owner.id, ToolGrantRow.tool_name == "apply_write_page"
        ).delete()
    with pytest.raises(Forbidden) as refused:
        world.api.apply_stored(world.owner.id, stored.id, stored.token)
    assert refused.value.code == "tool_not_granted"
    assert "pipx" not in _install(world)


def test_a_discarded_proposal_cannot_be_applied(world: World) -> None:
    stored = world.api.propose_stored("WritePage", world.owner.id, PAGE)
    discarded = world.api.proposals.discard(world.owner.id, stored.id)
    assert discarded.state == "discarded"
    with pytest.raises(Conflict) as applying:
        world.api.apply_stored(world.owner.id, stored.id, stored.token)
    assert applying.value.code == "proposal_settled"
    with pytest.raises(Conflict):
        world.api.proposals.discard(world.owner.id, stored.id)
    assert "pipx" not in _install(world)


def test_a_changed_page_refuses_the_stored_proposal(world: World) -> None:
    stored = world.api.propose_stored("WritePage", world.owner.id, PAGE)
    (world.sites_dir / "alpha" / "install.md").write_text("# Install\n\nEdited meanwhile.\n")
    with pytest.raises(Forbidden) as refused:
        world.api.apply_stored(world.owner.id, stored.id, stored.token)
    assert refused.value.code == "confirmation_invalid"
    assert "Edited meanwhile" in _install(world)
