"""The askdocs MCP server: four documentation tools on ``DocsServer`` (``surface``).

Tools are thin: they validate arguments (the JSON schemas come from the annotations), call
a ``DocsBackend`` under one time bound, and turn every ``AskDocsError`` into an MCP tool
error with actionable text. Unexpected failures reach the client as the SDK's generic tool
error; the traceback stays in the server log.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeGuard, TypeVar

import anyio
from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from askdocs import __version__
from askdocs.errors import AskDocsError
from askdocs.mcp.auth import AuthContext, current_auth
from askdocs.mcp.backend import ArticleArgs, Call, DocsBackend, SearchArgs
from askdocs.mcp.errors import describe
from askdocs.mcp.models import ArticleOutput, AskOutput, CatalogOutput, SearchOutput
from askdocs.mcp.surface import DocsServer
from askdocs.search.query import MAX_QUERY_CHARS

if TYPE_CHECKING:
    from askdocs.mcp.admin import AdminTools
    from askdocs.mcp.remote import RemoteBackend

logger = logging.getLogger(__name__)
T = TypeVar("T")

INSTRUCTIONS = (
    "Documentation tools. Use search_docs to find the sections that answer a question, then "
    "get_article to read a page or one section in full. Cite the `url` of each citation you "
    "rely on. list_catalog lists the pages of a site."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="What to look for: a question or keywords.",
    ),
]
Site = Annotated[
    str | None,
    Field(
        pattern=r"^[a-z0-9][a-z0-9_-]{0,62}$",
        description="Site id. Omit for the default site.",
    ),
]
Locale = Annotated[
    str | None,
    Field(
        pattern=r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$",
        description="Language, e.g. en or pt-BR. Omit for the site's default.",
    ),
]
Limit = Annotated[int, Field(ge=1, le=20, description="How many sections to return (1-20).")]
Ref = Annotated[
    str,
    Field(
        min_length=1,
        max_length=500,
        description="The page: its slug, its path (tutorial/cors.md) or a citation url.",
    ),
]
SectionArg = Annotated[
    str | None,
    Field(
        max_length=300,
        description="Only this section: its anchor (from a citation url) or heading text.",
    ),
]
Question = Annotated[
    str, Field(min_length=1, max_length=1000, description="The question, in one message.")
]


@dataclass(frozen=True)
class ServerOptions:
    timeout_seconds: float
    ask_enabled: bool
    ask_timeout_seconds: float = 90.0
    fixed_auth: AuthContext | None = None  # the stdio token (server mode)
    token_verifier: TokenVerifier | None = None  # HTTP: verify the bearer on every request
    issuer_url: str = "http://127.0.0.1"


class Tools:
    """The tool bodies, bound to one backend and one time bound."""

    def __init__(self, backend: DocsBackend, options: ServerOptions) -> None:
        self.backend = backend
        self.options = options

    def call(self, ctx: Context[Any, Any]) -> Call:
        """The caller of this request and a way to report progress to it."""
        return Call(auth=current_auth(self.options.fixed_auth), progress=_progress(ctx))

    async def bounded(
        self,
        name: str,
        ctx: Context[Any, Any],
        run: Callable[[Call], Awaitable[T]],
        seconds: float | None = None,
    ) -> T:
        call = self.call(ctx)
        seconds = seconds or self.options.timeout_seconds
        try:
            with anyio.fail_after(seconds):
                return await run(call)
        except TimeoutError as exc:
            raise ToolError(f"{name} did not finish within {seconds:g} s; try again.") from exc
        except AskDocsError as exc:
            raise ToolError(describe(exc)) from exc

    async def search_docs(
        self,
        query: Query,
        ctx: Context[Any, Any],
        site: Site = None,
        locale: Locale = None,
        limit: Limit = 8,
    ) -> SearchOutput:
        """Search the documentation. Returns the best-matching sections, each with its text and
        a citation (page title, heading, file path, url with anchor, locale). Cite the url."""
        args = SearchArgs(query=query, site=site, locale=locale, limit=limit)
        return await self.bounded("search_docs", ctx, lambda c: self.backend.search(c, args))

    async def get_article(
        self,
        slug_or_path: Ref,
        ctx: Context[Any, Any],
        locale: Locale = None,
        section: SectionArg = None,
        site: Site = None,
    ) -> ArticleOutput:
        """Read one documentation page as Markdown, or only one of its sections. Takes a slug,
        a path such as tutorial/cors.md, or a url from a search citation (its #anchor selects
        the section). Also lists the page's sections."""
        args = ArticleArgs(ref=slug_or_path, site=site, locale=locale, section=section)
        return await self.bounded("get_article", ctx, lambda c: self.backend.article(c, args))

    async def list_catalog(
        self, ctx: Context[Any, Any], site: Site = None, locale: Locale = None
    ) -> CatalogOutput:
        """List the pages of a documentation site (slug, path, title, description, url), in
        reading order."""
        return await self.bounded(
            "list_catalog", ctx, lambda c: self.backend.catalog(c, site, locale)
        )

    async def ask(self, question: Question, ctx: Context[Any, Any], site: Site = None) -> AskOutput:
        """Ask a question and get a short answer written from the documentation, with the
        citations it is based on. Prefer search_docs when you want the sources themselves."""
        seconds = self.options.ask_timeout_seconds
        return await self.bounded(
            "ask", ctx, lambda c: self.backend.ask(c, question, site), seconds
        )


