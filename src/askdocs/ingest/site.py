"""``read_site``: read a site's pages (``askdocs.corpus``), then chunk each one.

A page's chunks are reused while the corpus returns the very same page object with the same
URL template, kind and chunk limits; a site's snapshot is reused while the corpus returns
the very same ``CorpusPages``. A cache may be shared by threads: ``read_site`` holds its
lock while it works.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field, replace

from askdocs import chunking
from askdocs.corpus import CorpusCache, CorpusPages, SourcePage, read_pages
from askdocs.corpus.budget import ReadBudget
from askdocs.ingest.snapshot import CorpusSnapshot
from askdocs.settings import CorpusSettings, SiteConfig
from askdocs.types import Chunk

Limits = tuple[int, int]  # (max_chars, min_chars)
STILL_READING = "*"  # ``pending`` of a snapshot answered while another read holds the cache
PageKey = tuple[str, str]  # (root, path)


@dataclass
class _Chunked:
    source: SourcePage
    limits: Limits
    chunks: tuple[Chunk, ...]


@dataclass
class _SiteState:
    pages: CorpusPages | None = None
    limits: Limits | None = None
    snapshot: CorpusSnapshot | None = None
    chunked: dict[PageKey, _Chunked] = field(default_factory=dict)


class IngestCache:
    """The corpus stat cache plus each page's chunks and each site's last snapshot."""

    def __init__(self, corpus: CorpusCache | None = None) -> None:
        self.corpus = corpus if corpus is not None else CorpusCache()
        self.lock = threading.Lock()
        self._sites: dict[tuple[str, tuple[str, ...]], _SiteState] = {}

    def site(self, site: SiteConfig) -> _SiteState:
        key = (site.id, tuple(str(root.path) for root in site.roots))
        return self._sites.setdefault(key, _SiteState())

    def clear(self) -> None:
        with self.lock:
            self._sites.clear()
            self.corpus.clear()

    def close(self) -> None:
        self.corpus.close()


def read_site(
    site: SiteConfig,
    settings: CorpusSettings,
    cache: IngestCache | None = None,
    budget: ReadBudget | None = None,
) -> CorpusSnapshot:
    """Read and chunk every page of ``site``. Raises ``ConfigError`` only for configuration
    errors. With a ``budget`` the snapshot may be partial: ``pending`` lists the files not
    parsed by its deadline (``corpus.budget``). Reads with a budget are single-flight: one
    that finds another read of the site under way waits for it (until its own deadline) and
    answers what that read made; if it is still under way then, the last snapshot, marked
    pending. So concurrent reads cost one read."""
    cache = cache if cache is not None else IngestCache()
    if budget is None:
        with cache.lock:
            return _read_locked(site, settings, cache, None)
    waited = not cache.lock.acquire(blocking=False)
    if waited and not cache.lock.acquire(timeout=budget.remaining()):
        return _still_reading(site, cache.site(site).snapshot)
    try:
        last = cache.site(site).snapshot
        if waited and last is not None:
            return last  # a concurrent read was under way: its answer is this one's too
        return _read_locked(site, settings, cache, budget)
    finally:
        cache.lock.release()


def _read_locked(
    site: SiteConfig, settings: CorpusSettings, cache: IngestCache, budget: ReadBudget | None
) -> CorpusSnapshot:
    limits = (settings.max_chars, settings.min_chars)
    pages = read_pages(site, settings, cache.corpus, budget)
    state = cache.site(site)
    if state.snapshot is not None and state.pages is pages and state.limits == limits:
        return state.snapshot
    chunked = {_key(source): _chunk(state, source, limits) for source in pages.pages}
    snapshot = _snapshot(pages, [(c.source, c.chunks) for c in chunked.values()])
    state.pages, state.limits, state.snapshot, state.chunked = pages, limits, snapshot, chunked
    return snapshot


def _still_reading(site: SiteConfig, last: CorpusSnapshot | None) -> CorpusSnapshot:
    """What a read answers while another holds the cache past its deadline: the last
    snapshot (or an empty one), marked as still being read."""
    snapshot = last or CorpusSnapshot.build(site.id, site.default_locale, [], [], [])
    return replace(snapshot, pending=snapshot.pending or (STILL_READING,))


def _key(source: SourcePage) -> PageKey:
    return (source.page.root, source.page.path)


def _chunk(state: _SiteState, source: SourcePage, limits: Limits) -> _Chunked:
    """The cached chunks while page, template, kind and limits are unchanged."""
    known = state.chunked.get(_key(source))
    if known is not None and known.source.same(source) and known.limits == limits:
        return known
    return _Chunked(source, limits, chunk_source(source, limits))


def chunk_source(source: SourcePage, limits: Limits) -> tuple[Chunk, ...]:
    """One page's chunks, labelled with its kind (``corpus.pagekind``)."""
    max_chars, min_chars = limits
    chunks = chunking.chunk_page(
        source.page, url_template=source.url_template, max_chars=max_chars, min_chars=min_chars
    )
    if source.kind == "guide":
        return chunks
    return tuple(replace(chunk, kind=source.kind) for chunk in chunks)


def _snapshot(
    pages: CorpusPages, chunked: list[tuple[SourcePage, tuple[Chunk, ...]]]
) -> CorpusSnapshot:
    built = CorpusSnapshot.build(
        pages.site,
        pages.default_locale,
        [(source.page, chunks) for source, chunks in chunked],
        pages.errors,
        pages.warnings,
    )
    built = replace(built, dialects=pages.dialects, diagnostics=pages.diagnostics)
    if not pages.pending:
        return built
    pending = "\n".join(["pending", *pages.pending])
    revision = hashlib.sha256(f"{built.revision}\n{pending}".encode()).hexdigest()
    return replace(built, pending=pages.pending, revision=revision)
