"""The one service facade: the CLI, HTTP routes, assistant tools and MCP tools all call this.

``AskDocs`` owns the settings, the resolved sites, the corpus readers, the embedder, the
vector store and the indexer. Surfaces never reach past it into the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from askdocs.settings import Settings, SiteConfig
from askdocs.sites import configured_sites, find_site
from askdocs.types import Audience, SearchResult

ProgressCallback = Callable[[int, int], None]  # (done, total) chunks embedded


@dataclass(frozen=True)
class IndexReport:
    """What one indexing run did (``askdocs index --json`` prints it)."""

    site: str
    collection: str
    chunks: int
    embedded: int
    reused: int
    pages: int
    errors: int
    seconds: float


@dataclass(frozen=True)
class SiteIndexStatus:
    site: str
    ready: bool  # a complete collection exists
    building: bool
    collection: str | None
    chunks: int
    error: str | None = None


class AskDocs:
    """Facade over the engine. Build with ``AskDocs(settings)``; close with ``close()``."""

    def __init__(self, settings: Settings, sites: Sequence[SiteConfig] | None = None) -> None:
        self.settings = settings
        self.sites: list[SiteConfig] = list(sites) if sites else configured_sites(settings)

    def site(self, site_id: str | None) -> SiteConfig:
        return find_site(self.sites, site_id)

    # The engine issue fills in the methods below: index(), ensure_indexed(), search(),
    # status(). Their signatures are the contract the surfaces code against.

    def index(
        self, site_id: str | None = None, progress: ProgressCallback | None = None
    ) -> IndexReport:
        """Index one site incrementally (reusing vectors by embed hash) and make it current."""
        raise NotImplementedError  # engine issue

    def ensure_indexed(self) -> list[IndexReport]:
        """Idempotent: index every configured site whose corpus or model changed."""
        raise NotImplementedError  # engine issue

    def search(
        self,
        query: str,
        *,
        site: str | None = None,
        locale: str | None = None,
        audience: Audience | None = None,
        limit: int = 10,
        history: Sequence[str] = (),
    ) -> SearchResult:
        """Hybrid search over the last complete collection of ``site``."""
        raise NotImplementedError  # engine issue

    def status(self, site_id: str) -> SiteIndexStatus:
        raise NotImplementedError  # engine issue

    def close(self) -> None:
        """Release stores and models."""
