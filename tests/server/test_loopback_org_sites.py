"""Organisation sites join the engine's site list, yet a fresh install still answers on
loopback: with no hostname match, /api/ask and /api/search on 127.0.0.1 use the configured
public site with Ask AI on (or the default site), never an organisation's site."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from askdocs.admin.api import AdminApi, org_site_ids
from askdocs.db import Database
from askdocs.db.admin_models import SiteRow
from askdocs.guard.hosts import loopback_site, only_site, site_for_host
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import BotCheckSettings, ChatSettings, RootConfig, Settings, SiteConfig
from askdocs.sites import DEFAULT_SITE_ID
from askdocs.users.service import UserService
from tests.server.conftest import Rig, client, write_docs

LOOPBACK = "127.0.0.1:8000"


def _site(ident: str, *, public: bool = True, ask: bool = True, host: str = "") -> SiteConfig:
    hostnames = [host] if host else []
    return SiteConfig(
        id=ident, roots=[RootConfig(path=Path("/nowhere"), required=False)],
        hostnames=hostnames, public=public, ask_enabled=ask,
    )  # fmt: skip


def test_loopback_ignores_organisation_and_private_sites() -> None:
    configured = _site("acme", host="docs.acme.test")
    private_org, public_org = _site("secret", public=False), _site("open")
    sites = [configured, private_org, public_org]
    orgs = {"secret", "open"}
    assert site_for_host(sites, "127.0.0.1", orgs) is configured
    assert site_for_host(sites, "localhost", orgs) is configured
    assert site_for_host(sites, "docs.acme.test", orgs) is configured
    assert site_for_host(sites, "evil.example", orgs) is None
    assert only_site(sites, orgs) is configured
    # without knowing which are organisation sites, private ones still never count
    assert loopback_site([configured, private_org]) is configured


def test_loopback_prefers_the_one_asking_site_then_the_default_site() -> None:
    quiet, asking = _site("quiet", ask=False), _site("acme")
    assert loopback_site([quiet, asking]) is asking
    default = _site(DEFAULT_SITE_ID)
    assert loopback_site([asking, default]) is default  # two asking sites: the default one
    assert loopback_site([asking, _site("other")]) is None  # ambiguous: name one
    assert loopback_site([_site("hidden", public=False)]) is None
    assert loopback_site([quiet]) is quiet  # the only public one, even with Ask AI off


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AskDocs]:
    """One configured site, indexed once for the module."""
    tmp = tmp_path_factory.mktemp("loopback")
    docs = write_docs(tmp / "docs")
    site = SiteConfig(id="acme", name="Acme", roots=[RootConfig(path=docs)], hostnames=["a.test"])
    service = AskDocs(Settings(data_dir=tmp / "data", sites=[site]))
    service.ensure_indexed()
    yield service
    service.close()


@pytest.fixture
def with_org_sites(tmp_path: Path, rig: Rig, indexed: AskDocs) -> Iterator[Settings]:
    """The service's site list after organisations added a private and a public site."""
    configured = list(indexed.sites)
    settings = rig.settings.model_copy(
        update={
            "database_url": f"sqlite:///{tmp_path / 'org.db'}",
            "bot_check": BotCheckSettings(provider="off"),
            "chat": ChatSettings(provider="none"),
        }
    )
    db = Database.open(settings)
    users = UserService(db)
    org = users.create_organisation("Org", users.create_user("o@x.io").id).id
    with db.session(write=True) as session:
        for ident, public in (("org-private", False), ("org-public", True)):
            roots = [{"path": "", "audience": "user"}]
            session.add(
                SiteRow(
                    id=ident,
                    organisation_id=org,
                    name=ident,
                    roots=roots,
                    hostnames=[],
                    public=public,
                )
            )
    AdminApi(settings, indexed, db).sync_sites()
    try:
        assert [s.id for s in indexed.sites] == ["acme", "org-private", "org-public"]
        assert org_site_ids(indexed) == {"org-private", "org-public"}
        yield settings
    finally:
        indexed.sites[:] = configured
        db.close()


@pytest.mark.anyio
async def test_search_and_ask_on_loopback_use_the_configured_site(
    with_org_sites: Settings, indexed: AskDocs
) -> None:
    app = create_app(with_org_sites, indexed)
    async with client(app, LOOPBACK) as http:
        searched = await http.get("/api/search", params={"q": "install with pip"})
        asked = await http.post(
            "/api/ask",
            json={"token": "", "messages": [{"role": "user", "content": "How to install?"}]},
        )
    assert searched.status_code == 200, searched.text
    assert searched.json()["site"] == "acme"
    assert asked.status_code == 200, asked.text
    assert "pip install acme" in asked.text
