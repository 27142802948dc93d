"""Sites: where they come from (``catalog``), the default site and folder sites
(``defaults``), and the CLI's registry of indexed folders (``registry``)."""

from askdocs.sites.catalog import (
    OPERATOR,
    VISITOR,
    CatalogEntry,
    SiteCaller,
    SiteCatalog,
    SiteSource,
)
from askdocs.sites.defaults import DEFAULT_SITE_ID, folder_site, own_docs_site

__all__ = [
    "DEFAULT_SITE_ID",
    "OPERATOR",
    "VISITOR",
    "CatalogEntry",
    "SiteCaller",
    "SiteCatalog",
    "SiteSource",
    "folder_site",
    "own_docs_site",
]
