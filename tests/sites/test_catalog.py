"""The site catalog: one merge order, one resolution, sources listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.errors import ConfigError, NotFound
from askdocs.settings import RootConfig, Settings, SiteConfig
from askdocs.sites import (
    DEFAULT_SITE_ID,
    OPERATOR,
    VISITOR,
    SiteCaller,
    SiteCatalog,
    SiteSource,
    folder_site,
)
from askdocs.sites.registry import register_site, registered_sites


def _site(ident: str, *, host: str = "", public: bool = True, live: bool = True) -> SiteConfig:
    return SiteConfig(
        id=ident,
        name=ident.title(),
        roots=[RootConfig(path=Path("/nowhere") / ident, required=False)],
        hostnames=[host] if host else [],
        public=public,
        live=live,
    )


def test_sources_merge_config_then_cli_then_admin_and_earlier_wins(tmp_path: Path) -> None:
    register_site(tmp_path, folder_site(tmp_path / "shared-folder", "shared"))
    register_site(tmp_path, folder_site(tmp_path / "cli-folder", "cli-only"))
    settings = Settings(data_dir=tmp_path, sites=[_site("shared"), _site("config-only")])
    catalog = SiteCatalog.from_settings(settings)
    catalog.set_admin_sites([(_site("cli-only"), "org-1"), (_site("org-site"), "org-1")])
    listed = [(e.site.id, e.source) for e in catalog.entries()]
    assert listed == [
        ("shared", SiteSource.CONFIG),
        ("config-only", SiteSource.CONFIG),
        ("cli-only", SiteSource.CLI),
        ("org-site", SiteSource.ADMIN),
    ]
    assert catalog.get("shared").roots[0].path == Path("/nowhere/shared")  # config won
    assert catalog.admin_ids() == {"org-site"}
    assert catalog.static_ids() == {"shared", "config-only", "cli-only"}


def test_with_no_config_and_no_cli_site_the_default_site_is_served(tmp_path: Path) -> None:
    catalog = SiteCatalog.from_settings(Settings(data_dir=tmp_path))
    [entry] = catalog.entries()
    assert (entry.site.id, entry.source) == (DEFAULT_SITE_ID, SiteSource.DEFAULT)


def test_a_cli_registered_folder_replaces_the_default_site(tmp_path: Path) -> None:
    register_site(tmp_path, folder_site(tmp_path / "mydocs", "mydocs"))
    catalog = SiteCatalog.from_settings(Settings(data_dir=tmp_path))
    assert [(e.site.id, e.source) for e in catalog.entries()] == [("mydocs", SiteSource.CLI)]
    assert registered_sites(tmp_path)[0].roots[0].path == tmp_path / "mydocs"


def test_resolution_order_id_then_hostname_then_loopback_then_the_only_site() -> None:
    acme, beta = _site("acme", host="docs.acme.test"), _site("beta", host="beta.test")
    catalog = SiteCatalog([acme, beta])
    assert catalog.resolve(site_id="beta", host="docs.acme.test", caller=VISITOR) is beta
    assert catalog.resolve(host="docs.acme.test", caller=VISITOR) is acme
    with pytest.raises(NotFound):
        catalog.resolve(host="evil.example", caller=VISITOR)  # two sites: no guess
    single = SiteCatalog([acme])
    assert single.resolve(host="192.0.2.1", caller=VISITOR) is acme  # the only site
    assert single.resolve(host="127.0.0.1", caller=VISITOR) is acme
    with pytest.raises(ConfigError):
        catalog.get(None)  # the operator must name one of several


def test_callers_see_what_they_may_use_and_nothing_else_leaks() -> None:
    hidden, draft = _site("hidden", public=False), _site("draft", live=False)
    catalog = SiteCatalog([hidden, draft])
    catalog.set_admin_sites([(_site("private", public=False), "org-a")])
    for ident in ("hidden", "draft", "private", "missing"):
        with pytest.raises(NotFound) as raised:
            catalog.resolve(site_id=ident, caller=VISITOR)
        assert raised.value.code == "site_not_found"
    assert catalog.resolve(site_id="hidden", caller=OPERATOR) is hidden
    member = SiteCaller.member(["org-a"])
    assert catalog.resolve(site_id="private", caller=member).id == "private"
    with pytest.raises(NotFound):
        catalog.resolve(site_id="private", caller=SiteCaller.member(["org-b"]))


def test_an_admin_site_never_takes_a_static_id() -> None:
    catalog = SiteCatalog([_site("acme")])
    catalog.set_admin_sites([(_site("acme", host="evil.test"), "org-a")])
    assert catalog.admin_ids() == frozenset()
    assert catalog.get("acme").hostnames == []
