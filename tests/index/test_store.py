"""Queries, filters and the reader side of the Qdrant Edge store."""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import qdrant_edge as qe

from askdocs.errors import VectorStoreError
from askdocs.index import (
    KEYWORD_ONLY,
    CollectionInfo,
    HybridParams,
    IndexStore,
    QueryFilter,
    SparseVector,
    build_index,
    model_spec,
)
from askdocs.index import edge_convert as conv
from askdocs.index.backend import QuerySpec, RawResult
from askdocs.index.edge import EdgeBackend
from askdocs.index.payload import INDEXED_FIELDS
from askdocs.index.store import holds_any
from askdocs.search.lexical import document_vector, query_vector
from tests.index.helpers import HashingEmbedder, chunk, corpus

QUESTION = "how do I read json from a websocket with receive_json"


def indexed(store: IndexStore, embedder: HashingEmbedder | None) -> CollectionInfo:
    chunks = corpus()
    chunks += [replace(c, locale="cs", audience="developer") for c in corpus()[:6]]
    chunks += corpus("guide", pages=4, sections=1)
    by_site: dict[str, list] = {}  # type: ignore[type-arg]
    for c in chunks:
        by_site.setdefault(c.site, []).append(c)
    for site, items in by_site.items():
        build_index(store, embedder, site, items, sparse=document_vector)
    info = store.current(model_spec(embedder))
    assert info is not None
    return info


def test_no_collection_before_the_first_build(store: IndexStore, embedder: HashingEmbedder) -> None:
    assert store.current(model_spec(embedder)) is None
    assert store.latest() is None


def test_hybrid_query_returns_fused_hits_with_exact_cosines(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    info = indexed(store, embedder)
    dense = embedder.embed_query(QUESTION)[0]
    result = store.query(
        info, dense=dense, sparse=query_vector(QUESTION), filter=QueryFilter(site="docs"), limit=5
    )
    assert result.mode == "hybrid"
    assert len(result.hits) == 5
    assert result.hits[0].chunk.heading.startswith("Websockets")
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True)
    for hit in result.hits:
        expected = float(embedder.embed_documents([hit.chunk.embed_text])[0] @ dense)
        assert hit.dense_score == pytest.approx(expected, abs=1e-5)
    docs = [c for c in all_chunks(store, info) if c.site == "docs"]
    brute = max(float(embedder.embed_documents([c.embed_text])[0] @ dense) for c in docs)
    assert result.best_dense == pytest.approx(brute, abs=1e-5)


def all_chunks(store: IndexStore, info: CollectionInfo) -> list:  # type: ignore[type-arg]
    from askdocs.index.payload import chunk_from_payload

    return [chunk_from_payload(p.payload) for p in store.backend.scroll(info.name, vectors=False)]


def test_filters_by_site_locale_and_audience(store: IndexStore, embedder: HashingEmbedder) -> None:
    info = indexed(store, embedder)
    dense, sparse = embedder.embed_query(QUESTION)[0], query_vector(QUESTION)

    def hits(flt: QueryFilter) -> list:  # type: ignore[type-arg]
        return list(store.query(info, dense=dense, sparse=sparse, filter=flt, limit=100).hits)

    assert {h.chunk.site for h in hits(QueryFilter(site="guide"))} == {"guide"}
    cs = hits(QueryFilter(site="docs", locales=("cs",)))
    assert cs
    assert {h.chunk.locale for h in cs} == {"cs"}
    both = hits(QueryFilter(site="docs", locales=("cs", "en")))
    assert {h.chunk.locale for h in both} == {"cs", "en"}
    dev = hits(QueryFilter(audience="developer"))
    assert dev
    assert {h.chunk.audience for h in dev} == {"developer"}
    assert hits(QueryFilter(site="nope")) == []


