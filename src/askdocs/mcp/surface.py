"""What the MCP server offers besides its tools, on a small ``MCPServer`` subclass.

- Every page of every site is a resource ``askdocs://SITE/SLUG`` (Markdown), listed from
  the catalog and read through the same backend as ``get_article``; one resource template
  names the pattern. When the index changes (local mode), subscribers of
  ``subscriptions/listen`` get ``resources list_changed``.
- Two prompts a person picks from a menu: ``explain_page`` and ``find_docs_for_error``.
- Argument errors are one short line naming the field and the ``invalid_argument`` code,
  not the validator's text.
- ``add_operation_tool``: a tool generated from a row of the operation table: its input
  schema is the row's argument model's schema (``wire.json_schema``, the one every surface
  publishes), the model validates the call, and the body receives the model.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Annotated, Any
from urllib.parse import quote, unquote, urlsplit

import anyio
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.server.mcpserver.prompts import Prompt
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.subscriptions import ResourcesListChanged
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from mcp_types import Resource as MCPResource
from mcp_types import ResourceTemplate as MCPResourceTemplate
from mcp_types import Tool as MCPTool
from pydantic import AnyUrl, BaseModel, Field, ValidationError, WithJsonSchema

from askdocs.errors import AskDocsError, NotFound
from askdocs.mcp.auth import AuthContext, current_auth
from askdocs.mcp.backend import ArticleArgs, Call, DocsBackend
from askdocs.mcp.errors import describe
from askdocs.operation import Operation
from askdocs.wire import json_schema

logger = logging.getLogger(__name__)
SCHEME = "askdocs"
MARKDOWN = "text/markdown"
WATCH_SECONDS = 1.0  # how often the index generation is compared (local mode)


def page_uri(site: str, slug: str) -> str:
    return f"{SCHEME}://{site}/{quote(slug, safe='/')}"


def parse_page_uri(uri: str) -> tuple[str, str]:
    """``askdocs://docs/tutorial/cors`` -> ``("docs", "tutorial/cors")``."""
    parts = urlsplit(uri)
    slug = unquote(parts.path).strip("/")
    if parts.scheme != SCHEME or not parts.netloc or not slug:
        raise ResourceNotFoundError(
            f"not a page resource: {uri!r}; page resources look like {SCHEME}://SITE/SLUG "
            "[page_not_found]"
        )
    return parts.netloc, slug


def argument_error(tool: str, exc: ValidationError) -> str:
    """``search_docs: invalid argument `limit`: ... [invalid_argument]`` (first problem)."""
    problems = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(part) for part in error["loc"]) or "arguments"
        reason = "is required" if error["type"] == "missing" else error["msg"].lower()
        problems.append(f"`{field}` {reason}")
    return f"{tool}: invalid argument: {'; '.join(problems)} [invalid_argument]"


async def _no_progress(done: float, total: float | None, message: str) -> None:
    return None


class ModelArguments(FuncMetadata):
    """A tool's arguments validated by its operation's model; the body gets the model as
    ``arguments`` (the SDK's own argument model is kept only for its output schema)."""

    model: Annotated[type[BaseModel], WithJsonSchema(None)]

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        return {"arguments": self.model.model_validate(arguments_to_validate)}


