"""The reader's DTOs: what ``catalog``, ``article`` and ``asset`` return (the wire shape).

Shared by the HTTP routes and any other caller of ``DocsReader``; documented in
docs/reader-api.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

ReaderAudience = Literal["user", "administrator"]


class ArticleRef(BaseModel):
    slug: str
    title: str
    url: str = Field(description="Reader URL of the article, /docs/<slug>.")


class CatalogArticle(BaseModel):
    slug: str
    title: str
    description: str | None
    category: str
    audience: ReaderAudience
    audience_label: str = Field(description="The audience in the requested locale.")
    order: int | None
    locale: str = Field(description="The locale of the text actually served.")
    translated: bool = Field(description="False when the English page stands in.")
    url: str


class CatalogCategory(BaseModel):
    id: str
    label: str = Field(description="The category name in the requested locale.")
    articles: list[CatalogArticle]


class Catalog(BaseModel):
    site: str
    locale: str
    revision: str = Field(description="Changes whenever any page, its metadata or image does.")
    categories: list[CatalogCategory]
    locales: list[str] = Field(
        default_factory=list,
        description="The locales the site has pages in (its default first): the language picker.",
    )
    partial: bool = Field(
        default=False,
        description="The read's budget ran out: some pages are still being read and are "
        "missing, or the revision does not cover their images yet. Read again shortly.",
    )
    pending: int = Field(default=0, description="How many files are still being read.")


class TocEntry(BaseModel):
    id: str
    text: str
    level: int


class ArticleFreshness(BaseModel):
    """How fresh the article is; the same fields as a search hit's ``freshness``."""

    indexedAt: str | None = Field(
        default=None, description="When the site's current search index was built (ISO 8601)."
    )
    modifiedAt: str | None = Field(
        default=None, description="When the article's Markdown file was last modified."
    )
    commit: str | None = Field(
        default=None, description="The git commit of the docs root, when it is a git work tree."
    )


class Article(BaseModel):
    site: str
    slug: str
    title: str
    description: str | None
    locale: str = Field(description="The locale of the text actually served.")
    requested_locale: str
    translated: bool = Field(description="False when the English page stands in.")
    category: str
    category_label: str
    audience: ReaderAudience
    audience_label: str
    title_anchor: str | None = Field(description="The id of the omitted title heading.")
    html: str = Field(description="Sanitised HTML of the body, without the title heading.")
    toc: list[TocEntry]
    previous: ArticleRef | None
    next: ArticleRef | None
    related: list[ArticleRef]
    url: str
    freshness: ArticleFreshness = Field(default_factory=ArticleFreshness)


@dataclass(frozen=True)
class AssetFile:
    """One image's exact bytes (``data`` is None for a revalidation that matched)."""

    asset_id: str
    content_type: str
    sha256: str
    data: bytes | None
