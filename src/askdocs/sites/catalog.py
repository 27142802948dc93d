"""``SiteCatalog``: every site the process serves, where each comes from, and the one
``resolve`` every surface (HTTP, CLI, MCP, assistant) uses to pick a site.

Sources merge in one order; an id an earlier source defines wins over a later one:

1. ``config``: the ``[[sites]]`` of the config file (``Settings.sites``);
2. ``cli``: folders registered by ``askdocs index PATH`` in ``<data-dir>/sites.json``;
3. ``admin``: organisation sites created through the admin API (database rows, replaced
   as a whole by ``set_admin_sites`` whenever they change).

With neither a config nor a CLI site, the catalog serves askdocs's own documentation
(source ``default``).

``resolve(host=, site_id=, caller=)`` picks one site: the id when given; else the site whose
hostnames (or default address) name ``host``; else, on a loopback host, the loopback site
(among public, live config/CLI sites: the only one with Ask AI on, else the default site,
else the only one); else the only config/CLI site. Then the caller must be allowed to use
it (``SiteCaller``); anything else is 404 ``site_not_found``, exactly like an unknown id.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError, NotFound
from askdocs.guard.botcheck import is_loopback
from askdocs.guard.hosts import site_hosts
from askdocs.settings import Settings, SiteConfig
from askdocs.sites.defaults import DEFAULT_SITE_ID, own_docs_site
from askdocs.sites.registry import registered_sites
from askdocs.types import Audience


class SiteSource(StrEnum):
    CONFIG = "config"
    CLI = "cli"
    ADMIN = "admin"
    DEFAULT = "default"


@dataclass(frozen=True)
class CatalogEntry:
    site: SiteConfig
    source: SiteSource
    organisation: str | None = None  # admin sites: the owning organisation


@dataclass(frozen=True)
class SiteCaller:
    """Who asks. ``everything``: the operator (CLI, MCP local mode, the server's own
    checks); otherwise public, live sites, plus the sites of ``organisations``.
    ``signed_in``: a member of this deployment, who may also read developer pages."""

    everything: bool = False
    organisations: frozenset[str] = frozenset()
    configured_sites: bool = False  # a member of the organisation that owns them
    signed_in: bool = False
    account: str | None = None  # the signed-in user's id (search execution's account)

    @property
    def reads_developer_pages(self) -> bool:
        return self.everything or self.signed_in

    def search_audience(self, requested: Audience | None = None) -> tuple[Audience | None, bool]:
        """The one audience rule of every surface: the audience a search for this caller
        reads (None: both), and whether ``requested`` is one the reader shows them at all
        (a visitor asking for developer pages gets none: the reader refuses them)."""
        if self.reads_developer_pages:
            return requested, True
        return "user", requested in (None, "user")

    def may_use(self, entry: CatalogEntry) -> bool:
        if self.everything:
            return True
        if entry.organisation is not None and entry.organisation in self.organisations:
            return True
        if self.configured_sites and entry.source is not SiteSource.ADMIN:
            return entry.site.live
        return entry.site.public and entry.site.live

    @classmethod
    def member(
        cls,
        organisations: Iterable[str],
        owner_of_configured: str | None = None,
        account: str | None = None,
    ) -> SiteCaller:
        """A signed-in caller; ``owner_of_configured`` is the organisation that owns the
        configured sites (config file, CLI, bundled): its members read them when private."""
        orgs = frozenset(organisations)
        owns = owner_of_configured is not None and owner_of_configured in orgs
        return cls(organisations=orgs, configured_sites=owns, signed_in=True, account=account)


VISITOR = SiteCaller()
OPERATOR = SiteCaller(everything=True)


def site_not_found() -> NotFound:
    return NotFound("no such public documentation site", code=ErrorCode.SITE_NOT_FOUND)


class SiteCatalog:
    """Thread-safe: admin sites are swapped as a whole; readers see a consistent list."""

    def __init__(
        self,
        configured: Sequence[SiteConfig] = (),
        registered: Sequence[SiteConfig] = (),
    ) -> None:
        static = [CatalogEntry(s, SiteSource.CONFIG) for s in configured]
        static += [CatalogEntry(s, SiteSource.CLI) for s in registered]
        if not static:
            static = [CatalogEntry(own_docs_site(), SiteSource.DEFAULT)]
        self._static = _unique(static)
        self._admin: tuple[CatalogEntry, ...] = ()
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> SiteCatalog:
        """Config-file sites, then the CLI's registered folders of ``settings.data_dir``."""
        return cls(settings.sites, registered_sites(settings.data_dir))

    # -- what the catalog holds ------------------------------------------------------------

    def entries(self) -> tuple[CatalogEntry, ...]:
        with self._lock:
            return self._static + self._admin

    def sites(self) -> list[SiteConfig]:
        return [entry.site for entry in self.entries()]

    def static_ids(self) -> set[str]:
        """Ids of config, CLI and default sites (an admin site may not take one)."""
        return {entry.site.id for entry in self._static}

    def admin_ids(self) -> frozenset[str]:
        with self._lock:
            return frozenset(entry.site.id for entry in self._admin)

    def entry(self, site_id: str) -> CatalogEntry | None:
        return next((e for e in self.entries() if e.site.id == site_id), None)

    def set_admin_sites(self, sites: Iterable[tuple[SiteConfig, str]]) -> None:
        """Replace the admin sources' sites: ``(config, organisation id)`` pairs."""
        taken = self.static_ids()
        fresh = [CatalogEntry(s, SiteSource.ADMIN, org) for s, org in sites if s.id not in taken]
        with self._lock:
            self._admin = _unique(fresh)

    # -- choosing one ----------------------------------------------------------------------

    def resolve(
        self, *, host: str | None = None, site_id: str | None = None, caller: SiteCaller
    ) -> SiteConfig:
        """The site a request names (see the module docstring); 404 ``site_not_found``."""
        entries = self.entries()
        found = _named(entries, site_id) if site_id is not None else _hosted(entries, host)
        if found is None and site_id is None and host is None:
            raise ConfigError("several sites are configured: name one with --site")
        if found is None or not caller.may_use(found):
            raise site_not_found()
        return found.site

    def get(self, site_id: str | None) -> SiteConfig:
        """The operator's lookup (CLI, MCP, the engine): the id, or the only site."""
        return self.resolve(site_id=site_id, caller=OPERATOR)


