"""What the MCP tools return: data with citations (their JSON schemas are the output schemas)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Citation(BaseModel):
    """Where a piece of text comes from: cite ``url`` (it carries the section anchor)."""

    title: str = Field(description="Page title.")
    heading: str = Field(description="Section heading (the page title for a whole page).")
    path: str | None = Field(
        description="File path relative to its docs root, e.g. tutorial/cors.md "
        "(null when the API does not say: server-mode articles)."
    )
    url: str = Field(description="Link to the section, with #anchor.")
    anchor: str = Field(description="Section anchor (id) within the page; empty for the page.")
    locale: str = Field(description="Language of the text, e.g. en.")
    file: str | None = Field(
        default=None, description="Absolute path of the Markdown file (local mode only)."
    )


class Freshness(BaseModel):
    """How fresh the text is. Times are ISO 8601 UTC; null when unknown."""

    indexedAt: str | None = Field(
        default=None, description="When the index this result came from was built."
    )
    modifiedAt: str | None = Field(
        default=None, description="When the source file was last modified."
    )
    commit: str | None = Field(
        default=None, description="The git commit of the docs folder, when it is a git work tree."
    )


class SearchHit(BaseModel):
    citation: Citation
    heading_trail: list[str] = Field(description="Headings above this section, outermost first.")
    text: str = Field(description="The matching section text (Markdown).")
    score: float = Field(description="Ranking value, not a confidence.")
    freshness: Freshness = Field(default_factory=Freshness)


class SearchOutput(BaseModel):
    query: str
    site: str
    hits: list[SearchHit]
    match: bool = Field(description="False when nothing relevant enough was found.")
    mode: str = Field(description="hybrid, or keyword when semantic search was unavailable.")
    note: str | None = Field(default=None, description="Why the search degraded, when it did.")


class SectionRef(BaseModel):
    heading: str
    anchor: str
    level: int


class ArticleOutput(BaseModel):
    slug: str
    title: str
    locale: str
    translated: bool = Field(description="False when the English page stands in for the locale.")
    markdown: str = Field(description="The page (or the requested section) as Markdown.")
    citation: Citation
    sections: list[SectionRef] = Field(
        description="The page's sections; pass one's anchor as `section` to fetch only it."
    )
    freshness: Freshness = Field(default_factory=Freshness)


class CatalogPage(BaseModel):
    slug: str
    path: str | None = Field(description="File path relative to the docs root (local mode).")
    title: str
    description: str | None
    url: str


class CatalogOutput(BaseModel):
    site: str
    locale: str
    pages: list[CatalogPage]


class AskSource(BaseModel):
    """A page an answer draws on: title, deep link and the best-matching section."""

    title: str
    heading: str
    url: str = Field(description="Link to the section, with #anchor.")


class AskOutput(BaseModel):
    answer: str = Field(description="The answer as Markdown, grounded in the sources.")
    kind: str = Field(
        description="model (written by the chat model), extractive (quoted sections), "
        "no_match (nothing relevant was found); server mode says answer or no_match."
    )
    sources: list[AskSource]
