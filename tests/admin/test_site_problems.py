"""Broken docs in the admin: the Sites list carries each site's state (``docs_root_missing``
when its folder is gone) and the pages its last indexing run left out with the reason
(invalid front matter); the page list names bad files and links the reader cannot follow,
while every good page is still served."""

from __future__ import annotations

import shutil

from tests.admin.world import World

BAD = "---\ntitle: [unclosed\n---\n# Broken\n"
LINKS = "# Links\n\nSee [install](install.md), [gone](missing.md) and [here](#nowhere).\n"


def test_sites_list_the_pages_left_out_with_their_reason(world: World) -> None:
    folder = world.sites_dir / "alpha"
    (folder / "broken.md").write_text(BAD, encoding="utf-8")
    world.api.service.index("alpha")
    listed = world.api.read("list_sites", world.owner.id, {"organisationId": world.org_a})
    alpha = next(site for site in listed["sites"] if site["id"] == "alpha")
    assert alpha["state"] == "ready"
    assert [p["path"] for p in alpha["problems"]] == ["broken.md"]
    assert "invalid YAML front matter" in alpha["problems"][0]["reason"]
    found = world.api.service.search("pip install", site="alpha", limit=3)
    assert [hit.path for hit in found.hits] == ["install.md"]  # the rest still serves


def test_a_site_whose_folder_is_gone_says_so(world: World) -> None:
    world.api.service.index("alpha")
    shutil.rmtree(world.sites_dir / "alpha")
    listed = world.api.read("list_sites", world.owner.id, {"organisationId": world.org_a})
    alpha = next(site for site in listed["sites"] if site["id"] == "alpha")
    assert alpha["state"] == "docs_root_missing"


def test_page_list_names_bad_files_and_unresolved_links(world: World) -> None:
    folder = world.sites_dir / "alpha"
    (folder / "broken.md").write_text(BAD, encoding="utf-8")
    (folder / "links.md").write_text(LINKS, encoding="utf-8")
    pages = world.api.read("list_pages", world.owner.id, {"siteId": "alpha"})
    assert [(e["path"], "front matter" in e["reason"]) for e in pages["errors"]] == [
        ("broken.md", True)
    ]
    assert [(link["path"], link["href"], link["reason"]) for link in pages["links"]] == [
        ("links.md", "missing.md", "no such page"),
        ("links.md", "#nowhere", "anchor not found"),
    ]
