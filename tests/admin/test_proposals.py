"""Propose writes nothing; apply re-derives the payload from the database and verifies the
token; renamed targets, edited content, other users and replays are refused."""

from __future__ import annotations

from typing import Any

import pytest

from askdocs.errors import Forbidden, InvalidInput, NotFound
from askdocs.ingest import read_site
from tests.admin.world import World, db_state, tree_state

NEW_PAGE = {"siteId": "alpha", "path": "guide/new.md", "content": "# New\n\nHello.\n"}


def propose(world: World, operation: str, args: dict[str, Any], user: Any = None) -> str:
    who = user or world.owner
    return str(world.api.propose(operation, who.id, args)["confirmationToken"])


def apply(world: World, operation: str, args: dict[str, Any], token: str, user: Any = None) -> Any:
    who = user or world.owner
    return world.api.apply(operation, who.id, {**args, "confirmationToken": token})


def test_propose_writes_nothing_and_shows_a_readable_diff(world: World) -> None:
    before_db, before_files = db_state(world.db), tree_state(world.sites_dir)
    args = {"siteId": "alpha", "path": "install.md", "content": "# Install\n\nUse pipx.\n"}
    result = world.api.propose("WritePage", world.owner.id, args)
    assert db_state(world.db) == before_db
    assert tree_state(world.sites_dir) == before_files
    assert "Replace the page install.md" in result["proposal"]["summary"]
    assert "-Run `pip install askdocs`." in result["proposal"]["diff"]
    assert "+Use pipx." in result["proposal"]["diff"]
    assert len(result["confirmationToken"]) == 64


def test_a_page_write_applies_atomically_inside_the_root(world: World) -> None:
    token = propose(world, "WritePage", NEW_PAGE)
    result = apply(world, "WritePage", NEW_PAGE, token)
    target = world.sites_dir / "alpha" / "guide" / "new.md"
    assert target.read_text(encoding="utf-8") == NEW_PAGE["content"]
    assert result["written"]["path"] == "guide/new.md"
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".")]  # no temp left


def test_edited_content_or_a_changed_page_refuses_the_token(world: World) -> None:
    token = propose(world, "WritePage", NEW_PAGE)
    edited = {**NEW_PAGE, "content": "# New\n\nSomething else.\n"}
    with pytest.raises(Forbidden) as refused:
        apply(world, "WritePage", edited, token)
    assert refused.value.code == "confirmation_invalid"
    assert not (world.sites_dir / "alpha" / "guide" / "new.md").exists()
    # the page appears between propose and apply: the "before" hash no longer matches
    (world.sites_dir / "alpha" / "guide").mkdir()
    (world.sites_dir / "alpha" / "guide" / "new.md").write_text("someone else's\n")
    with pytest.raises(Forbidden):
        apply(world, "WritePage", NEW_PAGE, token)
    assert (world.sites_dir / "alpha" / "guide" / "new.md").read_text() == "someone else's\n"


def test_a_token_is_bound_to_its_user_and_operation(world: World) -> None:
    token = propose(world, "DeleteSite", {"siteId": "alpha"})
    before = db_state(world.db)
    with pytest.raises(Forbidden):
        apply(world, "DeleteSite", {"siteId": "alpha"}, token, user=world.admin)  # other user
    with pytest.raises(Forbidden):
        apply(world, "UpdateSite", {"siteId": "alpha", "name": "X"}, token)  # other operation
    with pytest.raises(Forbidden):
        apply(world, "DeleteSite", {"siteId": "alpha"}, "f" * 64)  # invented
    assert db_state(world.db) == before


def test_a_renamed_target_refuses_the_old_delete_token(world: World) -> None:
    token = propose(world, "DeleteSite", {"siteId": "alpha"})
    rename = {"siteId": "alpha", "name": "Archive 2024"}
    apply(world, "UpdateSite", rename, propose(world, "UpdateSite", rename))
    before = db_state(world.db)
    with pytest.raises(Forbidden):
        apply(world, "DeleteSite", {"siteId": "alpha"}, token)
    assert db_state(world.db) == before
    fresh = propose(world, "DeleteSite", {"siteId": "alpha"})
    assert (
        apply(world, "DeleteSite", {"siteId": "alpha"}, fresh)["deleted"]["name"] == "Archive 2024"
    )