class DocsServer(MCPServer[Any]):
    """``MCPServer`` whose resources are the documentation pages of ``backend``."""

    def __init__(
        self, backend: DocsBackend, fixed_auth: AuthContext | None, **options: Any
    ) -> None:
        self.backend = backend
        self.fixed_auth = fixed_auth
        self.gated: Callable[[Call], Awaitable[set[str]]] | None = None  # granted admin tools
        self.gated_names: frozenset[str] = frozenset()
        self.bus = InMemorySubscriptionBus()
        super().__init__(subscriptions=self.bus, lifespan=_watch_index, **options)
        for prompt in PROMPTS:
            self.add_prompt(prompt)

    def _call(self) -> Call:
        return Call(auth=current_auth(self.fixed_auth), progress=_no_progress)

    def add_operation_tool(
        self,
        op: Operation[Any, Any],
        body: Callable[..., Awaitable[Any]],
        annotations: ToolAnnotations,
        *,
        name: str | None = None,
        description: str | None = None,
        output: type[BaseModel] | None = None,
    ) -> None:
        """``body(arguments, ctx)`` as the tool ``name`` (the operation's), with the
        operation's argument model as its input schema and validator (and ``output``, when
        given, as its output model instead of the body's annotation)."""
        tool_name = name or op.name
        self.add_tool(
            body,
            name=tool_name,
            title=op.label,
            description=description or op.description,
            annotations=annotations,
        )
        tool = self._tool_manager.get_tool(tool_name)
        assert tool is not None
        meta = tool.fn_metadata
        tool.fn_metadata = ModelArguments(
            arg_model=meta.arg_model,
            output_schema=meta.output_schema if output is None else None,
            output_model=meta.output_model if output is None else output,
            wrap_output=meta.wrap_output,
            model=op.args,
        )
        tool.parameters = json_schema(op.args)

    async def list_tools(self) -> list[MCPTool]:
        """Every tool, less the admin tools the caller is not granted."""
        tools = await super().list_tools()
        if self.gated is None:
            return tools
        try:
            granted = await self.gated(self._call())
        except AskDocsError:
            granted = set()  # no admin tools for a caller the API does not know
        hidden = self.gated_names - granted
        return [tool for tool in tools if tool.name not in hidden]

    async def list_resources(self) -> list[MCPResource]:
        call, found = self._call(), []
        try:
            for site in await self.backend.site_ids(call):
                catalog = await self.backend.catalog(call, site, None)
                found += [
                    MCPResource(
                        uri=page_uri(site, page.slug),
                        name=page.slug,
                        title=page.title,
                        description=page.description,
                        mime_type=MARKDOWN,
                    )
                    for page in catalog.pages
                ]
        except AskDocsError as exc:
            raise ResourceError(describe(exc)) from exc
        return found

    async def list_resource_templates(self) -> list[MCPResourceTemplate]:
        return [
            MCPResourceTemplate(
                uri_template=f"{SCHEME}://{{site}}/{{slug}}",
                name="page",
                title="Documentation page",
                description="One page of a documentation site as Markdown (slug from "
                "list_catalog or a search citation).",
                mime_type=MARKDOWN,
            )
        ]

    async def read_resource(
        self, uri: AnyUrl | str, context: Context[Any, Any] | None = None
    ) -> Iterable[ReadResourceContents] | InputRequiredResult:
        site, slug = parse_page_uri(str(uri))
        try:
            article = await self.backend.article(self._call(), ArticleArgs(ref=slug, site=site))
        except NotFound as exc:
            raise ResourceNotFoundError(describe(exc)) from exc
        except AskDocsError as exc:
            raise ResourceError(describe(exc)) from exc
        return [ReadResourceContents(content=article.markdown, mime_type=MARKDOWN)]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(argument_error(name, exc.__cause__)) from None
            raise


@asynccontextmanager
async def _watch_index(server: MCPServer[Any]) -> AsyncIterator[None]:
    """While a session runs: tell listeners when the backend's index generation moves."""
    assert isinstance(server, DocsServer)
    async with anyio.create_task_group() as group:
        group.start_soon(_watch, server)
        try:
            yield None
        finally:
            group.cancel_scope.cancel()


async def _watch(server: DocsServer) -> None:
    seen = server.backend.generation()
    while True:
        await anyio.sleep(WATCH_SECONDS)
        now = server.backend.generation()
        if now != seen:
            seen = now
            await server.bus.publish(ResourcesListChanged())


PageArg = Annotated[
    str, Field(min_length=1, max_length=500, description="The page: slug, path or url.")
]
ErrorArg = Annotated[
    str, Field(min_length=1, max_length=4000, description="The error message or traceback.")
]


def explain_page(page: PageArg) -> str:
    """Explain one documentation page: what it is for, the key steps, an example."""
    return (
        f"Explain the documentation page `{page}` to me. First read it with the get_article "
        f"tool (slug_or_path: {page!r}). Then say what it is for, the key steps or settings "
        "it describes, and give one short example. Cite the page's url."
    )


def find_docs_for_error(error: ErrorArg) -> str:
    """Find the documentation that explains an error message and how to fix it."""
    return (
        "I got this error:\n\n```\n"
        f"{error}\n```\n\n"
        "Find the documentation that explains it: call search_docs with the error's key "
        "words and identifiers (not the whole message), read the best section with "
        "get_article, then tell me the cause and the fix, citing the url of each section "
        "you rely on. If the docs do not cover it, say so."
    )


PROMPTS = (
    Prompt.from_function(explain_page, name="explain_page", title="Explain this page"),
    Prompt.from_function(
        find_docs_for_error, name="find_docs_for_error", title="Find docs for this error"
    ),
)
