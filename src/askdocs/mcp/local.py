"""Local mode: the engine in-process over docs folders; no server, no token over stdio.

The backend holds a ``Core`` (``askdocs.core``): the engine, the bounded pool, the chat model
and the one background indexer, built the way ``App`` builds them. ``start()`` submits one
run per site to the indexer; on a cold store that run first builds a keyword-only
collection (seconds, no model), so the first search answers from BM25 while the vectors
are embedded. A search waits a bounded time for the site's first searchable collection,
reporting progress, then fails with ``IndexBuilding`` saying how far it got.

The first answer on a cold store is what an agent waits for (issue #18: hits within 3 s),
so until it has been given nothing else competes for the CPU: the site is marked ready
as soon as its keyword-only collection exists (the ready check would create the embedder),
keyword-phase searches run without the embedder (the only collection has no vectors, so
the hits are the same), and the full run, which loads the model and embeds, starts only
once a search has answered or ``FIRST_ANSWER_GRACE_SECONDS`` passed.

``askdocs mcp`` calls ``begin()`` before it imports the MCP SDK and builds the server: on a
cold store the start-up run reads the docs while ``begin()`` waits (a thread reading
thousands of small files beside an import waits for the interpreter lock after every
system call: 0.2 s of reading took 0.9 s), then has the parse worker parse them and
compute their BM25 vectors on the other core while the SDK imports, both cores from
``start()`` (``AskDocs.read_ahead``). The keyword build itself waits for ``start()``, so
the handshake is not held up by it.
"""

from __future__ import annotations

import logging
import threading
import time
from functools import partial
from pathlib import Path
from typing import TypeVar

from askdocs.answer.flow import Question, answer
from askdocs.core import Core
from askdocs.corpus.freshness import freshness_json
from askdocs.indexing import SiteProgress
from askdocs.indexing.indexer import Work
from askdocs.indexing.progress import Stopped
from askdocs.ingest import CorpusSnapshot
from askdocs.llm.types import ChatMessage, ChatModel
from askdocs.mcp.backend import ArticleArgs, Call, SearchArgs
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
READ_WAIT_SECONDS = 3.0  # the most ``begin()`` waits for the docs to be read
FIRST_ANSWER_GRACE_SECONDS = 3.0  # cold store: the full run waits this long for a search


class LocalBackend:
    """Tools over an in-process ``Core``: background incremental index, direct corpus reads."""

    def __init__(self, core: Core, *, index_wait_seconds: float) -> None:
        self.core = core
        self.service: AskDocs = core.engine
        self.model: ChatModel | None = core.chat
        self.pool = core.pool
        self.wait_seconds = index_wait_seconds
        self.indexes = {site.id: core.indexer.progress(site.id) for site in self.service.sites}
        self.phases = StartPhases()
        self._begun = False

    def begin(self) -> None:
        """Submit each site's start-up run now (idempotent); the keyword build itself waits
        for ``start()``."""
        if self._begun:
            return
        self._begun = True
        for site in self.indexes:
            self.core.indexer.submit(site, local_run(self.service, site, self.phases))
        self.phases.read.wait(READ_WAIT_SECONDS)  # module text: the reading needs the lock

    async def start(self) -> None:
        self.begin()
        self.phases.serving.set()
        logger.info("serving (process CPU %.1f s since start)", time.process_time())

    async def aclose(self) -> None:
        await self.core.aclose(STOP_WAIT_SECONDS)

    async def site_ids(self, call: Call) -> list[str]:
        return [site.id for site in self.service.sites]

    def generation(self) -> int:
        return self.core.indexer.generation()

    async def search(self, call: Call, args: SearchArgs) -> SearchOutput:
        site = self.service.site(args.site)
        index = self.indexes[site.id]
        await index.wait_ready(self.wait_seconds, call.progress)
        keyword_only = site.id in self.phases.keyword
        result = await self.pool.run(
            lambda: self.service.search(
                args.query,
                site=site.id,
                locale=args.locale,
                limit=args.limit,
                keyword_only=keyword_only,
            )
        )
        output = search_output(args.query, site.id, result, _single_root(site))
        if output.mode == "keyword" and index.building:
            output.note = index.progress_note()
        self.phases.answered_once(output.mode)
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


class StartPhases:
    """What the start-up runs, the server and the searches tell each other (module text):
    whether the server is serving, the sites whose only collection is keyword-only, and
    whether a search has answered yet."""

    def __init__(self, grace_seconds: float = FIRST_ANSWER_GRACE_SECONDS) -> None:
        self.serving = threading.Event()
        self.read = threading.Event()  # the first start-up run has read its docs
        self.keyword: set[str] = set()
        self.answered = threading.Event()
        self.grace_seconds = grace_seconds

    def wait_serving(self, progress: SiteProgress) -> None:
        """Block until the server serves (``LocalBackend.start``) or the indexer stops."""
        while not self.serving.wait(0.1):
            if progress.stopping:
                raise Stopped

    def answered_once(self, mode: str) -> None:
        if self.answered.is_set():
            return
        self.answered.set()
        logger.info("first search answered (%s; process CPU %.1f s)", mode, time.process_time())

    def wait_answered(self, progress: SiteProgress) -> None:
        """Block until a search answered, the grace time passed or the indexer stops."""
        deadline = time.monotonic() + self.grace_seconds
        while not self.answered.wait(min(0.1, max(0.0, deadline - time.monotonic()))):
            if progress.stopping:
                raise Stopped
            if time.monotonic() >= deadline:
                return


def local_run(service: AskDocs, site_id: str, phases: StartPhases | None = None) -> Work:
    """The start-up run of one site: keyword-only first on an empty store, then the full
    index; the site is searchable as soon as any complete collection exists. Without
    ``phases`` nothing waits for a server."""
    if phases is None:
        phases = StartPhases()
        phases.serving.set()

    def run(progress: SiteProgress) -> object:
        try:
            keyword_first = _keyword_first(service, site_id, phases, progress)
        finally:
            phases.read.set()
        if keyword_first:
            phases.keyword.add(site_id)
            progress.mark_ready()  # searchable now; the ready check would load the model
            phases.wait_answered(progress)
        else:
            phases.wait_serving(progress)
            if service.status(site_id).ready:
                progress.mark_ready()
        try:
            report = service.index(site_id, progress.report)
        finally:
            phases.keyword.discard(site_id)
        progress.mark_ready()
        return report

    return run


def _keyword_first(
    service: AskDocs, site_id: str, phases: StartPhases, progress: SiteProgress
) -> bool:
    """A store with no collection at all: BM25 first, so the first search answers.
    The docs are read and parsed at once (the server may still be starting: module text),
    the rest waits until it serves. True when it built that keyword-only collection."""
    if service.store.backend.pointers():
        return False
    # the parse worker's work while the server starts, then both cores': the build below
    # parses and encodes nothing
    service.read_ahead(site_id, busy=lambda: not phases.serving.is_set(), read=phases.read.set)
    phases.wait_serving(progress)
    report = service.index(site_id, keyword_only=True)
    logger.info(
        "keyword-only index of %s ready in %.1f s (process CPU %.1f s since start)",
        site_id,
        report.seconds,
        time.process_time(),
    )
    return report.chunks > 0


def _single_root(site: SiteConfig) -> Path | None:
    return site.roots[0].path.resolve() if len(site.roots) == 1 else None
