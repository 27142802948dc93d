"""The first platform admin's organisation owns the configured sites (the config file's,
the CLI's, the bundled docs): when such a site is private, that organisation's members read
it, through the reader, search and the assistant; members of any other organisation and
visitors get the same 404 as for a site that does not exist."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest

from askdocs.assistant.site_access import usable_site
from askdocs.users.orgs import OrgDirectory
from askdocs.users.ownership import configured_sites_owner
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import model_server
from tests.signin.conftest import browser, person, sign_in

pytestmark = pytest.mark.anyio


@pytest.fixture
async def private_config(tmp_path: Path, docs_root: Path) -> AsyncIterator[Harness]:
    site = {
        "id": "docs",
        "name": "Docs",
        "public": False,
        "roots": [{"path": str(docs_root / "user-guide")}],
    }
    with model_server() as models:
        url = f"sqlite:///{tmp_path / 'owner.db'}"
        async with open_harness(tmp_path / "data", url, docs_root, models, sites=[site]) as opened:
            yield opened


async def test_members_of_the_owner_organisation_read_a_private_configured_site(
    private_config: Harness,
) -> None:
    harness = private_config
    directory = OrgDirectory(harness.runtime.db)
    root = person(harness, "root@example.com", admin=True)
    outsider = person(harness, "out@example.com")
    member = person(harness, "member@example.com")
    owner_org = directory.create("Platform", root.id)  # the first platform admin's: owns
    other_org = directory.create("Other", outsider.id)
    directory.add_member(owner_org.id, "member@example.com", "member", root.id)
    assert configured_sites_owner(harness.runtime.db) == owner_org.id
    await anyio.to_thread.run_sync(harness.app.engine.index, "docs")

    params = {"site": "docs", "q": "search"}
    for email, status in (
        ("member@example.com", 200),
        ("root@example.com", 200),
        ("out@example.com", 404),
    ):
        client = browser(harness)
        await sign_in(client, email)
        answer = await client.get("/api/search", params=params)
        assert answer.status_code == status, (email, answer.text)
        catalog = await client.get("/api/docs/catalog", params={"site": "docs", "locale": "en"})
        assert catalog.status_code == status, (email, catalog.text)
        if status == 404:
            assert answer.json()["error"]["code"] == "site_not_found"
        await client.aclose()
    visitor = await browser(harness).get("/api/search", params=params)
    assert visitor.status_code == 404

    catalog = harness.app.engine.catalog
    with harness.runtime.db.session() as session:
        assert usable_site(session, catalog, member.id, "docs") == "docs"
        assert usable_site(session, catalog, outsider.id, "docs") is None
    assert other_org.id != owner_org.id
