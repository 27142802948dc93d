"""The incremental builder against a real Qdrant Edge store on disk."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from askdocs.embeddings.protocol import Vectors
from askdocs.errors import EmbeddingError, VectorStoreError
from askdocs.index import (
    KEYWORD_ONLY,
    IndexStore,
    QueryFilter,
    build_index,
    model_spec,
)
from askdocs.index.edge import EdgeBackend
from askdocs.search.lexical import document_vector, query_vector
from tests.index.helpers import HashingEmbedder, chunk, corpus


def build(store: IndexStore, embedder: HashingEmbedder | None, site: str, chunks: list, **kw):  # type: ignore[no-untyped-def]
    return build_index(store, embedder, site, chunks, sparse=document_vector, **kw)


def scrolled(store: IndexStore, name: str) -> dict[str, str]:
    return {
        p.payload["chunk_id"]: p.payload["text"] for p in store.backend.scroll(name, vectors=False)
    }


def test_first_build_embeds_everything_and_becomes_current(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    chunks = corpus()
    result = build(store, embedder, "docs", chunks)
    assert (result.chunks, result.points, result.embedded, result.reused) == (18, 18, 18, 0)
    assert not result.unchanged
    info = store.current(model_spec(embedder))
    assert info is not None
    assert info.name == result.collection
    assert (info.points, info.dense_points, info.coverage) == (18, 18, 1.0)
    assert info.sites == ("docs",)
    assert info.points_of("docs") == 18
    assert store.backend.count(info.name) == 18


def test_rebuild_without_changes_is_a_noop(
    store: IndexStore, embedder: HashingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = build(store, embedder, "docs", corpus())
    embedder.embedded.clear()
    touched = _record_collection_work(store, monkeypatch)
    again = build(store, embedder, "docs", list(reversed(corpus())))
    assert again.unchanged
    assert again.collection == first.collection
    assert (again.embedded, again.reused) == (0, 18)
    assert embedder.embedded == []
    assert touched == []  # no point read, written, copied or counted: the cheap path
    assert store.backend.collections() == [first.collection]


COLLECTION_WORK = (
    "create", "derive", "delete", "upsert", "seal", "scroll", "dense_vectors", "count",
    "set_pointer", "drop",
)  # fmt: skip


def _record_collection_work(store: IndexStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the backend's per-collection operations called from now on."""
    touched: list[str] = []
    backend = store.backend
    for name in COLLECTION_WORK:
        real = getattr(backend, name)

        def spy(*args: object, _name: str = name, _real: object = real, **kw: object) -> object:
            touched.append(_name)
            return _real(*args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(backend, name, spy)
    return touched


def test_editing_one_paragraph_embeds_only_that_chunk(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    chunks = corpus()
    first = build(store, embedder, "docs", chunks)
    edited = list(chunks)
    edited[4] = replace(chunks[4], text="A rewritten paragraph about uvicorn workers.")
    embedder.embedded.clear()
    second = build(store, embedder, "docs", edited)
    assert second.collection != first.collection
    assert (second.embedded, second.reused) == (1, 17)
    assert embedder.embedded == [edited[4].embed_text]
    assert scrolled(store, second.collection)[edited[4].id].startswith("A rewritten")
    assert store.backend.collections() == [second.collection]  # superseded one dropped


def test_reused_vectors_are_identical_to_the_previous_ones(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    chunks = corpus()
    first = build(store, embedder, "docs", chunks)
    before = {p.id: p.dense for p in store.backend.scroll(first.collection, vectors=True)}
    second = build(store, embedder, "docs", chunks[:-1])
    after = {p.id: p.dense for p in store.backend.scroll(second.collection, vectors=True)}
    assert len(after) == 17
    for pid, vector in after.items():
        np.testing.assert_array_equal(vector, before[pid])


def test_removed_page_disappears(store: IndexStore, embedder: HashingEmbedder) -> None:
    chunks = corpus()
    build(store, embedder, "docs", chunks)
    gone = chunks[0].slug
    result = build(store, embedder, "docs", [c for c in chunks if c.slug != gone])
    assert result.chunks == 15
    assert result.embedded == 0
    slugs = {p.payload["slug"] for p in store.backend.scroll(result.collection, vectors=False)}
    assert gone not in slugs


def test_sites_share_the_store_and_stay_searchable(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    docs, guide = corpus("docs"), corpus("guide", pages=2, sections=2)
    build(store, embedder, "docs", docs)
    result = build(store, embedder, "guide", guide)
    assert (result.chunks, result.points) == (4, 22)
    info = store.current(model_spec(embedder))
    assert info is not None
    assert info.sites == ("docs", "guide")
    for site in ("docs", "guide"):
        found = store.query(
            info, dense=None, sparse=query_vector("install the package with pip"),
            filter=QueryFilter(site=site), limit=50,
        )  # fmt: skip
        assert found.hits
        assert {h.chunk.site for h in found.hits} == {site}
    # re-indexing docs with a page less keeps guide untouched
    edited = build(store, embedder, "docs", docs[3:])
    assert edited.points == 19
    assert scrolled(store, edited.collection).keys() >= {c.id for c in guide}


def test_indexing_a_site_with_no_chunks_removes_it(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    build(store, embedder, "docs", corpus())
    build(store, embedder, "guide", corpus("guide", 1, 2))
    result = build(store, embedder, "guide", [])
    assert (result.chunks, result.points) == (0, 18)
    info = store.current(model_spec(embedder))
    assert info is not None
    assert info.sites == ("docs",)


def test_keyword_only_collections_have_no_dense_vectors(store: IndexStore) -> None:
    result = build(store, None, "docs", corpus())
    assert result.collection.startswith("docs_none_")
    assert (result.embedded, result.reused) == (0, 0)
    info = store.current(KEYWORD_ONLY)
    assert info is not None
    assert (info.dimension, info.dense_points, info.coverage) == (None, 0, 0)
    assert all(p.dense is None for p in store.backend.scroll(info.name, vectors=True))


def test_switching_model_carries_every_site_and_retires_the_old_model(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    other = HashingEmbedder(dimension=32, model_id="test:other")
    build(store, embedder, "docs", corpus())
    build(store, embedder, "guide", corpus("guide", 1, 2))
    before = store.current(model_spec(embedder))
    assert before is not None
    # until the new model has a collection, the old one is the latest (keyword fallback)
    assert store.current(model_spec(other)) is None
    assert store.latest() == before
    switched = build(store, other, "docs", corpus())
    # guide's chunks come along from the old model's collection and are embedded too
    assert (switched.points, switched.embedded, switched.reused) == (20, 20, 0)
    after = store.current(model_spec(other))
    assert after is not None
    assert after.sites == ("docs", "guide")
    assert store.current(model_spec(embedder)) is None  # superseded: every site moved
    assert store.backend.collections() == [after.name]
    assert store.latest() == after


def test_batches_progress_and_interactive_hook(
    store: IndexStore, embedder: HashingEmbedder
) -> None:
    events: list[str] = []
    result = build(
        store, embedder, "docs", corpus(), batch_size=5,
        progress=lambda done, total: events.append(f"{done}/{total}"),
        between_batches=lambda: events.append("yield"),
    )  # fmt: skip
    assert result.embedded == 18
    assert events == ["0/18", "yield", "5/18", "yield", "10/18", "yield", "15/18", "yield", "18/18"]


class FailingEmbedder(HashingEmbedder):
    def __init__(self, fail_after: int, *, bad_shape: bool = False) -> None:
        super().__init__()
        self.fail_after = fail_after
        self.bad_shape = bad_shape

    def embed_documents(self, texts):  # type: ignore[no-untyped-def]
        if len(self.embedded) + len(texts) > self.fail_after:
            if self.bad_shape:
                return np.zeros((len(texts), 3), dtype=np.float32)
            raise EmbeddingError("embedding server went away")
        return super().embed_documents(texts)


@pytest.mark.parametrize("bad_shape", [False, True])
def test_failed_build_keeps_the_old_collection_and_leaves_nothing(
    store: IndexStore, bad_shape: bool
) -> None:
    embedder = FailingEmbedder(fail_after=1000, bad_shape=bad_shape)
    first = build(store, embedder, "docs", corpus())
    embedder.fail_after = len(embedder.embedded) + 5
    changed = [replace(c, text=c.text + " changed") for c in corpus()]
    with pytest.raises(EmbeddingError):
        build(store, embedder, "docs", changed, batch_size=4)
    info = store.current(model_spec(embedder))
    assert info is not None
    assert info.name == first.collection
    assert store.backend.collections() == [first.collection]


def test_chunks_of_another_site_are_refused(store: IndexStore, embedder: HashingEmbedder) -> None:
    with pytest.raises(ValueError, match="belongs to site guide"):
        build(store, embedder, "docs", corpus("guide"))


def test_repeated_chunk_ids_keep_the_first(store: IndexStore, embedder: HashingEmbedder) -> None:
    chunks = corpus()
    result = build(store, embedder, "docs", [*chunks, replace(chunks[0], text="dup")])
    assert result.chunks == 18
    assert scrolled(store, result.collection)[chunks[0].id] == chunks[0].text


def test_partial_collection_is_never_served_and_is_rebuilt(
    store: IndexStore, embedder: HashingEmbedder, index_root: Path
) -> None:
    first = build(store, embedder, "docs", corpus())
    edited = [replace(c, text=c.text + " v2") for c in corpus()]
    # simulate a crash mid-build: the new collection exists, no manifest, no pointer
    backend = store.backend
    target = build_name(store, embedder, edited)
    backend.create(target, embedder.dimension)
    assert store.manifest(target) is None
    info = store.current(model_spec(embedder))
    assert info is not None
    assert info.name == first.collection
    fresh = IndexStore(EdgeBackend(index_root))
    try:
        result = build(fresh, embedder, "docs", edited)
    finally:
        fresh.close()
    assert result.collection == target
    assert result.embedded == 18
    assert sorted(p.name for p in (index_root / "collections").iterdir()) == [target]


def build_name(store: IndexStore, embedder: HashingEmbedder, chunks: list) -> str:  # type: ignore[type-arg]
    from askdocs.index.naming import collection_name, corpus_hash, site_hash

    hashes = {"docs": site_hash(chunks)}
    return collection_name(model_spec(embedder), corpus_hash(hashes, "", "int8"))


def test_sealed_collection_without_pointer_is_adopted_without_embedding(
    store: IndexStore, embedder: HashingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = build(store, embedder, "docs", corpus())
    edited = [replace(c, text=c.text + " v2") for c in corpus()]

    def crash(model_key: str, name: str) -> None:
        raise KeyboardInterrupt  # the process dies after sealing, before the swap

    with monkeypatch.context() as patch:
        patch.setattr(store.backend, "set_pointer", crash)
        with pytest.raises(KeyboardInterrupt):
            build(store, embedder, "docs", edited)
    target = build_name(store, embedder, edited)
    assert store.manifest(target) is not None  # sealed
    current = store.current(model_spec(embedder))
    assert current is not None
    assert current.name == first.collection
    embedder.embedded.clear()
    resumed = build(store, embedder, "docs", edited)
    assert (resumed.collection, resumed.embedded, resumed.unchanged) == (target, 0, False)
    assert embedder.embedded == []
    assert store.backend.collections() == [target]


def test_read_only_store_refuses_to_build(index_root: Path, embedder: HashingEmbedder) -> None:
    ro = IndexStore(EdgeBackend(index_root), read_only=True)
    with pytest.raises(VectorStoreError, match="read-only"):
        build(ro, embedder, "docs", corpus())
    ro.close()


def test_embedder_dimension_must_match(store: IndexStore) -> None:
    class Short(HashingEmbedder):
        def embed_documents(self, texts) -> Vectors:  # type: ignore[no-untyped-def]
            return super().embed_documents(texts)[:, :10]

    with pytest.raises(EmbeddingError, match="shape"):
        build(store, Short(), "docs", corpus())


def chunk_ids(chunks: list) -> set[str]:  # type: ignore[type-arg]
    return {c.id for c in chunks}


def test_helper_chunk_is_valid() -> None:
    c = chunk("docs", "a", "B c", "text")
    assert c.id == "a:en#b-c:0"


def snapshot(store: IndexStore, name: str) -> dict[str, tuple[object, ...]]:
    points = store.backend.scroll(name, vectors=True)
    return {
        p.id: (
            {k: v for k, v in p.payload.items() if k != "run"},
            p.sparse,
            None if p.dense is None else tuple(np.round(p.dense, 6)),
        )
        for p in points
    }


def test_incremental_builds_equal_a_fresh_build(
    store: IndexStore, embedder: HashingEmbedder, tmp_path: Path
) -> None:
    docs, guide = corpus(), corpus("guide", pages=2, sections=2)
    build(store, embedder, "docs", docs)
    build(store, embedder, "guide", guide)
    docs[1] = replace(docs[1], text="changed words")  # an edit
    docs[2] = replace(docs[2], url="/moved")  # payload only (a heading trail is embedded)
    docs = [c for c in docs if c.slug != docs[-1].slug]  # a removed page
    docs.append(chunk("docs", "new-page", "Brand new", "A page that did not exist."))
    embedder.embedded.clear()
    incremental = build(store, embedder, "docs", docs)
    assert incremental.embedded == 2  # the edit and the new page; the move reuses its vector
    assert len(embedder.embedded) == 2
    fresh_store = IndexStore(EdgeBackend(tmp_path / "fresh" / "index"))
    build(fresh_store, HashingEmbedder(), "docs", docs)
    fresh = build(fresh_store, HashingEmbedder(), "guide", guide)
    assert fresh.collection == incremental.collection
    assert snapshot(fresh_store, fresh.collection) == snapshot(store, incremental.collection)
    fresh_store.close()