def _named(entries: Sequence[CatalogEntry], site_id: str) -> CatalogEntry | None:
    return next((e for e in entries if e.site.id == site_id), None)


def _hosted(entries: Sequence[CatalogEntry], host: str | None) -> CatalogEntry | None:
    if host:
        matched = next((e for e in entries if host in site_hosts(e.site)), None)
        if matched is not None:
            return matched
        looped = loopback_entry(entries) if is_loopback(host) else None
        if looped is not None:
            return looped
    static = [e for e in entries if e.source is not SiteSource.ADMIN]
    return static[0] if len(static) == 1 else None


def loopback_entry(entries: Sequence[CatalogEntry]) -> CatalogEntry | None:
    """Among public, live config/CLI sites: the only one with Ask AI on, else the default
    site, else the only one (organisation sites never stand in on loopback)."""
    pool = [
        e for e in entries if e.source is not SiteSource.ADMIN and e.site.public and e.site.live
    ]
    asking = [e for e in pool if e.site.ask_enabled]
    if len(asking) == 1:
        return asking[0]
    default = next((e for e in pool if e.site.id == DEFAULT_SITE_ID), None)
    if default is not None:
        return default
    return pool[0] if len(pool) == 1 else None


def _unique(entries: Iterable[CatalogEntry]) -> tuple[CatalogEntry, ...]:
    """The first entry of each id (earlier sources win)."""
    seen: set[str] = set()
    kept: list[CatalogEntry] = []
    for entry in entries:
        if entry.site.id not in seen:
            seen.add(entry.site.id)
            kept.append(entry)
    return tuple(kept)