def test_weights_decide_which_side_ranks(store: IndexStore, embedder: HashingEmbedder) -> None:
    info = indexed(store, embedder)
    dense, sparse = embedder.embed_query(QUESTION)[0], query_vector(QUESTION)
    flt = QueryFilter(site="docs")
    dense_only = store.query(info, dense=dense, sparse=None, filter=flt, limit=8)
    lexical_only = store.query(info, dense=None, sparse=sparse, filter=flt, limit=8)
    assert (dense_only.mode, lexical_only.mode) == ("dense", "keyword")
    assert [h.score for h in dense_only.hits] == pytest.approx(
        [h.dense_score for h in dense_only.hits]
    )
    dense_led = store.query(
        info, dense=dense, sparse=sparse, filter=flt, limit=8,
        params=HybridParams(dense_weight=1.0, lexical_weight=0.0),
    )  # fmt: skip
    lexical_led = store.query(
        info, dense=dense, sparse=sparse, filter=flt, limit=8,
        params=HybridParams(dense_weight=0.0, lexical_weight=1.0),
    )  # fmt: skip
    # ties aside, a zero weight leaves the other side's order: compare the sides' scores
    assert [h.dense_score for h in dense_led.hits] == pytest.approx(
        [h.score for h in dense_only.hits], abs=1e-6
    )
    lexical_scores = {h.chunk.id: h.score for h in lexical_only.hits}
    led = [lexical_scores[h.chunk.id] for h in lexical_led.hits[: len(lexical_scores)]]
    assert led == sorted(lexical_scores.values(), reverse=True)


def test_keyword_only_collection_ignores_the_query_vector(store: IndexStore) -> None:
    info = indexed(store, None)
    assert info == store.current(KEYWORD_ONLY)
    result = store.query(
        info, dense=np.ones(64, dtype=np.float32), sparse=query_vector(QUESTION),
        filter=QueryFilter(site="docs"), limit=3,
    )  # fmt: skip
    assert result.mode == "keyword"
    assert result.best_dense is None
    assert result.hits
    assert all(h.dense_score is None for h in result.hits)
    assert result.hits[0].chunk.heading.startswith("Websockets")


def test_empty_query_returns_nothing(store: IndexStore, embedder: HashingEmbedder) -> None:
    info = indexed(store, embedder)
    empty = SparseVector((), ())
    result = store.query(info, dense=None, sparse=empty, filter=QueryFilter(), limit=3)
    assert result.hits == ()
    assert result.best_dense is None


