"""Host names of requests and sites (pure): a site answers on its ``hostnames`` and on the
host of its ``default_address``. Which site a host selects is ``askdocs.sites.catalog``'s."""

from __future__ import annotations

from urllib.parse import urlsplit

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
