"""Local mode: the engine in-process over docs folders; no server, no token over stdio."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

import anyio.to_thread

from askdocs.answer.flow import Question, answer
from askdocs.blocking import BlockingPool
from askdocs.corpus.freshness import freshness_json
from askdocs.ingest import CorpusSnapshot
from askdocs.llm.types import ChatMessage, ChatModel
from askdocs.mcp.backend import ArticleArgs, Call, SearchArgs
from askdocs.mcp.indexing import BackgroundIndex
from askdocs.mcp.models import (
    ArticleOutput,
    AskOutput,
    AskSource,
    CatalogOutput,
    Freshness,
    SearchOutput,
)
from askdocs.mcp.pages import article_output, catalog_pages, find_page, search_output
from askdocs.mcp.refs import split_ref
from askdocs.service import AskDocs
from askdocs.settings import SiteConfig
from askdocs.types import Page

T = TypeVar("T")
logger = logging.getLogger(__name__)
STOP_WAIT_SECONDS = 5.0
POOL_SIZE = 4


class LocalBackend:
    """Tools over an in-process ``AskDocs``: background incremental index, direct corpus reads."""

    def __init__(
        self,
        service: AskDocs,
        *,
        index_wait_seconds: float,
        model: ChatModel | None = None,
        pool: BlockingPool | None = None,
    ) -> None:
        self.service = service
        self.model = model
        self.pool = pool or BlockingPool(POOL_SIZE)
        self.wait_seconds = index_wait_seconds
        self.indexes = {site.id: _background_index(service, site.id) for site in service.sites}

    async def start(self) -> None:
        for index in self.indexes.values():
            index.start()

    async def aclose(self) -> None:
        for index in self.indexes.values():
            await anyio.to_thread.run_sync(partial(index.stop, STOP_WAIT_SECONDS))
        self.pool.close()
        self.service.close()

    async def site_ids(self, call: Call) -> list[str]:
        return [site.id for site in self.service.sites]

    def generation(self) -> int:
        return sum(index.generation for index in self.indexes.values())

    async def search(self, call: Call, args: SearchArgs) -> SearchOutput:
        site = self.service.site(args.site)
        index = self.indexes[site.id]
        await index.wait_ready(self.wait_seconds, call.progress)
        result = await self.pool.run(
            lambda: self.service.search(
                args.query, site=site.id, locale=args.locale, limit=args.limit
            )
        )
        output = search_output(args.query, site.id, result, _single_root(site))
        if output.mode == "keyword" and index.building:
            output.note = index.progress_note()
        return output

    async def article(self, call: Call, args: ArticleArgs) -> ArticleOutput:
        site = self.service.site(args.site)
        snapshot = await self._snapshot(site)
        locale = args.locale or site.default_locale
        page = find_page(snapshot.pages, args.ref, locale, site.default_locale)
        section = args.section or split_ref(args.ref)[1]
        output = article_output(site, page, section)
        output.freshness = await self.pool.run(partial(self._freshness, site, page))
        return output

    def _freshness(self, site: SiteConfig, page: Page) -> Freshness:
        status = self.service.status(site.id)
        fresh = self.service.freshness.of(
            [Path(page.root)], page.path, self.service.indexed_at(status.collection)
        )
        return Freshness(**freshness_json(fresh))

    async def catalog(self, call: Call, site_id: str | None, locale: str | None) -> CatalogOutput:
        site = self.service.site(site_id)
        snapshot = await self._snapshot(site)
        chosen = locale or site.default_locale
        return CatalogOutput(
            site=site.id, locale=chosen, pages=catalog_pages(site, snapshot.pages, chosen)
        )

    async def ask(self, call: Call, question: str, site_id: str | None) -> AskOutput:
        """Ask AI in-process: the same retrieval and prompt as ``POST /api/ask``."""
        site = self.service.site(site_id)
        await self.indexes[site.id].wait_ready(self.wait_seconds, call.progress)
        asked = Question(site, (ChatMessage(role="user", content=question),))
        reply = await answer(self.service, self.model, self.service.settings, asked, self.pool)
        text = "".join([piece async for piece in reply.body])
        return AskOutput(
            answer=text,
            kind=reply.kind,
            sources=[AskSource(title=s.title, heading=s.heading, url=s.url) for s in reply.sources],
        )

    async def _snapshot(self, site: SiteConfig) -> CorpusSnapshot:
        """The corpus as it is now (edits show at once; unchanged files are not re-parsed)."""
        return await self.pool.run(partial(self.service.snapshot, site.id))


def _background_index(service: AskDocs, site_id: str) -> BackgroundIndex:
    def run(progress: Callable[[int, int], None]) -> object:
        return service.index(site_id, progress)

    def ready() -> bool:
        return service.status(site_id).ready

    def keyword_first() -> object:
        """A store with no collection at all: BM25 first, so the first search answers."""
        if service.store.backend.pointers():
            return None
        report = service.index(site_id, keyword_only=True)
        logger.info(
            "keyword-only index of %s ready in %.1f s (process CPU %.1f s since start)",
            site_id,
            report.seconds,
            time.process_time(),
        )
        return report

    return BackgroundIndex(site_id, run=run, already_ready=ready, prepare=keyword_first)


def _single_root(site: SiteConfig) -> Path | None:
    return site.roots[0].path.resolve() if len(site.roots) == 1 else None
