"""Which points a new collection holds and which vectors it reuses (pure)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from askdocs.index.backend import StoredPoint
from askdocs.index.naming import point_id
from askdocs.index.payload import chunk_payload
from askdocs.index.plan import plan_changes, plan_points, unique_chunks
from askdocs.index.types import SparseVector
from askdocs.types import Chunk
from tests.index.helpers import corpus

OLD_SPARSE = SparseVector((1,), (9.0,))


def fresh_sparse(chunk: Chunk) -> SparseVector:
    return SparseVector((2,), (1.0,))


def stored(chunks: list[Chunk]) -> list[StoredPoint]:
    return [
        StoredPoint(
            point_id(c.site, c.id),
            chunk_payload(c, "r0"),
            OLD_SPARSE,
            np.full(4, i, dtype=np.float32),
        )
        for i, c in enumerate(chunks)
    ]


def test_unchanged_chunks_reuse_both_vectors() -> None:
    docs = corpus(pages=2, sections=2)
    plan = plan_points(
        "docs", docs, stored(docs), keep_sites={"docs": ""},
        reuse_dense=True, reuse_sparse=True, sparse=fresh_sparse,
    )  # fmt: skip
    assert plan.reused == 4
    assert all(item.sparse == OLD_SPARSE and item.dense is not None for item in plan.items)


def test_an_edit_recomputes_only_that_chunk() -> None:
    docs = corpus(pages=2, sections=2)
    edited = [replace(docs[0], text="new"), *docs[1:]]
    plan = plan_points(
        "docs", edited, stored(docs), keep_sites={"docs": ""},
        reuse_dense=True, reuse_sparse=True, sparse=fresh_sparse,
    )  # fmt: skip
    assert plan.reused == 3
    assert plan.items[0].dense is None
    assert plan.items[0].sparse == fresh_sparse(docs[0])


def test_a_payload_only_change_keeps_the_dense_vector_but_not_the_sparse_one() -> None:
    docs = corpus(pages=1, sections=1)
    # the title joining the trail leaves the embedded heading path as it was
    moved = [replace(docs[0], url="/elsewhere", heading_trail=(docs[0].title, docs[0].heading))]
    plan = plan_points(
        "docs", moved, stored(docs), keep_sites={"docs": ""},
        reuse_dense=True, reuse_sparse=True, sparse=fresh_sparse,
    )  # fmt: skip
    assert plan.items[0].dense is not None
    assert plan.items[0].sparse == fresh_sparse(moved[0])


def test_other_model_or_other_lexical_version_reuses_nothing() -> None:
    docs = corpus(pages=1, sections=2)
    plan = plan_points(
        "docs", docs, stored(docs), keep_sites={"docs": ""},
        reuse_dense=False, reuse_sparse=False, sparse=fresh_sparse,
    )  # fmt: skip
    assert plan.reused == 0
    assert all(i.dense is None and i.sparse == fresh_sparse(i.chunk) for i in plan.items)


def test_other_sites_are_carried_over_only_while_they_are_indexed() -> None:
    docs, guide = corpus(pages=1, sections=2), corpus("guide", pages=1, sections=1)
    previous = stored(docs + guide)
    kept = plan_points(
        "docs", docs, previous, keep_sites={"docs": "", "guide": ""},
        reuse_dense=True, reuse_sparse=True, sparse=fresh_sparse,
    )  # fmt: skip
    assert [i.chunk.site for i in kept.items] == ["guide", "docs", "docs"]
    assert kept.reused == 2  # carried-over points are not this site's reuse
    dropped = plan_points(
        "docs", docs, previous, keep_sites={"docs": ""},
        reuse_dense=True, reuse_sparse=True, sparse=fresh_sparse,
    )  # fmt: skip
    assert {i.chunk.site for i in dropped.items} == {"docs"}


def test_unique_chunks_keeps_the_first_of_each_id() -> None:
    docs = corpus(pages=1, sections=2)
    unique, repeated = unique_chunks("docs", [*docs, replace(docs[1], text="other")])
    assert unique == docs
    assert repeated == [docs[1].id]


def test_changes_list_only_what_differs() -> None:
    docs, guide, gone = corpus(pages=2, sections=2), corpus("guide", 1, 1), corpus("old", 1, 1)
    previous = stored(docs + guide + gone)
    edited = [replace(docs[0], text="new"), *docs[1:3], corpus(pages=3, sections=2)[4]]
    changes = plan_changes("docs", edited, previous, keep_sites={"docs": "", "guide": ""})
    assert [c.id for c in changes.upsert] == [edited[0].id, edited[3].id]
    removed = {point_id("docs", docs[3].id), point_id("old", gone[0].id)}
    assert set(changes.delete) == removed
    assert changes.kept == 1 + 2  # guide's point and the two unchanged docs chunks
    assert changes.vector_of[docs[1].embed_hash] == point_id("docs", docs[1].id)


def test_no_changes_means_nothing_to_do() -> None:
    docs = corpus(pages=1, sections=3)
    changes = plan_changes("docs", docs, stored(docs), keep_sites={"docs": ""})
    assert (changes.upsert, changes.delete, changes.kept) == ((), (), 3)
