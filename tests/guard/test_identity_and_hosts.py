from __future__ import annotations

from pathlib import Path

from askdocs.errors import NotFound
from askdocs.guard.hosts import host_name
from askdocs.guard.visitor import visitor_id
from askdocs.settings import RootConfig, SiteConfig
from askdocs.sites import VISITOR, SiteCatalog


def test_visitor_id_is_keyed_and_hides_the_address() -> None:
    a = visitor_id(b"key-one", "203.0.113.7")
    assert a == visitor_id(b"key-one", "203.0.113.7")
    assert a != visitor_id(b"key-two", "203.0.113.7")
    assert a != visitor_id(b"key-one", "203.0.113.8")
    assert "203" not in a
    assert len(a) == 32


def test_ipv6_visitors_are_grouped_by_their_64() -> None:
    one = visitor_id(b"k", "2001:db8:1:2::1")
    assert one == visitor_id(b"k", "2001:db8:1:2:ffff::9")
    assert one != visitor_id(b"k", "2001:db8:1:3::1")
    assert visitor_id(b"k", "::ffff:198.51.100.1") == visitor_id(b"k", "198.51.100.1")


def site(site_id: str, *hostnames: str, default: str | None = None) -> SiteConfig:
    return SiteConfig(
        id=site_id,
        roots=[RootConfig(path=Path("/nowhere"))],
        hostnames=list(hostnames),
        default_address=default,
    )


def test_host_name_normalisation() -> None:
    assert host_name("Docs.Example.COM.:8443") == "docs.example.com"
    assert host_name("[::1]:8000") == "[::1]"
    assert host_name(None) == ""


def test_sites_by_hostname_default_address_and_loopback() -> None:
    acme = site("acme", "docs.acme.com", default="https://acme.askdocs.example")
    other = site("other", "other.example")
    assert site_for_host([acme, other], "docs.acme.com") is acme
    assert site_for_host([acme, other], "acme.askdocs.example") is acme
    assert site_for_host([acme, other], "evil.example") is None
    assert site_for_host([acme, other], "127.0.0.1") is None  # two sites: name one
    assert site_for_host([acme], "127.0.0.1") is acme
    assert site_for_host([acme], "localhost") is acme
    assert site_for_host([acme], "[::1]") is acme


def site_for_host(sites: list[SiteConfig], host: str) -> SiteConfig | None:
    """The catalog's resolution of ``host`` for a visitor (None for 404)."""
    try:
        return SiteCatalog(sites).resolve(host=host, caller=VISITOR)
    except NotFound:
        return None
