"""Hybrid retrieval: one question in, a ``SearchResult`` out.

1. The follow-up rule picks the searched text (``search.query``).
2. The collection is the last complete one of the configured model; the indexer's lock is
   never taken. Before any complete collection exists for the site: ``IndexBuilding``.
3. The query is embedded; if that is impossible (provider ``none``, the model's own
   collection still building, partial vector coverage, a failing provider), the search runs
   keyword-only and says why (``reason``) and how many chunks have vectors (``coverage``).
4. The store fuses the dense and BM25 rankings (weighted RRF) under the site / locale /
   audience filter; a store failure raises ``VectorStoreError``.
5. Parts and locale variants of one section collapse (``search.hits``), an introducing
   section among the first hits pulls up its first sub-section (``search.intros``) and the
   match decision is taken (``search.threshold``).

A ``StopToken`` (``search.stop``) is checked between these steps: a search whose caller
went away, or whose deadline passed, stops at the next check instead of finishing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from askdocs.corpus.pagekind import asks_about_versions
from askdocs.embeddings.protocol import Embedder
from askdocs.errors import AskDocsError, EmbeddingError, IndexBuilding, VectorStoreError
from askdocs.index import (
    KEYWORD_ONLY,
    CollectionInfo,
    HybridParams,
    IndexStore,
    QueryFilter,
    QueryResult,
    ScoredChunk,
    SparseVector,
    model_spec,
)
from askdocs.index.backend import CollectionGone
from askdocs.search import cosines, lexical
from askdocs.search.cosines import Shown
from askdocs.search.followup import fuse_followup
from askdocs.search.hits import Candidate, by_score, collapse, search_locales, to_hit
from askdocs.search.intros import follow_intros
from askdocs.search.query import (
    SearchQuery,
    bounded_query,
    is_keyword_query,
    query_kind,
    search_text,
)
from askdocs.search.ranking import clear_winner_first, rerank
from askdocs.search.stop import NEVER, StopToken
from askdocs.search.threshold import (
    KEYWORD_MATCH_RATIO,
    dense_match,
    dense_threshold,
    keyword_match,
)
from askdocs.settings import SearchSettings
from askdocs.types import Audience, Hit, SearchResult

log = logging.getLogger(__name__)
FloatArray = npt.NDArray[np.float32]
T = TypeVar("T")
MAX_PROBES = 10  # sparse look-ups per query for the unknown-term rule


@dataclass(frozen=True)
class SearchRequest:
    query: str
    site: str
    fallback_locale: str = "en"
    locale: str | None = None
    audience: Audience | None = None
    limit: int = 10
    history: tuple[str, ...] = ()
    group: str | None = None  # only pages of this group (corpus.groups)


@dataclass(frozen=True)
class _Run:
    """One engine search and the query vector it ran with (None: keyword-only)."""

    result: QueryResult
    dense: FloatArray | None


@dataclass(frozen=True)
class _Plan:
    """Which collection to read and whether the dense side can take part."""

    collection: CollectionInfo
    dense_ok: bool
    reason: str | None


class Retriever:
    """Searches one store with one (optional) embedder under one ``SearchSettings``."""

    def __init__(
        self, store: IndexStore, embedder: Embedder | None, settings: SearchSettings
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings

    def search(self, request: SearchRequest, stop: StopToken = NEVER) -> SearchResult:
        try:
            return self._search(request, stop)
        except CollectionGone:
            # a build swapped in a newer collection and swept the one this search planned
            # on (the first index's keyword-only one, an older build): search once more,
            # on the collection current now; gone again is a real failure
            log.info("the collection of a search was swept under it; searching again")
            return self._search(request, stop)

    def _search(self, request: SearchRequest, stop: StopToken) -> SearchResult:
        s = self.settings
        query = search_text(request.query, request.history, s.followup_min_words, s.followup_join)
        stop.check("plan")
        plan = self._plan(request.site)
        dense, reason = self._embed(query, plan)
        stop.check("query")
        runs = [_Run(self._query(plan.collection, query, dense, request), dense)]
        if query.followup and s.followup_fuse:
            runs += self._alone(plan, request, dense is not None)
        stop.check("rank")
        return self._result(runs, plan, query, request, reason, stop)

    def _alone(self, plan: _Plan, request: SearchRequest, hybrid: bool) -> list[_Run]:
        """The follow-up searched alone, to be fused with the joined search
        (``search.followup``); nothing when it cannot run the same way."""
        text = bounded_query(" ".join(request.query.split()))
        alone = SearchQuery(text=text, followup=False)
        dense, _ = self._embed(alone, plan)
        if (dense is not None) != hybrid:
            return []
        return [_Run(self._query(plan.collection, alone, dense, request), dense)]

    # -- which collection, which sides ------------------------------------------------

    def _plan(self, site: str) -> _Plan:
        model = model_spec(self.embedder)
        own = _call_store(lambda: self.store.current(model))
        if own is not None and own.points_of(site):
            return _Plan(own, self._covered(own), self._coverage_reason(own))
        latest = _call_store(self.store.latest)
        if latest is None or not latest.points_of(site):
            raise IndexBuilding(f"the search index for site {site!r} is still being built")
        reason = (
            None
            if model == KEYWORD_ONLY
            else f"the index for {model.model_id} is still being built; keyword-only meanwhile"
        )
        return _Plan(latest, False, reason or "no embedding provider is configured")

    def _covered(self, collection: CollectionInfo) -> bool:
        return (
            self.embedder is not None
            and collection.dimension is not None
            and (collection.coverage >= 1.0)
        )

    def _coverage_reason(self, collection: CollectionInfo) -> str | None:
        if self.embedder is None:
            return "no embedding provider is configured"
        if collection.dimension is None or collection.coverage < 1.0:
            share = f"{collection.coverage:.0%}"
            return f"only {share} of the indexed chunks have embeddings; keyword-only"
        return None

    def _embed(self, query: SearchQuery, plan: _Plan) -> tuple[FloatArray | None, str | None]:
        if not plan.dense_ok or self.embedder is None:
            return None, plan.reason
        try:
            vector = self.embedder.embed_query(query.text)
        except EmbeddingError as exc:
            log.warning("query embedding failed, searching keyword-only: %s", exc)
            return None, f"query embedding failed ({exc.code}); keyword-only"
        return np.asarray(vector, dtype=np.float32).reshape(-1), None

    # -- the query ---------------------------------------------------------------------

    def _params(self, text: str) -> HybridParams:
        k, dense_weight, lexical_weight = fusion_weights(text, self.settings)
        return HybridParams(
            prefetch=self.settings.prefetch,
            dense_weight=dense_weight,
            lexical_weight=lexical_weight,
            rrf_k=k,
        )

    def _query(
        self,
        collection: CollectionInfo,
        query: SearchQuery,
        dense: FloatArray | None,
        request: SearchRequest,
    ) -> QueryResult:
        locales = search_locales(request.locale, request.fallback_locale)
        flt = QueryFilter(
            site=request.site, locales=locales, audience=request.audience, group=request.group
        )
        sparse = lexical.query_vector(query.text, request.locale or request.fallback_locale)
        fetch = max(request.limit * self.settings.candidates_factor, request.limit)
        return _call_store(
            lambda: self.store.query(
                collection,
                dense=dense,
                sparse=sparse,
                filter=flt,
                limit=fetch,
                params=self._params(query.text),
            )
        )

    def _exact_words(
        self,
        text: str,
        hits: tuple[Hit, ...],
        request: SearchRequest,
        ratio: float | None = 1.0,
    ) -> bool:
        """The lexical match rule. With ``ratio`` 1.0 (hybrid mode) only keyword-like
        queries qualify and a top hit must hold every query term (MiniLM gives bare
        identifiers low cosines); keyword-only mode uses ``KEYWORD_MATCH_RATIO``."""
        if ratio is not None and not is_keyword_query(text):
            return False
        texts = [_lexical_text(hit.title, hit.heading, hit.text) for hit in hits]
        locale = request.locale or request.fallback_locale
        top = texts[: self.settings.match_top_k]
        return keyword_match(text, top, locale, ratio=ratio or KEYWORD_MATCH_RATIO)

    def _unknown_names(
        self, collection: CollectionInfo, text: str, request: SearchRequest
    ) -> list[str]:
        """Why the docs cannot be about this question: name-like terms (``Prometheus``,
        ``gRPC``) that no chunk of the site contains, or, when at least
        ``unknown_terms_ratio`` of the query's terms are unknown to the site, all of them.
        Empty when nothing speaks against a match."""
        locale = request.locale or request.fallback_locale
        # A name only the changelog mentions is not something the guides answer.
        changelog = None if asks_about_versions(text) else "changelog"
        site = QueryFilter(site=request.site, exclude_kind=changelog)
        names = lexical.name_terms(text, locale)
        terms = list(dict.fromkeys([*names, *lexical.analyze(text, locale)]))[:MAX_PROBES]
        probes = [SparseVector(indices=(lexical.term_id(t),), values=(1.0,)) for t in terms]
        found = _call_store(lambda: self.store.mentioned(collection, probes, site))
        unknown = [term for term, seen in zip(terms, found, strict=True) if not seen]
        if any(term in names for term in unknown):
            return unknown
        ratio = self.settings.unknown_terms_ratio
        return unknown if terms and len(unknown) / len(terms) >= ratio else []

    def _exact_cosines(
        self, collection: CollectionInfo, shown: list[Shown], runs: list[_Run]
    ) -> list[Shown]:
        """``shown`` with every section's exact best cosine (``search.cosines``): the
        vectors of the few sections the engine's scores leave open are fetched."""
        keys = cosines.needing(shown, [run.result for run in runs])
        if not keys:
            return shown
        filled = [
            hit
            for run in runs
            for hit in self._filled(collection, cosines.of_sections([run.result], keys), run.dense)
        ]
        return cosines.with_best(shown, filled, keys)

    def _filled(
        self, collection: CollectionInfo, hits: list[ScoredChunk], dense: FloatArray | None
    ) -> tuple[ScoredChunk, ...]:
        if dense is None:
            return tuple(hits)
        return _call_store(lambda: self.store.with_cosines(collection, hits, dense))

    def _result(
        self,
        runs: list[_Run],
        plan: _Plan,
        query: SearchQuery,
        request: SearchRequest,
        reason: str | None,
        stop: StopToken = NEVER,
    ) -> SearchResult:
        result = runs[0].result
        for run in runs[1:]:
            result = fuse_followup(result, run.result)
        hybrid = runs[0].dense is not None
        candidates = by_score([Candidate(h.chunk, h.score, h.dense_score) for h in result.hits])
        ranked = collapse(candidates, request.locale, len(candidates))
        s = self.settings
        if not is_keyword_query(query.text):
            ranked = clear_winner_first(ranked, s.dense_margin)
        ranked = follow_intros(ranked, s.intro_top)
        shown = rerank(ranked, query.text, demote=s.demote_changelogs, per_page=s.max_per_page)
        shown = shown[: request.limit]
        stop.check("cosines")
        if hybrid:
            shown = self._exact_cosines(plan.collection, shown, runs)
        hits = tuple(to_hit(candidate, request.locale, cosine) for candidate, cosine in shown)
        coverage = plan.collection.coverage if plan.collection.dimension else 0.0
        threshold: float | None = None
        if hybrid:
            top = [cosine for _, cosine in shown[: self.settings.match_top_k]]
            threshold = dense_threshold(plan.collection.model_id, self.settings.match_threshold)
            match, best = dense_match(top, threshold)
            match = match or self._exact_words(query.text, hits, request)
        else:
            match, best = self._exact_words(query.text, hits, request, ratio=None), None
        if match and hits and self.settings.unknown_name_check:
            stop.check("names")
            match = not self._unknown_names(plan.collection, query.text, request)
        return SearchResult(
            hits=hits,
            match=match and bool(hits),
            mode="hybrid" if hybrid else "keyword",
            reason=reason,
            coverage=coverage,
            collection=result.collection,
            best_dense=best,
            threshold=threshold,
            searched=query.text,
        )


def fusion_weights(text: str, s: SearchSettings) -> tuple[int, float, float]:
    """RRF ``k``, dense weight and lexical weight for a query of its kind (``query_kind``)."""
    kind = query_kind(text)
    if kind == "keyword":
        return s.keyword_rrf_k, s.keyword_dense_weight, s.keyword_lexical_weight
    if kind == "mixed":
        return s.mixed_rrf_k, s.mixed_dense_weight, s.mixed_lexical_weight
    return s.rrf_k, s.dense_weight, s.lexical_weight


def _lexical_text(title: str, heading: str, text: str) -> str:
    return f"{title}\n{heading}\n{text}"


def _call_store(call: Callable[[], T]) -> T:
    """Run a store call; anything unexpected below it becomes a ``VectorStoreError``."""
    try:
        return call()
    except AskDocsError:
        raise
    except Exception as exc:
        raise VectorStoreError(f"the vector store failed: {exc}") from exc
