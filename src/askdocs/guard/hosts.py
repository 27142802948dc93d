"""Which docs site a request's host names (pure).

A site answers on its ``hostnames`` and on the host of its ``default_address``. A request to
a loopback host (``127.0.0.1``, ``localhost``, ``[::1]``) goes to the only site when exactly
one is configured, so a fresh install answers on http://127.0.0.1:8000.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from askdocs.guard.botcheck import is_loopback
from askdocs.settings import SiteConfig


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


def site_for_host(sites: Sequence[SiteConfig], host: str) -> SiteConfig | None:
    for site in sites:
        if host in site_hosts(site):
            return site
    if len(sites) == 1 and is_loopback(host):
        return sites[0]
    return None
