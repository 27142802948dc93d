"""The askdocs MCP server: four documentation tools on ``DocsServer`` (``surface``).

The tools are generated from the documentation operations (``askdocs.mcp.operations``): each
tool's input schema is its operation's argument model, with the bounds ``Settings`` gives
(``ask`` takes at most ``ask.max_question_chars``). Tools are thin: they validate arguments
with that model, call a ``DocsBackend`` under one time bound, and turn every ``AskDocsError``
into an MCP tool error with actionable text. Unexpected failures reach the client as the
SDK's generic tool error; the traceback stays in the server log.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

import anyio
from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from askdocs import __version__
from askdocs.errors import AskDocsError
from askdocs.mcp.auth import AuthContext, current_auth
from askdocs.mcp.backend import ArticleArgs, Call, DocsBackend, SearchArgs
from askdocs.mcp.errors import describe
from askdocs.mcp.models import ArticleOutput, AskOutput, CatalogOutput, SearchOutput
from askdocs.mcp.operations import AskQuestion, DocsOperation, GetArticle, ListCatalog, SearchDocs
from askdocs.mcp.surface import DocsServer

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


@dataclass(frozen=True, kw_only=True)
class ServerOptions:
    operations: tuple[DocsOperation, ...]  # the documentation tools (``mcp.operations``)
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

    async def search_docs(self, arguments: SearchDocs, ctx: Context[Any, Any]) -> SearchOutput:
        args = SearchArgs(
            query=arguments.query,
            site=arguments.site,
            locale=arguments.locale,
            limit=arguments.limit,
        )
        return await self.bounded("search_docs", ctx, lambda c: self.backend.search(c, args))

    async def get_article(self, arguments: GetArticle, ctx: Context[Any, Any]) -> ArticleOutput:
        args = ArticleArgs(
            ref=arguments.slug_or_path,
            site=arguments.site,
            locale=arguments.locale,
            section=arguments.section,
        )
        return await self.bounded("get_article", ctx, lambda c: self.backend.article(c, args))

    async def list_catalog(self, arguments: ListCatalog, ctx: Context[Any, Any]) -> CatalogOutput:
        site, locale = arguments.site, arguments.locale
        return await self.bounded(
            "list_catalog", ctx, lambda c: self.backend.catalog(c, site, locale)
        )

    async def ask(self, arguments: AskQuestion, ctx: Context[Any, Any]) -> AskOutput:
        seconds = self.options.ask_timeout_seconds
        question, site = arguments.question, arguments.site
        return await self.bounded(
            "ask", ctx, lambda c: self.backend.ask(c, question, site), seconds
        )


def build_server(backend: DocsBackend, options: ServerOptions) -> MCPServer[Any]:
    """The MCPServer with its tools; auth settings only when a token verifier is given."""
    auth = None
    if options.token_verifier is not None:
        auth = AuthSettings.model_validate(
            {"issuer_url": options.issuer_url, "resource_server_url": None}
        )
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
    bodies: dict[str, Callable[..., Awaitable[Any]]] = {
        "search_docs": tools.search_docs,
        "get_article": tools.get_article,
        "list_catalog": tools.list_catalog,
        "ask": tools.ask,
    }
    for op in options.operations:
        if op.name != "ask" or options.ask_enabled:
            server.add_operation_tool(op, bodies[op.name], READ_ONLY)
    if _is_remote(backend):
        from askdocs.mcp.admin import AdminTools
        from askdocs.mcp.schemas import NAME, SchemaTool

        schemas = SchemaTool(backend, tools).list_operation_schemas
        server.add_tool(
            schemas, name=NAME, description=_one_paragraph(schemas), annotations=READ_ONLY
        )
        _add_admin_tools(server, AdminTools(backend, lambda ctx: tools.call(ctx)))
    return server


def _one_paragraph(tool: Callable[..., object]) -> str:
    return " ".join((tool.__doc__ or "").split())  # one paragraph for the model


def _is_remote(backend: DocsBackend) -> TypeGuard[RemoteBackend]:
    """Server mode. Its module (and httpx) loads only there: a backend of that class
    cannot exist before ``askdocs.mcp.remote`` was imported."""
    remote = sys.modules.get("askdocs.mcp.remote")
    return remote is not None and isinstance(backend, remote.RemoteBackend)


def _add_admin_tools(server: DocsServer, admin: AdminTools) -> None:
    """Server mode: the admin tools, each listed only to callers granted it."""
    from askdocs.admin.table import Change

    for name, (op, body, hints) in admin.tools().items():
        output = None if isinstance(op, Change) else op.result
        server.add_operation_tool(op, body, hints, name=name, output=output)
    server.gated, server.gated_names = admin.granted, frozenset(admin.tools())


def _progress(ctx: Context[Any, Any]) -> Callable[[float, float | None, str], Awaitable[None]]:
    async def report(done: float, total: float | None, message: str) -> None:
        try:
            await ctx.report_progress(done, total, message)
        except Exception:  # progress is best effort: a closed stream must not fail the call
            logger.debug("progress notification not delivered", exc_info=True)

    return report
