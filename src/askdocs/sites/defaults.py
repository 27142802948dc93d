"""Site definitions that need no catalog: the default site (askdocs's own documentation),
a folder site, and finding a site by id in a list."""

from __future__ import annotations

from pathlib import Path

from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError, NotFound
from askdocs.settings import RootConfig, SiteConfig

DEFAULT_SITE_ID = "askdocs"


def bundled_docs_path() -> Path:
    """askdocs's own docs: the repository's ``docs/`` or the copy inside the wheel."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_bundled_docs", package.parent.parent / "docs"):
        if candidate.is_dir():
            return candidate
    raise ConfigError("askdocs's bundled documentation was not found in the installation")


def own_docs_site(docs: Path | None = None) -> SiteConfig:
    """The site a fresh install serves: user guide for users, top-level pages for developers."""
    root = docs or bundled_docs_path()
    return SiteConfig(
        id=DEFAULT_SITE_ID,
        name="askdocs",
        roots=[
            RootConfig(path=root / "user-guide", audience="user"),
            RootConfig(path=root, audience="developer", include=["*.md"]),
        ],
    )


def folder_site(path: Path, site_id: str = "docs") -> SiteConfig:
    """A site made of one folder of Markdown (the CLI's ``PATH`` arguments)."""
    return SiteConfig(id=site_id, name=site_id, roots=[RootConfig(path=path, audience="user")])


def find_site(sites: list[SiteConfig], site_id: str | None) -> SiteConfig:
    """The named site; with no name, the only one. Unknown ids are NotFound."""
    if site_id is None:
        if len(sites) == 1:
            return sites[0]
        raise ConfigError("several sites are configured: name one with --site")
    for site in sites:
        if site.id == site_id:
            return site
    raise NotFound(f"unknown site {site_id!r}", code=ErrorCode.SITE_NOT_FOUND)
