"""Agent-facing text: ``/llms.txt``, ``/llms-full.txt`` and ``/docs/{slug}.md`` per site.

The site is chosen as the reader chooses it (``?site=``, else the request's host, else the
first site; public and live ones and the caller's organisations' sites: 404
``site_not_found`` otherwise) and exactly the pages the reader shows the caller are included
(user pages; for a signed-in member also developer pages, under ``developer/<slug>``).
``?locale=`` picks the language as in the reader API (default: the site's default locale).
Links are absolute: on the site's ``default_address``, else on the origin the request came
for (``server.origin.request_origin``: ``server.public_url`` for its host). See
docs/reader-api.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response

from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.reader.control import DocsReader
from askdocs.reader.ids import check_slug
from askdocs.reader.llmstxt import llms_full, llms_index, page_markdown
from askdocs.server.deps import CatalogDep, HostDep, ReaderDep
from askdocs.server.origin import request_origin
from askdocs.server.routes.reader import LocaleParam, SiteParam, SlugPath, reader_site
from askdocs.server.signin import SiteCallerDep
from askdocs.settings import SiteConfig
from askdocs.sites import SiteCaller
from askdocs.types import Page

router = APIRouter()
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
MARKDOWN = "text/markdown; charset=utf-8"


def _name(site: SiteConfig) -> str:
    return site.name or site.id


def _base(site: SiteConfig, request: Request) -> str:
    return site.default_address or request_origin(request)


def _pages(
    reader: DocsReader, config: SiteConfig, locale: str | None, caller: SiteCaller
) -> tuple[str, list[Page]]:
    developer = caller.reads_developer_pages
    return reader.pages(config, locale or config.default_locale, developer=developer)


def _site_text(
    render: Callable[[str, Sequence[Page], str, str], str],
    reader: DocsReader,
    config: SiteConfig,
    locale: str | None,
    caller: SiteCaller,
    request: Request,
) -> Response:
    """One site's pages rendered as plain text (the site map or every page in full)."""
    chosen, pages = _pages(reader, config, locale, caller)
    text = render(_name(config), pages, chosen, _base(config, request))
    return PlainTextResponse(text, headers=HEADERS)


@router.get("/llms.txt", response_class=PlainTextResponse)
def llms_txt(
    request: Request,
    reader: ReaderDep,
    sites: CatalogDep,
    host: HostDep,
    caller: SiteCallerDep,
    locale: LocaleParam = None,
    site: SiteParam = None,
) -> Response:
    config = reader_site(sites, host, site, caller)
    return _site_text(llms_index, reader, config, locale, caller, request)


@router.get("/llms-full.txt", response_class=PlainTextResponse)
def llms_full_txt(
    request: Request,
    reader: ReaderDep,
    sites: CatalogDep,
    host: HostDep,
    caller: SiteCallerDep,
    locale: LocaleParam = None,
    site: SiteParam = None,
) -> Response:
    config = reader_site(sites, host, site, caller)
    return _site_text(llms_full, reader, config, locale, caller, request)


class MarkdownResponse(PlainTextResponse):
    """``text/markdown``, as ``/openapi.json`` documents it (issue #27, defect 11)."""

    media_type = "text/markdown"


@router.get("/docs/{slug:path}.md", response_class=MarkdownResponse)
def page_md(
    request: Request,
    reader: ReaderDep,
    sites: CatalogDep,
    host: HostDep,
    caller: SiteCallerDep,
    slug: SlugPath,
    locale: LocaleParam = None,
    site: SiteParam = None,
) -> Response:
    check_slug(slug)
    config = reader_site(sites, host, site, caller)
    _, pages = _pages(reader, config, locale, caller)
    page = next((p for p in pages if p.slug == slug), None)
    if page is None:
        raise NotFound("no such article", code=ErrorCode.READER_ARTICLE_NOT_FOUND)
    body = page_markdown(page, _base(config, request))
    return Response(body, media_type=MARKDOWN, headers=HEADERS)
