"""The documentation operations (search, article, catalog, ask): rows of the operation
table (``askdocs.operation``) whose bounds are read from ``Settings``.

The MCP server's documentation tools are generated from these rows, and
``GET /api/v1/admin/schemas`` lists them, so a client reads one schema with the bounds the
server enforces: ``ask``'s question is at most ``ask.max_question_chars``, as over HTTP.
Argument names are the MCP tools' own (``slug_or_path``), not camelCase.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from askdocs.mcp.models import ArticleOutput, AskOutput, CatalogOutput, SearchOutput
from askdocs.operation import Operation
from askdocs.search.query import MAX_QUERY_CHARS
from askdocs.settings import Settings

MAX_RESULTS = 20
QUESTION_HELP = "The question, in one message."
Site = Annotated[
    str | None,
    Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,62}$", description="Site id. Omit for the default site."),
]
Locale = Annotated[
    str | None,
    Field(
        pattern=r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$",
        description="Language, e.g. en or pt-BR. Omit for the site's default.",
    ),
]


class DocsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SearchDocs(DocsArgs):
    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="What to look for: a question or keywords.",
    )
    site: Site = None
    locale: Locale = None
    limit: int = Field(8, ge=1, le=MAX_RESULTS, description="How many sections (1-20).")


class GetArticle(DocsArgs):
    slug_or_path: str = Field(
        min_length=1,
        max_length=500,
        description="The page: its slug, its path (tutorial/cors.md) or a citation url.",
    )
    locale: Locale = None
    section: str | None = Field(
        None,
        max_length=300,
        description="Only this section: its anchor (from a citation url) or heading text.",
    )
    site: Site = None


class ListCatalog(DocsArgs):
    site: Site = None
    locale: Locale = None


class AskQuestion(DocsArgs):
    question: str = Field(min_length=1, description=QUESTION_HELP)
    site: Site = None


DocsOperation = Operation[Any, Any]


@lru_cache(maxsize=8)
def ask_args(max_question_chars: int) -> type[AskQuestion]:
    """``AskQuestion`` with the question bounded as HTTP bounds it (``ask.max_question_chars``)."""
    bounded = Field(min_length=1, max_length=max_question_chars, description=QUESTION_HELP)
    model: type[AskQuestion] = create_model(
        "AskQuestion", __base__=AskQuestion, question=(str, bounded)
    )
    return model


def docs_operations(settings: Settings) -> tuple[DocsOperation, ...]:
    return (
        Operation(
            name="search_docs",
            authority="reader",
            args=SearchDocs,
            result=SearchOutput,
            label="Search the documentation",
            description="Search the documentation. Returns the best-matching sections, each "
            "with its text and a citation (page title, heading, file path, url with anchor, "
            "locale). Cite the url.",
        ),
        Operation(
            name="get_article",
            authority="reader",
            args=GetArticle,
            result=ArticleOutput,
            label="Read a page",
            description="Read one documentation page as Markdown, or only one of its "
            "sections. Takes a slug, a path such as tutorial/cors.md, or a url from a search "
            "citation (its #anchor selects the section). Also lists the page's sections.",
        ),
        Operation(
            name="list_catalog",
            authority="reader",
            args=ListCatalog,
            result=CatalogOutput,
            label="List the pages",
            description="List the pages of a documentation site (slug, path, title, "
            "description, url), in reading order.",
        ),
        Operation(
            name="ask",
            authority="reader",
            args=ask_args(settings.ask.max_question_chars),
            result=AskOutput,
            label="Ask a question",
            description="Ask a question and get a short answer written from the "
            "documentation, with the citations it is based on. Prefer search_docs when you "
            "want the sources themselves.",
        ),
    )


def docs_operation(settings: Settings, name: str) -> DocsOperation:
    return next(op for op in docs_operations(settings) if op.name == name)
