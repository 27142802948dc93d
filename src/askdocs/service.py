"""The one service facade: the CLI, HTTP routes, assistant tools and MCP tools all call this.

``AskDocs`` owns the settings, the site catalog (``askdocs.sites``), the corpus readers,
the embedder, the vector store and the indexer. Surfaces never reach past it into the
engine. The embedder and the store open lazily on first use; ``close()`` releases them.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from askdocs.corpus import CorpusCache
from askdocs.corpus.freshness import FreshnessReader
from askdocs.corpus.parse_pool import ParsePool
from askdocs.corpus.sources import missing_root
from askdocs.embeddings.protocol import Embedder
from askdocs.embeddings.registry import create_query_embedder
from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, DocsRootMissing, NotFound
from askdocs.index import CollectionInfo, IndexStore, build_index, model_spec, open_store
from askdocs.index.shared import Coordination
from askdocs.indexing import ActivityMonitor
from askdocs.indexing.state import Search
from askdocs.ingest import CorpusSnapshot, IngestCache, read_site
from askdocs.search import lexical
from askdocs.search.processes import SearchProcesses
from askdocs.search.retrieval import Retriever, SearchRequest
from askdocs.search.stop import NEVER, StopToken
from askdocs.settings import EmbeddingSettings, Settings, SiteConfig
from askdocs.sites import SiteCatalog
from askdocs.types import Audience, Chunk, PageError, SearchResult, SparseVector

log = logging.getLogger(__name__)
PAID_PROVIDERS = frozenset({"openai-compatible", "gemini"})  # query embeddings cost money
WARM_UP_QUERY = "getting started"  # one search per site at start (warm_up)
ProgressCallback = Callable[[int, int], None]  # (done, total) chunks embedded


@dataclass(frozen=True)
class IndexReport:
    """What one indexing run did (``askdocs index --json`` prints it)."""

    site: str
    collection: str
    chunks: int
    embedded: int
    reused: int
    pages: int
    errors: int
    seconds: float


@dataclass(frozen=True)
class SiteIndexStatus:
    site: str
    ready: bool  # a complete collection exists
    building: bool
    collection: str | None
    chunks: int
    error: str | None = None
    empty: bool = False  # the last indexing run found no documents (ready, with nothing)
    bad_files: tuple[PageError, ...] = ()  # files the last indexing run could not use
    search: Search = "none"  # what a search reads now: nothing, keyword only, or hybrid
    state: SiteState = "ready"

    @classmethod
    def state_of(cls, *, ready: bool, building: bool, empty: bool, error: str | None) -> SiteState:
        if empty:
            return "empty"
        if ready:
            return "ready"
        if error is not None:
            return "error"
        return "building"


# What a site's documentation is doing now, on every surface that reports it (/readyz,
# ``askdocs sites``, the admin Sites tab): ``docs_root_missing`` wins over the index's state.
SiteState = Literal["ready", "building", "empty", "error", "docs_root_missing"]


class AskDocs:
    """Facade over the engine. Build with ``AskDocs(settings)``; close with ``close()``."""

    def __init__(
        self,
        settings: Settings,
        sites: Sequence[SiteConfig] | SiteCatalog | None = None,
        *,
        monitor: ActivityMonitor | None = None,
        coordination: Coordination | None = None,
        store: IndexStore | None = None,
    ) -> None:
        self.settings = settings
        self.coordination = coordination  # a shared Qdrant server's install id and build lock
        self.catalog = _catalog(settings, sites)
        self.monitor = monitor or ActivityMonitor()
        parser = ParsePool(settings.corpus.parse_timeout_seconds)  # long pages, bounded
        self.corpus_cache = IngestCache(CorpusCache(parser))
        self.freshness = FreshnessReader()
        self._embedding = settings.embedding
        self._embedder: Embedder | None = None
        self._embedder_ready = False
        self._store: IndexStore | None = store  # opened by the caller (tests share one)
        self._lock = threading.RLock()  # guards lazy creation
        self._index_lock = threading.Lock()  # one indexing run per service at a time
        self._building: set[str] = set()
        self._errors: dict[str, str] = {}
        self._bad_files: dict[str, tuple[PageError, ...]] = {}
        self._empty: set[str] = set()
        self._warming = threading.Event()  # set while the model loads in the background
        self._sparse_ahead: dict[Chunk, SparseVector] = {}  # read_ahead's, for the next build
        self.search_processes: SearchProcesses | None = None  # set by the server (Core)

    @property
    def sites(self) -> list[SiteConfig]:
        """Every site of the catalog now (config, CLI, admin; see ``askdocs.sites``)."""
        return self.catalog.sites()

    def site(self, site_id: str | None) -> SiteConfig:
        """The operator's lookup: the named site, or the only one."""
        return self.catalog.get(site_id)

    # -- lazily opened parts -------------------------------------------------------------

    @property
    def embedder(self) -> Embedder | None:
        """The configured embedder (``None`` for keyword-only), created on first use."""
        with self._lock:
            if not self._embedder_ready:
                self._embedder = create_query_embedder(self._with_cache_dir())
                self._embedder_ready = True
            return self._embedder

    def start_warm_up(self) -> threading.Thread:
        """Load the embedding model on a background thread now, so the first search does
        not wait for it (``askdocs serve`` calls this at start; ``/readyz`` answers 503
        while it runs)."""
        self._warming.set()
        thread = threading.Thread(target=self.warm_up, name="askdocs-warm-up", daemon=True)
        thread.start()
        return thread

    def warm_up(self) -> None:
        """Load the embedding model now, then search each site that has an index once, so
        the first real search finds the model run once and the collection's files open
        (before: the first search after ``/readyz`` took 0.4 s). A failure is logged and
        left to the searches, which then run keyword-only and say why."""
        try:
            workers = self.search_processes
            if workers is not None:  # they load their own models; this process needs none
                workers.warm(self._worker_settings(), self._warm_request())
            else:
                load = getattr(self.embedder, "load", None)
                if callable(load):
                    load()
            for site in self.sites:
                self._warm_search(site.id)
        except AskDocsError as exc:
            log.warning("the embedding model did not load: %s", exc)
        finally:
            self._warming.clear()

    def _warm_request(self) -> SearchRequest:
        sites = self.sites
        site = sites[0] if sites else None
        return SearchRequest(
            query=WARM_UP_QUERY,
            site=site.id if site else "",
            fallback_locale=site.default_locale if site else "en",
            limit=1,
        )

    def _warm_search(self, site: str) -> None:
        try:
            self.search(WARM_UP_QUERY, site=site, limit=1)
        except AskDocsError:  # no index yet, or a store fault: the real searches will say
            return

    @property
    def warming_up(self) -> bool:
        """Whether the model is still loading in the background."""
        return self._warming.is_set()

    def _with_cache_dir(self) -> EmbeddingSettings:
        """The embedding settings, compiled local models kept under ``<data_dir>/models``."""
        if self._embedding.cache_dir is not None:
            return self._embedding
        models = Path(self.settings.data_dir) / "models"
        return self._embedding.model_copy(update={"cache_dir": models})

    @property
    def store(self) -> IndexStore:
        with self._lock:
            if self._store is None:
                self._store = open_store(self.settings, coordination=self.coordination)
            return self._store

    @property
    def embedding_settings(self) -> EmbeddingSettings:
        """The embedding provider in use now (settings, or what ``set_embedding`` chose)."""
        with self._lock:
            return self._embedding

    def set_embedding(self, embedding: EmbeddingSettings) -> None:
        """Switch the embedding provider at run time. Searches go keyword-only over the old
        collection until the next ``ensure_indexed`` builds the new model's collection."""
        with self._lock:
            old = self._embedder
            self._embedding = embedding
            self._embedder, self._embedder_ready = None, False
        _close(old)

    def snapshot(self, site_id: str | None = None) -> CorpusSnapshot:
        """The site's corpus as it is now (unchanged files come from the stat cache)."""
        return read_site(self.site(site_id), self.settings.corpus, self.corpus_cache)

    def read_ahead(
        self,
        site_id: str | None = None,
        busy: Callable[[], bool] | None = None,
        read: Callable[[], None] | None = None,
    ) -> None:
        """Read and parse the site's docs now, into the stat cache, and compute their
        chunks' BM25 vectors for the next build, leaving the work to the parse worker while
        ``busy()`` says this process has other work (``askdocs mcp`` starting its server;
        without ``busy``, all of it). ``read()`` is called once the files are read and
        their parsing starts. The next read parses nothing."""
        corpus = self.corpus_cache.corpus
        with corpus.offloaded(busy, read):
            chunks = self.snapshot(site_id).chunks
            if corpus.parser is None or not chunks:
                return
            vectors = corpus.parser.map(
                lexical.document_vector, chunks, here=lambda: not corpus.busy()
            )
        self._sparse_ahead = dict(zip(chunks, vectors, strict=True))

    # -- indexing ------------------------------------------------------------------------

    def index(
        self,
        site_id: str | None = None,
        progress: ProgressCallback | None = None,
        *,
        keyword_only: bool = False,
    ) -> IndexReport:
        """Index one site incrementally (reusing vectors by embed hash) and make it current.
        ``keyword_only`` builds the BM25-only collection (no model): seconds on a cold
        store, so searches answer while the vectors are embedded."""
        site = self.site(site_id)
        started = time.monotonic()
        with self._index_lock:
            self._building.add(site.id)
            embedder: Embedder | None = None
            try:
                embedder = None if keyword_only else self.embedder
                report = self._index(site, embedder, progress, started)
            except AskDocsError as exc:
                self._errors[site.id] = f"{exc.code}: {exc}"
                raise
            finally:
                self._building.discard(site.id)
                _release_documents(embedder)
        self._errors.pop(site.id, None)
        return report

    def _index(
        self,
        site: SiteConfig,
        embedder: Embedder | None,
        progress: ProgressCallback | None,
        started: float,
    ) -> IndexReport:
        snapshot = read_site(site, self.settings.corpus, self.corpus_cache)
        self._note_files(site.id, snapshot)
        result = build_index(
            self.store,
            embedder,
            site.id,
            snapshot.chunks,
            sparse=self._sparse_encoder(),
            lexical_version=lexical.lexical_version(),
            progress=progress,
            between_batches=self.monitor.between_batches(
                self.settings.index.interactive_yield_seconds
            ),
            batch_size=self.settings.embedding.batch_size,
        )
        return IndexReport(
            site=site.id,
            collection=result.collection,
            chunks=result.chunks,
            embedded=result.embedded,
            reused=result.reused,
            pages=len(snapshot.pages),
            errors=len(snapshot.errors),
            seconds=time.monotonic() - started,
        )

    def _sparse_encoder(self) -> Callable[[Chunk], SparseVector]:
        """The BM25 encoder of a build: ``read_ahead``'s vectors first (taken once)."""
        encode = lexical.sparse_encoder()
        ahead, self._sparse_ahead = self._sparse_ahead, {}
        if not ahead:
            return encode

        def known_first(chunk: Chunk) -> SparseVector:
            vector = ahead.get(chunk)
            return encode(chunk) if vector is None else vector

        return known_first

    def _note_files(self, site_id: str, snapshot: CorpusSnapshot) -> None:
        """Remember the files that could not be used (logged once per revision) and
        whether the site has no documents at all."""
        if snapshot.errors and self._bad_files.get(site_id) != snapshot.errors:
            for error in snapshot.errors:
                log.warning("site %s: %s skipped: %s", site_id, error.path, error.reason)
        self._bad_files[site_id] = snapshot.errors
        if snapshot.chunks:
            self._empty.discard(site_id)
        else:
            self._empty.add(site_id)

    def ensure_indexed(
        self, progress_for: Callable[[str], ProgressCallback] | None = None
    ) -> list[IndexReport]:
        """Idempotent: index every configured site whose corpus or model changed. Every site
        is tried; the first failure is raised afterwards (the caller retries sooner).
        ``progress_for(site_id)`` gives the progress callback of each site's full run.

        A site nothing can search yet first gets a keyword-only index (seconds, no model),
        so search and Ask AI answer while its vectors are embedded; the reports are those of
        the full runs."""
        reports: list[IndexReport] = []
        failure: AskDocsError | None = None
        for keyword_only in (True, False):
            for site in self._cold_sites() if keyword_only else self.sites:
                progress = None if keyword_only or progress_for is None else progress_for(site.id)
                try:
                    report = self.index(site.id, progress, keyword_only=keyword_only)
                except AskDocsError as exc:
                    log.warning("indexing site %s failed: %s", site.id, exc)
                    failure = failure or exc
                    continue
                if not keyword_only:
                    reports.append(report)
        if failure is not None:
            raise failure
        return reports

    def _cold_sites(self) -> list[SiteConfig]:
        """Sites with no searchable collection, when a model is configured (else the
        normal pass is the keyword-only one)."""
        if self._embedding.provider == "none":
            return []
        return [site for site in self.sites if self._searchable(site.id) is None]

    # -- searching -----------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        site: str | None = None,
        locale: str | None = None,
        audience: Audience | None = None,
        limit: int = 10,
        history: Sequence[str] = (),
        keyword_only: bool = False,
        stop: StopToken = NEVER,
        group: str | None = None,
    ) -> SearchResult:
        """Hybrid search over the last complete collection of ``site``. ``keyword_only``
        searches BM25 alone without creating the embedder (MCP local mode's first answers,
        while only a keyword-only collection exists: the same hits, no model load).
        ``stop`` ends the work between steps once its caller left or its deadline passed
        (``search.stop``). ``group`` limits it to pages of one group (``corpus.groups``)."""
        config = self.site(site)
        missing = missing_root(config)
        if missing is not None:
            raise DocsRootMissing(f"the documentation of site {config.id!r} is missing: {missing}")
        if config.id in self._empty and config.id not in self._errors:
            raise NotFound(
                f"site {config.id!r} has no documents to search", code=ErrorCode.NO_DOCUMENTS
            )
        request = SearchRequest(
            query=query,
            site=config.id,
            fallback_locale=config.default_locale,
            locale=locale,
            audience=audience,
            limit=limit,
            history=tuple(history),
            group=group,
        )
        result = self._retrieve(request, keyword_only, stop)
        stop.check("freshness")
        roots = [root.path for root in config.roots]
        hits = self.freshness.hits(result.hits, roots, self.indexed_at(result.collection))
        return dataclasses.replace(result, hits=hits)

    def _retrieve(
        self, request: SearchRequest, keyword_only: bool, stop: StopToken
    ) -> SearchResult:
        """The retrieval step: in a search worker process when there are some (and it
        answers; a job sent to a worker runs to its end there), else here."""
        workers = self.search_processes
        if workers is not None and not keyword_only:
            stop.check("worker")
            found = workers.search(self._worker_settings(), request)
            if found is not None:
                return found
        embedder = None if keyword_only else self.embedder
        return Retriever(self.store, embedder, self.settings.search).search(request, stop)

    @property
    def query_is_paid(self) -> bool:
        """Whether a query embedding is billed now (a hosted embedding provider)."""
        return self.embedding_settings.provider in PAID_PROVIDERS

    def _worker_settings(self) -> Settings:
        """What a search worker needs to search as this engine does now (on a shared Qdrant
        server, the install id too: workers open the store without the coordination)."""
        update: dict[str, object] = {"embedding": self._with_cache_dir()}
        if self.settings.index.qdrant_url and self.coordination is not None:
            install = self.coordination.install_id()
            update["index"] = self.settings.index.model_copy(update={"install_id": install})
        return self.settings.model_copy(update=update)

    def indexed_at(self, collection: str | None) -> float | None:
        """When ``collection`` was built (Unix seconds), from its manifest."""
        manifest = self.store.manifest(collection) if collection else None
        return manifest.created if manifest is not None else None

    def status(self, site_id: str) -> SiteIndexStatus:
        site = self.site(site_id)
        info = self._searchable(site.id)
        empty = info is None and site.id in self._empty and site.id not in self._errors
        building, error = site.id in self._building, self._errors.get(site.id)
        missing = missing_root(site)
        state = SiteIndexStatus.state_of(
            ready=info is not None, building=building, empty=empty, error=error
        )
        return SiteIndexStatus(
            site=site.id,
            ready=(info is not None or empty) and missing is None,
            building=building,
            collection=info.name if info else None,
            chunks=info.points_of(site.id) if info else 0,
            error=f"docs_root_missing: {missing}" if missing is not None else error,
            empty=empty,
            bad_files=self._bad_files.get(site.id, ()),
            state="docs_root_missing" if missing is not None else state,
            search=_search_of(info),
        )

    def _searchable(self, site_id: str) -> CollectionInfo | None:
        """The collection a search of ``site_id`` would read now, if any."""
        own = self.store.current(model_spec(self.embedder))
        if own is not None and own.points_of(site_id):
            return own
        latest = self.store.latest()
        return latest if latest is not None and latest.points_of(site_id) else None

    def close(self) -> None:
        """Release stores and models."""
        with self._lock:
            store, embedder = self._store, self._embedder
            self._store, self._embedder, self._embedder_ready = None, None, False
        if store is not None:
            store.close()
        _close(embedder)
        self.corpus_cache.close()  # its parse worker; later reads parse in process


def _catalog(settings: Settings, sites: Sequence[SiteConfig] | SiteCatalog | None) -> SiteCatalog:
    if isinstance(sites, SiteCatalog):
        return sites
    return SiteCatalog(sites) if sites else SiteCatalog.from_settings(settings)


def _search_of(info: CollectionInfo | None) -> Search:
    if info is None:
        return "none"
    return "hybrid" if info.dimension is not None and info.coverage >= 1.0 else "keyword"


def _release_documents(embedder: Embedder | None) -> None:
    """After an indexing run: the local model frees its document session (searches keep
    the query session), some 250 MB of a server's steady memory."""
    release = getattr(embedder, "release_documents", None)
    if callable(release):
        release()


def _close(embedder: Embedder | None) -> None:
    close = getattr(embedder, "close", None)
    if callable(close):
        close()
