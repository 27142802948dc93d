"""Agent-facing text: ``/llms.txt``, ``/llms-full.txt`` and ``/docs/{slug}.md`` per site.

The site is chosen as the reader chooses it (``?site=``, else the request's host, else the
first site; public and live only: 404 ``site_not_found`` otherwise) and only the pages the
reader shows are included (user pages, never developer pages). ``?locale=`` picks the
language as in the reader API (default: the site's default locale). Links are absolute: on
the site's ``default_address``, else on the origin the request came for
(``server.origin.request_origin``: ``server.public_url`` for its host). See
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
from askdocs.settings import SiteConfig
from askdocs.types import Page

router = APIRouter()
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
MARKDOWN = "text/markdown; charset=utf-8"


def _name(site: SiteConfig) -> str:
    return site.name or site.id


def _base(site: SiteConfig, request: Request) -> str:
    return site.default_address or request_origin(request)


def _pages(reader: DocsReader, config: SiteConfig, locale: str | None) -> tuple[str, list[Page]]:
    return reader.pages(config, locale or config.default_locale)


def _site_text(
    render: Callable[[str, Sequence[Page], str, str], str],
    reader: DocsReader,
    config: SiteConfig,
    locale: str | None,
    request: Request,
) -> Response:
    """One site's pages rendered as plain text (the site map or every page in full)."""
    chosen, pages = _pages(reader, config, locale)
    text = render(_name(config), pages, chosen, _base(config, request))
    return PlainTextResponse(text, headers=HEADERS)


@router.get("/llms.txt", response_class=PlainTextResponse)
def llms_txt(
    request: Request,
    reader: ReaderDep,
    sites: CatalogDep,
    host: HostDep,
    locale: LocaleParam = None,
    site: SiteParam = None,
) -> Response:
    return _site_text(llms_index, reader, reader_site(sites, host, site), locale, request)


@router.get("/llms-full.txt", response_class=PlainTextResponse)
def llms_full_txt(
    request: Request,
    reader: ReaderDep,
    sites: CatalogDep,
    host: HostDep,
    locale: LocaleParam = None,
    site: SiteParam = None,
) -> Response:
    return _site_text(llms_full, reader, reader_site(sites, host, site), locale, request)


class MarkdownResponse(PlainTextResponse):
    """``text/markdown``, as ``/openapi.json`` documents it (issue #27, defect 11)."""

    media_type = "text/markdown"


@router.get("/docs/{slug:path}.md", response_class=MarkdownResponse)
def page_md(
    request: Request,
    reader: ReaderDep,
    sites: CatalogDep,
    host: HostDep,
    slug: SlugPath,
    locale: LocaleParam = None,
    site: SiteParam = None,
) -> Response:
    check_slug(slug)
    config = reader_site(sites, host, site)
    _, pages = _pages(reader, config, locale)
    page = next((p for p in pages if p.slug == slug), None)
    if page is None:
        raise NotFound("no such article", code=ErrorCode.READER_ARTICLE_NOT_FOUND)
    body = page_markdown(page, _base(config, request))
    return Response(body, media_type=MARKDOWN, headers=HEADERS)