def build_server(backend: DocsBackend, options: ServerOptions) -> MCPServer[Any]:
    """The MCPServer with its tools; auth settings only when a token verifier is given."""
    auth = None
    if options.token_verifier is not None:
        auth = AuthSettings(issuer_url=options.issuer_url, resource_server_url=None)  # type: ignore[arg-type]
    server = DocsServer(
        backend,
        options.fixed_auth,
        name="askdocs",
        version=__version__,
        instructions=INSTRUCTIONS,
        token_verifier=options.token_verifier,
        auth=auth,
        log_level="WARNING",
    )
    tools = Tools(backend, options)
    chosen: dict[str, Callable[..., Awaitable[Any]]] = {
        "search_docs": tools.search_docs,
        "get_article": tools.get_article,
        "list_catalog": tools.list_catalog,
    }
    if options.ask_enabled:
        chosen["ask"] = tools.ask
    for name, tool in chosen.items():
        server.add_tool(tool, name=name, description=_one_paragraph(tool), annotations=READ_ONLY)
    if _is_remote(backend):
        from askdocs.mcp.admin import AdminTools
        from askdocs.mcp.schemas import NAME, SchemaTool

        schemas = SchemaTool(backend, tools).list_operation_schemas
        server.add_tool(
            schemas, name=NAME, description=_one_paragraph(schemas), annotations=READ_ONLY
        )
        _add_admin_tools(server, AdminTools(backend, lambda ctx: tools.call(ctx)))
    return server


def _is_remote(backend: DocsBackend) -> TypeGuard[RemoteBackend]:
    """Server mode. Its module (and httpx) loads only there: a backend of that class
    cannot exist before ``askdocs.mcp.remote`` was imported."""
    remote = sys.modules.get("askdocs.mcp.remote")
    return remote is not None and isinstance(backend, remote.RemoteBackend)


def _one_paragraph(tool: Callable[..., object]) -> str:
    return " ".join((tool.__doc__ or "").split())  # one paragraph for the model


def _add_admin_tools(server: DocsServer, admin: AdminTools) -> None:
    """Server mode: the admin tools, each listed only to callers granted it."""
    for name, (tool, hints) in admin.tools().items():
        server.add_tool(tool, name=name, description=_one_paragraph(tool), annotations=hints)
    server.gated, server.gated_names = admin.granted, frozenset(admin.tools())


def _progress(ctx: Context[Any, Any]) -> Callable[[float, float | None, str], Awaitable[None]]:
    async def report(done: float, total: float | None, message: str) -> None:
        try:
            await ctx.report_progress(done, total, message)
        except Exception:  # progress is best effort: a closed stream must not fail the call
            logger.debug("progress notification not delivered", exc_info=True)

    return report
