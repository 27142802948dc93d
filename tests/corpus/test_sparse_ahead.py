"""Work on two cores (``ParsePool.map``) and BM25 vectors computed ahead
(``AskDocs.read_ahead``): the worker takes batches from the front while the calling
thread, whenever it is free, takes them from the back; the values equal one in-process
call per item, in order, whoever computed them, and a worker that cannot help leaves the
rest to the caller. The build after ``read_ahead`` stores the same collection and encodes
nothing itself."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from askdocs.corpus.parse_pool import MAP_BATCH, MapJob, ParsePool
from askdocs.search import lexical
from askdocs.search.lexical import document_terms, document_vector
from askdocs.service import AskDocs
from askdocs.settings import load_settings
from askdocs.sites import folder_site
from askdocs.types import Chunk, SparseVector

DATA = Path(__file__).resolve().parents[1] / "data"
TREES = [DATA / name for name in ("fastapi-docs", "frigate-docs", "httpx-docs")]
TREE = DATA / "httpx-docs"


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    found: list[Chunk] = []
    for tree in TREES:
        service = AskDocs(load_settings(embedding={"provider": "none"}), [folder_site(tree)])
        try:
            found += service.snapshot().chunks
        finally:
            service.close()
    assert len(found) > 3 * MAP_BATCH  # several batches, so both ends take some
    return found


@pytest.fixture
def parser() -> Iterator[ParsePool]:
    pool = ParsePool(30.0)
    yield pool
    pool.close()


def worker_batches(pool: ParsePool, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records the size of each batch the (real) worker computed."""
    done: list[int] = []
    in_worker = pool._map_in_worker

    def recording(job: MapJob) -> list[object] | None:
        values = in_worker(job)
        if values is not None:
            done.append(len(values))
        return values

    monkeypatch.setattr(pool, "_map_in_worker", recording)
    return done


def expected(chunks: list[Chunk]) -> list[SparseVector]:
    return [document_vector(chunk) for chunk in chunks]


def test_a_free_caller_and_the_worker_share_the_batches(
    parser: ParsePool, chunks: list[Chunk], monkeypatch: pytest.MonkeyPatch
) -> None:
    done = worker_batches(parser, monkeypatch)
    assert parser.map(document_vector, chunks) == expected(chunks)
    assert 0 < sum(done) < len(chunks)  # the worker computed some, this thread the others


def test_a_busy_caller_leaves_every_batch_to_the_worker(
    parser: ParsePool, chunks: list[Chunk], monkeypatch: pytest.MonkeyPatch
) -> None:
    done = worker_batches(parser, monkeypatch)
    assert parser.map(document_vector, chunks, here=False) == expected(chunks)
    assert sum(done) == len(chunks)


def test_a_caller_busy_at_first_joins_in_once_free(
    parser: ParsePool, chunks: list[Chunk], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``here`` is asked again while the worker works: the second answer frees the caller."""
    many = chunks * 4  # about a second of the worker's work; the caller frees in ~50 ms
    answers = itertools.chain([False], itertools.repeat(True))
    done = worker_batches(parser, monkeypatch)
    assert parser.map(document_vector, many, here=lambda: next(answers)) == expected(many)
    assert 0 < sum(done) < len(many)


def test_a_worker_that_times_out_leaves_the_rest_to_the_caller(chunks: list[Chunk]) -> None:
    pool = ParsePool(1e-6)
    try:
        assert pool.map(document_vector, chunks, here=False) == expected(chunks)
    finally:
        pool.close()


def test_a_function_that_does_not_pickle_is_run_here(parser: ParsePool) -> None:
    assert parser.map(lambda n: n + 1, list(range(300)), here=False) == list(range(1, 301))


def test_a_function_that_fails_in_the_worker_is_run_here(parser: ParsePool) -> None:
    """The worker answers "invalid" for the batch; the caller's own call then decides."""
    assert parser.map(int, ["1", "2"], here=False) == [1, 2]
    with pytest.raises(ValueError, match="invalid literal"):
        parser.map(int, ["1", "x"], here=False)


def stored_sparse(service: AskDocs) -> dict[str, Any]:
    name = service.status(service.sites[0].id).collection
    assert name is not None
    return {point.id: point.sparse for point in service.store.backend.scroll(name, vectors=True)}


def test_the_build_after_read_ahead_stores_the_same_vectors_and_encodes_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def service(name: str) -> AskDocs:
        settings = load_settings(data_dir=tmp_path / name, embedding={"provider": "none"})
        return AskDocs(settings, [folder_site(TREE)])

    plain, ahead = service("plain"), service("ahead")
    try:
        plain.index()
        ahead.read_ahead(busy=lambda: True)  # the worker computes every vector
        encoded: list[str] = []

        def recording(chunk: Any, *args: Any) -> Any:
            encoded.append(chunk.id)  # document_vector's first step
            return document_terms(chunk, *args)

        monkeypatch.setattr(lexical, "document_terms", recording)
        ahead.index()
        assert encoded == []
        assert stored_sparse(ahead) == stored_sparse(plain)
        ahead.index()  # read_ahead's vectors serve one build: nothing left to leak
        assert ahead._sparse_ahead == {}
    finally:
        plain.close()
        ahead.close()
