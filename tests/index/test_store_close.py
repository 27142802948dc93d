"""Closing a store ends its background work (issue #27, defect 12).

``askdocs search`` aborted at exit (status -6, glibc's "FATAL: exception not rethrown")
after printing its hits: the search had started the background read of the collection's
term ids, ``AskDocs.close()`` closed the store, and the read went on, reopening the
closed store's shard. A Qdrant Edge call (the shard load, a scroll) that returned while
the interpreter was finalising ended its daemon thread with a forced unwind through the
engine's Rust frames, which abort on it. See docs/indexing.md "Closing the store".
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from askdocs.index import IndexStore, build_index, model_spec
from askdocs.index.backend import CollectionGone
from askdocs.index.edge import EdgeBackend
from askdocs.index.types import QueryFilter
from askdocs.search.lexical import document_vector, query_vector
from tests.index.helpers import HashingEmbedder, chunk

POINTS = 3000  # about a dozen pages of the term-id read: still reading when close comes


def _many(count: int) -> list:  # type: ignore[type-arg]
    return [
        chunk("docs", f"page-{n}", f"Part {n}", f"Words w{n} w{n * 7 % 997} and term{n % 50}.")
        for n in range(count)
    ]


def _term_reads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "askdocs-term-ids" and t.is_alive()]


def test_search_does_not_abort_at_exit_after_a_killed_index(index_root: Path) -> None:
    """After ``close()`` no term-id read runs and nothing reopens the store's shards: no
    engine call can be under way when the interpreter exits."""
    store = IndexStore(EdgeBackend(index_root))
    build_index(store, HashingEmbedder(), "docs", _many(POINTS), sparse=document_vector)
    info = store.current(model_spec(HashingEmbedder()))
    assert info is not None
    store.mentioned(info, [query_vector("term7")], QueryFilter(site="docs"))  # starts the read
    assert _term_reads()  # the read is under way
    store.close()
    assert _term_reads() == []
    backend = store.backend
    assert isinstance(backend, EdgeBackend)
    assert backend._handles == {}  # nothing reopened a shard after the close
    with pytest.raises(CollectionGone):
        backend.term_ids(info.name, QueryFilter(site="docs"))


def test_a_closed_store_starts_no_term_read(index_root: Path) -> None:
    store = IndexStore(EdgeBackend(index_root))
    build_index(store, HashingEmbedder(), "docs", _many(10), sparse=document_vector)
    info = store.current(model_spec(HashingEmbedder()))
    assert info is not None
    store.close()
    assert store._terms.get(info.name, QueryFilter(site="docs")) is None
    assert _term_reads() == []
