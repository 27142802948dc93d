"""Pure helpers for the local backend: find a page, cut a section, build citations and urls."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path

from askdocs.corpus.freshness import freshness_json
from askdocs.corpus.urls import format_url
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.mcp.models import (
    ArticleOutput,
    CatalogPage,
    Citation,
    Freshness,
    SearchHit,
    SearchOutput,
    SectionRef,
)
from askdocs.mcp.refs import split_ref
from askdocs.settings import SiteConfig
from askdocs.types import Hit, Page, SearchResult, Section


def _matches(page: Page, key: str) -> bool:
    stem = page.path.rsplit(".", 1)[0]
    return key in (page.slug, page.path, stem) or f"{key}/index" == stem


def find_page(pages: Iterable[Page], ref: str, locale: str, fallback_locale: str) -> Page:
    """The page ``ref`` names, in ``locale`` if it has one, else in the fallback locale."""
    key, _ = split_ref(ref)
    found = [page for page in pages if _matches(page, key)]
    for page in found:
        if page.locale == locale:
            return page
    for page in found:
        if page.locale == fallback_locale:
            return dataclasses.replace(page, translated=False)
    if found:
        return found[0]
    raise NotFound(
        f"no page {ref!r}: call list_catalog for the pages, or search_docs to find one",
        code=ErrorCode.PAGE_NOT_FOUND,
    )


def _heading_line(section: Section) -> str:
    heading = section.heading
    return "" if heading is None else f"{'#' * heading.level} {heading.text}\n\n"


def _render(sections: Sequence[Section]) -> str:
    return "\n\n".join((_heading_line(s) + s.text).strip() for s in sections).strip() + "\n"


def _section_index(page: Page, wanted: str) -> int:
    needle = wanted.strip().lstrip("#").casefold()
    for index, section in enumerate(page.sections):
        heading = section.heading
        if heading is not None and needle in (
            heading.section_id.casefold(),
            heading.text.casefold(),
        ):
            return index
    names = ", ".join(s.heading.section_id for s in page.sections if s.heading is not None)
    raise NotFound(
        f"page {page.path!r} has no section {wanted!r}; its sections are: {names}",
        code=ErrorCode.SECTION_NOT_FOUND,
    )


def section_slice(page: Page, wanted: str) -> Sequence[Section]:
    """The section named by anchor or heading text, with the deeper sections under it."""
    start = _section_index(page, wanted)
    head = page.sections[start].heading
    assert head is not None
    end = start + 1
    while end < len(page.sections):
        nxt = page.sections[end].heading
        if nxt is None or nxt.level <= head.level:
            break
        end += 1
    return page.sections[start:end]


def page_url(site: SiteConfig, page: Page, anchor: str = "") -> str:
    template = (
        site.developer_url_template if page.audience == "developer" else site.user_url_template
    )
    for root in site.roots:
        if str(root.path) == page.root and root.url_template:
            template = root.url_template
    return format_url(template, slug=page.slug, path=page.path, anchor=anchor, locale=page.locale)


def page_file(page: Page) -> str | None:
    root = Path(page.root)
    return str(root / page.path) if root.is_absolute() else None


def citation(site: SiteConfig, page: Page, section: Section | None) -> Citation:
    heading = section.heading if section is not None else None
    anchor = heading.section_id if heading is not None else ""
    return Citation(
        title=page.title,
        heading=heading.text if heading is not None else page.title,
        path=page.path,
        url=page_url(site, page, anchor),
        anchor=anchor,
        locale=page.locale,
        file=page_file(page),
    )


def article_output(site: SiteConfig, page: Page, section: str | None) -> ArticleOutput:
    chosen = section_slice(page, section) if section else page.sections
    first = chosen[0] if section and chosen else None
    markdown = _render(chosen) if section else page.body.strip() + "\n"
    return ArticleOutput(
        slug=page.slug,
        title=page.title,
        locale=page.locale,
        translated=page.translated,
        markdown=markdown,
        citation=citation(site, page, first),
        sections=[
            SectionRef(heading=h.text, anchor=h.section_id, level=h.level)
            for h in (s.heading for s in page.sections)
            if h is not None
        ],
    )


def catalog_pages(site: SiteConfig, pages: Iterable[Page], locale: str) -> list[CatalogPage]:
    chosen = sorted(
        (p for p in pages if p.locale == locale),
        key=lambda p: (p.order is None, p.order or 0, p.path),
    )
    return [
        CatalogPage(
            slug=p.slug,
            path=p.path,
            title=p.title,
            description=p.description,
            url=page_url(site, p),
        )
        for p in chosen
    ]


def hit_citation(hit: Hit, root: Path | None) -> Citation:
    return Citation(
        title=hit.title,
        heading=hit.heading,
        path=hit.path,
        url=hit.url,
        anchor=hit.anchor,
        locale=hit.locale,
        file=str(root / hit.path) if root is not None else None,
    )


def search_output(
    query: str, site: str, result: SearchResult, root: Path | None = None
) -> SearchOutput:
    """``root``: the site's only docs folder, when it has one, to give each hit its file."""
    return SearchOutput(
        query=query,
        site=site,
        hits=[
            SearchHit(
                citation=hit_citation(hit, root),
                heading_trail=list(hit.heading_trail),
                text=hit.text,
                score=round(hit.score, 6),
                freshness=Freshness(**freshness_json(hit.freshness)),
            )
            for hit in result.hits
        ],
        match=result.match,
        mode=result.mode,
        note=result.reason,
    )
