"""The small protocol both MCP backends implement: local (in-process engine) and remote (API)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from askdocs.mcp.models import ArticleOutput, AskOutput, CatalogOutput, SearchOutput

if TYPE_CHECKING:  # the local backend loads without the MCP SDK (``askdocs mcp`` starts it first)
    from askdocs.mcp.auth import AuthContext

ProgressFn = Callable[[float, float | None, str], Awaitable[None]]  # (done, total, message)


@dataclass(frozen=True)
class Call:
    """One tool call as a backend sees it: the caller and a way to report progress."""

    auth: AuthContext | None
    progress: ProgressFn


@dataclass(frozen=True)
class SearchArgs:
    query: str
    site: str | None = None
    locale: str | None = None
    limit: int = 8


@dataclass(frozen=True)
class ArticleArgs:
    ref: str  # slug, path ("tutorial/cors.md") or a citation url
    site: str | None = None
    locale: str | None = None
    section: str | None = None  # anchor or heading text


class DocsBackend(Protocol):
    def begin(self) -> None:
        """Begin the background work that can run while the server is still being built
        (local mode: reading and parsing the docs). Idempotent; ``start`` implies it."""

    async def start(self) -> None:
        """Begin background work (local mode: the incremental index). Must return at once."""

    async def aclose(self) -> None: ...

    async def site_ids(self, call: Call) -> list[str]:
        """The sites whose pages are listed as resources."""

    def generation(self) -> int:
        """A number that changes whenever the searchable index changes (0: never)."""

    async def search(self, call: Call, args: SearchArgs) -> SearchOutput: ...

    async def article(self, call: Call, args: ArticleArgs) -> ArticleOutput: ...

    async def catalog(self, call: Call, site: str | None, locale: str | None) -> CatalogOutput: ...

    async def ask(self, call: Call, question: str, site: str | None) -> AskOutput: ...
