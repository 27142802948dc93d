"""Which docs site a request's host names (pure).

A site answers on its ``hostnames`` and on the host of its ``default_address``. A request to
a loopback host (``127.0.0.1``, ``localhost``, ``[::1]``) that no site names goes to the
loopback site (``loopback_site``), so a fresh install answers on http://127.0.0.1:8000 even
after organisations add sites of their own.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from urllib.parse import urlsplit

from askdocs.guard.botcheck import is_loopback
from askdocs.settings import SiteConfig
from askdocs.sites import DEFAULT_SITE_ID


def host_name(host_header: str | None) -> str:
    """``Host`` without its port, lower case, without a trailing dot."""
    value = (host_header or "").strip().lower()
    if value.startswith("["):
        value = value[: value.find("]") + 1] if "]" in value else value
    elif value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def site_hosts(site: SiteConfig) -> set[str]:
    hosts = {host_name(h) for h in site.hostnames}
    default = default_host(site)
    if default:
        hosts.add(default)
    return hosts


def default_host(site: SiteConfig) -> str | None:
    if not site.default_address:
        return None
    return host_name(urlsplit(site.default_address).netloc) or None


def site_for_host(
    sites: Sequence[SiteConfig], host: str, org_sites: Collection[str] = ()
) -> SiteConfig | None:
    """The site whose hostnames name ``host``; on loopback, else the loopback site."""
    for site in sites:
        if host in site_hosts(site):
            return site
    if is_loopback(host):
        return loopback_site(sites, org_sites)
    return None


def loopback_site(
    sites: Sequence[SiteConfig], org_sites: Collection[str] = ()
) -> SiteConfig | None:
    """Among the configured public, live sites (organisation sites, ``org_sites``, never
    count): the only one with Ask AI on, else the default site, else the only one."""
    pool = [s for s in sites if s.id not in org_sites and s.public and s.live]
    asking = [s for s in pool if s.ask_enabled]
    if len(asking) == 1:
        return asking[0]
    default = next((s for s in pool if s.id == DEFAULT_SITE_ID), None)
    if default is not None:
        return default
    return pool[0] if len(pool) == 1 else None


def only_site(sites: Sequence[SiteConfig], org_sites: Collection[str] = ()) -> SiteConfig | None:
    """The only configured site, organisation sites aside (None when there are several)."""
    configured = [s for s in sites if s.id not in org_sites]
    return configured[0] if len(configured) == 1 else None
