"""Organisation sites join the engine's site list, yet a fresh install still answers on
loopback: with no hostname match, /api/ask and /api/search on 127.0.0.1 use the configured
public site with Ask AI on (or the default site), never an organisation's site."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from askdocs.db import Database
from askdocs.db.admin_models import SiteRow
from askdocs.errors import NotFound
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import BotCheckSettings, ChatSettings, RootConfig, Settings, SiteConfig
from askdocs.sites import DEFAULT_SITE_ID, VISITOR, SiteCatalog
from askdocs.users.service import UserService
from tests.admin.world import make_admin
from tests.server.conftest import Rig, client, write_docs

LOOPBACK = "127.0.0.1:8000"
LOOPBACK_HOST = "127.0.0.1"


def _site(ident: str, *, public: bool = True, ask: bool = True, host: str = "") -> SiteConfig:
    hostnames = [host] if host else []
    return SiteConfig(
        id=ident, roots=[RootConfig(path=Path("/nowhere"), required=False)],
        hostnames=hostnames, public=public, ask_enabled=ask,
    )  # fmt: skip


def _catalog(configured: list[SiteConfig], org_sites: tuple[SiteConfig, ...] = ()) -> SiteCatalog:
    catalog = SiteCatalog(configured)
    catalog.set_admin_sites([(site, "org") for site in org_sites])
    return catalog


def _resolve(catalog: SiteCatalog, host: str) -> SiteConfig | None:
    try:
        return catalog.resolve(host=host, caller=VISITOR)
    except NotFound:
        return None


def test_loopback_ignores_organisation_and_private_sites() -> None:
    configured = _site("acme", host="docs.acme.test")
    catalog = _catalog([configured], (_site("secret", public=False), _site("open")))
    assert _resolve(catalog, "127.0.0.1") is configured
    assert _resolve(catalog, "localhost") is configured
    assert _resolve(catalog, "docs.acme.test") is configured
    assert _resolve(catalog, "evil.example") is configured  # the only configured site
    assert catalog.get(None) is configured  # the operator's "only site" ignores org sites
    two = _catalog([configured, _site("other", host="other.test")])
    assert _resolve(two, "evil.example") is None  # several sites, no hostname match
    # private configured sites never stand in on loopback either
    assert _resolve(_catalog([configured, _site("secret", public=False)]), "[::1]") is configured


def test_loopback_prefers_the_one_asking_site_then_the_default_site() -> None:
    quiet, asking = _site("quiet", ask=False), _site("acme")
    assert _resolve(_catalog([quiet, asking]), LOOPBACK_HOST) is asking
    default = _site(DEFAULT_SITE_ID)
    assert _resolve(_catalog([asking, default]), LOOPBACK_HOST) is default  # two asking sites
    assert _resolve(_catalog([asking, _site("other")]), LOOPBACK_HOST) is None  # ambiguous
    assert _resolve(_catalog([_site("hidden", public=False)]), LOOPBACK_HOST) is None
    assert _resolve(_catalog([quiet]), LOOPBACK_HOST) is quiet  # the only public one


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
    make_admin(settings, indexed, db).sync_sites()
    try:
        assert [s.id for s in indexed.sites] == ["acme", "org-private", "org-public"]
        assert indexed.catalog.admin_ids() == {"org-private", "org-public"}
        yield settings
    finally:
        indexed.catalog.set_admin_sites([])
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