def test_query_vector_of_the_wrong_model_is_refused(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    info = indexed(store, embedder)
    with pytest.raises(VectorStoreError, match="dimensions"):
        store.query(info, dense=np.ones(10, dtype=np.float32), sparse=None,
                    filter=QueryFilter(), limit=3)  # fmt: skip


def test_a_reader_keeps_answering_during_a_build_and_then_switches(
    store: IndexStore, embedder: HashingEmbedder, index_root: Path
) -> None:
    build_index(store, embedder, "docs", corpus(), sparse=document_vector)
    reader = IndexStore(EdgeBackend(index_root))  # another process's view
    model = model_spec(embedder)
    old = reader.current(model)
    assert old is not None
    seen: list[int] = []

    def search_meanwhile() -> None:  # runs while the builder holds its lock
        info = reader.current(model)
        assert info is not None
        assert info.name == old.name
        hits = reader.query(info, dense=None, sparse=query_vector("install pip"),
                            filter=QueryFilter(), limit=3).hits  # fmt: skip
        seen.append(len(hits))

    edited = [replace(c, text=c.text + " edited") for c in corpus()]
    build_index(store, embedder, "docs", edited, sparse=document_vector,
                between_batches=search_meanwhile)  # fmt: skip
    assert seen
    assert all(n == 3 for n in seen)
    # the builder could not drop the old collection: the reader still holds it open
    assert old.name in store.backend.collections()
    new = reader.current(model)
    assert new is not None
    assert new.name != old.name
    # on noticing the swap the reader let go of the old one and removed it
    assert store.backend.collections() == [new.name]
    reader.close()


def test_a_stale_collection_info_is_answered_by_the_new_collection(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    build_index(store, embedder, "docs", corpus(), sparse=document_vector)
    stale = store.current(model_spec(embedder))
    assert stale is not None
    store.query(stale, dense=None, sparse=query_vector("pip"), filter=QueryFilter(), limit=1)
    build_index(store, embedder, "docs", corpus()[2:], sparse=document_vector)
    result = store.query(stale, dense=None, sparse=query_vector("pip"), filter=QueryFilter(),
                         limit=1)  # fmt: skip
    assert result.collection != stale.name
    assert result.hits


def test_unreadable_manifest_is_a_store_error(
    store: IndexStore, embedder: HashingEmbedder, index_root: Path
) -> None:
    result = build_index(store, embedder, "docs", corpus(), sparse=document_vector)
    (index_root / "collections" / result.collection / "manifest.json").write_text("{")
    fresh = IndexStore(EdgeBackend(index_root))
    with pytest.raises(VectorStoreError, match="unreadable manifest"):
        fresh.current(model_spec(embedder))
    fresh.close()


def test_unusable_index_folder_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(VectorStoreError, match="cannot create the index folder"):
        EdgeBackend(blocker / "index")


def test_hits_outside_the_dense_prefetch_carry_no_cosine_until_asked(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    info = indexed(store, embedder)
    dense = embedder.embed_query(QUESTION)[0]
    result = store.query(  # the lexical side finds other chunks than the dense side
        info, dense=dense, sparse=query_vector("install pip"), filter=QueryFilter(site="docs"),
        limit=8, params=HybridParams(prefetch=2),
    )  # fmt: skip
    known = [h for h in result.hits if h.dense_score is not None]
    unknown = [h for h in result.hits if h.dense_score is None]
    assert len(known) == 2  # only the dense side's two best came with a score
    assert unknown
    assert (
        min(h.dense_score or 0 for h in known)
        >= max(float(embedder.embed_documents([h.chunk.embed_text])[0] @ dense) for h in unknown)
        - 1e-6
    )  # a hit without a score ranks below every scored one on the dense side
    filled = store.with_cosines(info, result.hits, dense)
    for hit in filled:
        expected = float(embedder.embed_documents([hit.chunk.embed_text])[0] @ dense)
        assert hit.dense_score == pytest.approx(expected, abs=1e-5)


class _CountingBackend(EdgeBackend):
    calls = 0

    def query_batch(self, name: str, specs: Sequence[QuerySpec]) -> list[RawResult]:
        self.calls += 1
        return super().query_batch(name, specs)


def test_term_probes_run_as_one_engine_call(index_root: Path, embedder: HashingEmbedder) -> None:
    store = IndexStore(_CountingBackend(index_root))
    info = indexed(store, embedder)
    words = ["websocket", "prometheus", "json", "grpc"]
    probes = [query_vector(word) for word in words]
    before = _calls(store)
    assert store.mentioned(info, probes, QueryFilter()) == [True, False, True, False]
    assert _calls(store) == before + 1  # every best chunk passes: nothing is asked again
    assert store.mentioned(info, probes, QueryFilter(site="docs")) == [True, False, True, False]
    assert _calls(store) <= before + 3  # at most one more call, for the terms left open
    assert store.mentioned(info, [], QueryFilter(site="docs")) == []
    store.close()


def test_a_term_whose_best_chunk_is_filtered_out_is_asked_again(
    index_root: Path, embedder: HashingEmbedder
) -> None:
    """The first step asks the whole collection; a term is known under the filter only if
    a chunk under the filter holds it, whichever chunk holds it best."""
    store = IndexStore(_CountingBackend(index_root))
    other = [chunk("other", "zoo", "Zoo", "zebra zebra zebra zebra okapi okapi okapi")]
    mine = [
        chunk("mine", "guide", "Guide", "A zebra crossing, among many other words of a guide."),
        replace(chunk("mine", "changes", "Changes", "Version 2 added quokka."), kind="changelog"),
    ]
    build_index(store, embedder, "other", other, sparse=document_vector)
    build_index(store, embedder, "mine", mine, sparse=document_vector)
    info = store.current(model_spec(embedder))
    assert info is not None
    probes = [query_vector(word) for word in ("zebra", "okapi", "quokka", "guide")]
    guides = QueryFilter(site="mine", exclude_kind="changelog")
    before = _calls(store)
    assert store.mentioned(info, probes, guides) == [True, False, False, True]
    assert _calls(store) == before + 2  # zebra, okapi and quokka were asked again
    assert store.mentioned(info, probes, QueryFilter(site="mine")) == [True, False, True, True]
    assert store.mentioned(info, probes, QueryFilter(site="other")) == [True, True, False, False]
    store.close()


def test_term_ids_once_read_answer_alike_without_the_engine(
    index_root: Path, embedder: HashingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    collections: list[int] = []  # a full collection on the read's thread would stall
    monkeypatch.setattr(gc, "collect", lambda *_: collections.append(1) or 0)  # searches ~1 s
    store = IndexStore(_CountingBackend(index_root))
    info = indexed(store, embedder)
    words = ["websocket", "prometheus", "json", "grpc", "docker", "receive_json"]
    probes = [query_vector(word) for word in words]
    flt = QueryFilter(site="docs", exclude_kind="changelog")
    probed = store.mentioned(info, probes, flt)  # the first call probes and starts the read
    ids = _read_terms(store, info.name, flt, timeout=30)
    assert ids is not None
    assert list(ids) == sorted(set(ids.tolist()))  # sorted, each once
    before = _calls(store)
    assert store.mentioned(info, probes, flt) == probed == [True, False, True, False, True, True]
    assert _calls(store) == before  # answered from the term ids
    assert collections == []
    store.close()


def test_term_ids_are_those_of_the_points_under_the_filter(
    index_root: Path, embedder: HashingEmbedder
) -> None:
    store = IndexStore(EdgeBackend(index_root))
    info = indexed(store, embedder)
    docs = QueryFilter(site="docs", locales=("en",))
    expected = sorted({i for c in corpus() for i in document_vector(c).indices})
    assert store.backend.term_ids(info.name, docs).tolist() == expected
    assert store.backend.term_ids(info.name, QueryFilter(site="nowhere")).tolist() == []
    store.close()


class _FailingTerms(_CountingBackend):
    def term_ids(self, name: str, filter: QueryFilter) -> Any:
        raise VectorStoreError("scroll failed")


def test_a_failed_read_of_the_term_ids_leaves_the_probes_answering(
    index_root: Path, embedder: HashingEmbedder
) -> None:
    store = IndexStore(_FailingTerms(index_root))
    info = indexed(store, embedder)
    probes = [query_vector(word) for word in ("websocket", "grpc")]
    for _ in range(3):
        assert store.mentioned(info, probes, QueryFilter(site="docs")) == [True, False]
    assert _read_terms(store, info.name, QueryFilter(site="docs"), timeout=0.5) is None
    store.close()


@pytest.mark.parametrize(
    ("known", "indices", "held"),
    [
        ([], (5,), False),
        ([1, 5, 9], (5,), True),
        ([1, 5, 9], (6,), False),
        ([1, 5, 9], (10, 1), True),
    ],
)
def test_holds_any(known: list[int], indices: tuple[int, ...], held: bool) -> None:
    term = SparseVector(indices=indices, values=tuple(1.0 for _ in indices))
    assert holds_any(np.asarray(known, dtype=np.uint32), term) is held


@pytest.mark.parametrize(
    ("wanted", "payload", "admitted"),
    [
        (QueryFilter(), {}, True),
        (QueryFilter(site="a"), {"site": "a"}, True),
        (QueryFilter(site="a"), {"site": "b"}, False),
        (QueryFilter(locales=("en", "cs")), {"locale": "cs"}, True),
        (QueryFilter(locales=("en",)), {"locale": "cs"}, False),
        (QueryFilter(audience="user"), {"audience": "developer"}, False),
        (QueryFilter(exclude_kind="changelog"), {"site": "a"}, True),  # no kind: a guide
        (QueryFilter(exclude_kind="changelog"), {"kind": "changelog"}, False),
    ],
)
def test_a_filter_admits_the_payloads_the_engine_returns(
    wanted: QueryFilter, payload: dict[str, str], admitted: bool
) -> None:
    assert wanted.admits(payload) is admitted


def _read_terms(store: IndexStore, name: str, flt: QueryFilter, timeout: float) -> Any:
    """The collection's term ids under ``flt`` once the background read has them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = store._terms.get(name, flt)
        if found is not None:
            return found
        time.sleep(0.01)
    return None


def _calls(store: IndexStore) -> int:
    assert isinstance(store.backend, _CountingBackend)
    return store.backend.calls


def _schema(store: IndexStore, name: str) -> set[str]:
    backend = store.backend
    assert isinstance(backend, EdgeBackend)
    with backend._use(name, "inspect") as shard:
        return set(shard.info().payload_schema)


def test_every_filtered_field_is_indexed_also_in_a_copy_of_an_older_shard(
    index_root: Path, embedder: HashingEmbedder
) -> None:
    """The probes exclude changelogs by ``kind``; without its keyword index every probe call
    reads every payload. A collection copied from a shard made before ``kind`` was indexed
    gains the index."""
    store = IndexStore(EdgeBackend(index_root))
    info = indexed(store, embedder)
    assert _schema(store, info.name) >= set(INDEXED_FIELDS)
    store.close()
    folder = index_root / "collections" / info.name / "shard"
    older = qe.EdgeShard.load(str(folder), conv.config(info.dimension, "int8"))
    older.update(qe.UpdateOperation.delete_field_index("kind"))
    older.flush()
    older.close()
    store = IndexStore(EdgeBackend(index_root))
    assert "kind" not in _schema(store, info.name)
    changed = [
        replace(c, text=c.text + " changed") if i == 0 else c for i, c in enumerate(corpus())
    ]
    build_index(store, embedder, "docs", changed, sparse=document_vector)
    current = store.current(model_spec(embedder))
    assert current is not None
    assert current.name != info.name
    assert _schema(store, current.name) >= set(INDEXED_FIELDS)
    store.close()