def test_a_replayed_token_changes_nothing_twice(world: World) -> None:
    args = {"id": "delta", "name": "Delta", "hostnames": ["Delta.Docs.Test"]}
    token = propose(world, "CreateSite", args)
    created = apply(world, "CreateSite", args, token)
    assert created["created"]["hostnames"] == ["delta.docs.test"]
    assert "delta" in [site.id for site in world.api.service.sites]  # the engine knows it
    before = db_state(world.db)
    with pytest.raises(InvalidInput) as again:
        apply(world, "CreateSite", args, token)
    assert again.value.code == "site_exists"
    assert db_state(world.db) == before
    update = {"siteId": "delta", "public": False}
    token = propose(world, "UpdateSite", update)
    apply(world, "UpdateSite", update, token)
    with pytest.raises(InvalidInput):  # nothing left to change
        apply(world, "UpdateSite", update, token)


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("../escape.md", "invalid_path"),
        ("/etc/passwd.md", "invalid_path"),
        ("a//b.md", "invalid_path"),
        (".hidden.md", "invalid_path"),
        ("notes.txt", "invalid_path"),
        ("README.md", "invalid_path"),
        ("a\\b.md", "invalid_path"),
        ("x\x00.md", "invalid_path"),
    ],
)
def test_unsafe_page_paths_are_refused(world: World, path: str, code: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        world.api.propose("WritePage", world.owner.id, {**NEW_PAGE, "path": path})
    assert refused.value.code == code


def test_links_inside_the_site_are_refused_for_writes_reads_and_deletes(
    world: World, tmp_path: Any
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# secret\n")
    site = world.sites_dir / "alpha"
    (site / "linked").symlink_to(outside)
    (site / "file-link.md").symlink_to(outside / "secret.md")
    for operation, args in (
        ("WritePage", {**NEW_PAGE, "path": "linked/x.md"}),
        ("WritePage", {**NEW_PAGE, "path": "file-link.md"}),
        ("DeletePage", {"siteId": "alpha", "path": "file-link.md"}),
    ):
        with pytest.raises(InvalidInput) as refused:
            world.api.propose(operation, world.owner.id, args)
        assert refused.value.code == "unsafe_path"
    with pytest.raises(InvalidInput):
        world.api.read("read_page", world.owner.id, {"siteId": "alpha", "path": "file-link.md"})
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]


def test_a_link_swapped_in_after_propose_is_refused_at_apply(world: World, tmp_path: Any) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    token = propose(world, "WritePage", NEW_PAGE)
    (world.sites_dir / "alpha" / "guide").symlink_to(outside)
    with pytest.raises(InvalidInput):
        apply(world, "WritePage", NEW_PAGE, token)
    assert list(outside.iterdir()) == []


def test_deleting_a_page_binds_its_content(world: World) -> None:
    args = {"siteId": "alpha", "path": "install.md"}
    token = propose(world, "DeletePage", args)
    (world.sites_dir / "alpha" / "install.md").write_text("# changed since\n")
    with pytest.raises(Forbidden):
        apply(world, "DeletePage", args, token)
    assert (world.sites_dir / "alpha" / "install.md").exists()
    apply(world, "DeletePage", args, propose(world, "DeletePage", args))
    assert not (world.sites_dir / "alpha" / "install.md").exists()
    with pytest.raises(NotFound):
        world.api.propose("DeletePage", world.owner.id, args)


def test_draft_pages_written_by_the_tools_are_never_indexed(world: World) -> None:
    draft = {
        "siteId": "alpha",
        "path": "draft.md",
        "content": "---\ntitle: Secret plans\ndraft: true\n---\n# Secret plans\n\nNot yet.\n",
    }
    proposal = world.api.propose("WritePage", world.owner.id, draft)
    assert "draft: true" in proposal["proposal"]["summary"]
    apply(world, "WritePage", draft, proposal["confirmationToken"])
    page = world.api.read("read_page", world.owner.id, {"siteId": "alpha", "path": "draft.md"})
    assert page["draft"] is True
    snapshot = read_site(world.api.service.site("alpha"), world.settings.corpus)
    assert [p.title for p in snapshot.pages] == ["Install"]
    assert all("Secret plans" not in chunk.text for chunk in snapshot.chunks)


def test_sites_are_validated(world: World) -> None:
    cases = [
        ({"id": "Bad Id", "name": "x"}, "invalid_argument"),
        ({"id": "static", "name": "x"}, "site_exists"),  # a configured site's id
        ({"id": "echo", "name": "Alpha"}, "site_name_taken"),
        ({"id": "echo", "name": "Echo", "hostnames": ["bravo.docs.test"]}, "hostname_taken"),
        ({"id": "echo", "name": "Echo", "roots": [{"path": "../up"}]}, "invalid_argument"),
        ({"id": "echo", "name": "Echo", "roots": [{"path": "/abs"}]}, "invalid_argument"),
        ({"id": "echo", "name": "Echo", "public": "yes"}, "invalid_argument"),
    ]
    for args, code in cases:
        with pytest.raises(InvalidInput) as refused:
            world.api.propose("CreateSite", world.owner.id, args)
        assert refused.value.code == code, args


def test_twenty_concurrent_applies_of_one_token_apply_once(world: World) -> None:
    import threading

    token = propose(world, "WritePage", NEW_PAGE)
    barrier = threading.Barrier(20)
    outcomes: list[str] = []

    def run() -> None:
        barrier.wait()
        try:
            apply(world, "WritePage", NEW_PAGE, token)
            outcomes.append("applied")
        except Forbidden:
            outcomes.append("refused")

    threads = [threading.Thread(target=run) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("applied") == 1
    assert outcomes.count("refused") == 19
