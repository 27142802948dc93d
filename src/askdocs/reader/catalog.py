"""Grouping readable pages into localised categories, in reading order (pure).

Readable pages are those of the user projection: a page of a developer root (or with
``audience: developer``) is never in the reader. Administrator guides are user pages
labelled ``administrator``: front matter ``admin: true`` or the ``admin`` /
``administration`` category. A page's category is its front matter ``category`` or else
the first folder of its slug; pages at the top of their docs folder are ``general``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence

from askdocs.corpus.groups import page_group
from askdocs.reader.labels import (
    ADMIN_CATEGORIES,
    audience_label,
    category_label,
    category_rank,
)
from askdocs.reader.links import article_href
from askdocs.reader.schemas import (
    ArticleRef,
    CatalogArticle,
    CatalogCategory,
    ReaderAudience,
)
from askdocs.types import Page


def readable(page: Page) -> bool:
    return page.audience == "user"


def category_of(page: Page) -> str:
    return page_group(page.meta, page.slug)


def reader_audience(page: Page) -> ReaderAudience:
    admin = page.meta.get("admin") is True or category_of(page) in ADMIN_CATEGORIES
    return "administrator" if admin else "user"


def order_key(page: Page) -> tuple[bool, int, str, str]:
    return (page.order is None, page.order or 0, page.title.casefold(), page.slug)


def catalog_article(page: Page, locale: str) -> CatalogArticle:
    audience = reader_audience(page)
    return CatalogArticle(
        slug=page.slug,
        title=page.title,
        description=page.description,
        category=category_of(page),
        audience=audience,
        audience_label=audience_label(audience, locale),
        order=page.order,
        locale=page.locale,
        translated=page.translated,
        url=article_href(page.slug),
    )


def listed(page: Page) -> bool:
    """In the catalog and previous/next: not Docusaurus ``unlisted`` (still readable)."""
    return page.meta.get("unlisted") is not True


def categorise(pages: Iterable[Page], locale: str) -> list[CatalogCategory]:
    """Categories in authored order (then by label), each with its pages in reading order
    (front matter ``order``, ``sidebar_position`` or the navigation's order; then title)."""
    grouped: dict[str, list[Page]] = {}
    for page in filter(listed, pages):
        grouped.setdefault(category_of(page), []).append(page)
    ordered = sorted(grouped, key=lambda c: (category_rank(c), category_label(c, locale), c))
    return [
        CatalogCategory(
            id=category,
            label=category_label(category, locale),
            articles=[catalog_article(p, locale) for p in sorted(grouped[category], key=order_key)],
        )
        for category in ordered
    ]


def neighbours(page: Page, pages: Sequence[Page]) -> tuple[ArticleRef | None, ArticleRef | None]:
    """The previous and next article of the same category, in reading order."""
    category = category_of(page)
    siblings = sorted((p for p in pages if category_of(p) == category and listed(p)), key=order_key)
    slugs = [p.slug for p in siblings]
    if page.slug not in slugs:
        return None, None
    position = slugs.index(page.slug)
    before = siblings[position - 1] if position > 0 else None
    after = siblings[position + 1] if position + 1 < len(siblings) else None
    return _ref(before), _ref(after)


def authored_neighbours(
    page: Page,
    found: tuple[ArticleRef | None, ArticleRef | None],
    pages: Sequence[Page],
) -> tuple[ArticleRef | None, ArticleRef | None]:
    """VitePress's ``prev``/``next`` front matter over the catalog's neighbours: ``false``
    hides the link, a text relabels it, ``{text, link}`` names another readable page."""
    keys = ("prev", "next")
    return (
        _authored(page, page.meta.get(keys[0]), found[0], pages),
        _authored(page, page.meta.get(keys[1]), found[1], pages),
    )


def _authored(
    page: Page, value: object, found: ArticleRef | None, pages: Sequence[Page]
) -> ArticleRef | None:
    if value is False:
        return None
    if isinstance(value, str) and found is not None:
        return found.model_copy(update={"title": value})
    if not isinstance(value, dict):
        return found
    target = _linked_page(page, str(value.get("link", "")), pages)
    text = value.get("text")
    if target is None:
        return (
            found.model_copy(update={"title": text}) if found and isinstance(text, str) else found
        )
    title = text if isinstance(text, str) and text.strip() else target.title
    return ArticleRef(slug=target.slug, title=title, url=article_href(target.slug))


def _linked_page(page: Page, link: str, pages: Sequence[Page]) -> Page | None:
    path = link.split("#", 1)[0].strip()
    for suffix in (".md", ".html"):
        path = path.removesuffix(suffix)
    if not path:
        return None
    if path.startswith("/"):
        slug = path.strip("/")
    else:
        folder = page.slug.rpartition("/")[0]
        slug = posixpath.normpath(posixpath.join(folder, path)).strip("/")
    by_slug = {p.slug: p for p in pages}
    return by_slug.get(slug) or by_slug.get(f"{slug}/index".strip("/"))


def related(
    page: Page, linked: Sequence[str], pages: Sequence[Page], skip: Iterable[str], limit: int = 5
) -> list[ArticleRef]:
    """Related user guides: front matter ``related`` slugs first, then linked articles."""
    by_slug = {p.slug: p for p in pages}
    authored = page.meta.get("related")
    wanted = [s for s in authored if isinstance(s, str)] if isinstance(authored, list) else []
    excluded = {page.slug, *skip}
    result: list[ArticleRef] = []
    for slug in dict.fromkeys([*wanted, *linked]):
        target = by_slug.get(slug)
        if target is None or slug in excluded or len(result) >= limit:
            continue
        result.append(ArticleRef(slug=slug, title=target.title, url=article_href(slug)))
    return result


def _ref(page: Page | None) -> ArticleRef | None:
    if page is None:
        return None
    return ArticleRef(slug=page.slug, title=page.title, url=article_href(page.slug))
