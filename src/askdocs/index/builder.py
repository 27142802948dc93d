"""The incremental index builder: one site's chunks in, a new complete collection out.

A build never touches the collection searches read. Holding the store's build lock, it
writes a NEW collection with the other sites' current points (vectors copied) plus this
site's chunks, reusing every dense vector whose ``embed_hash`` is unchanged; verifies the
exact point count; seals it (flush + manifest); moves the model's pointer to it
atomically; then drops what it superseded and any partial collection a crash left.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from askdocs.embeddings.protocol import Embedder
from askdocs.errors import EmbeddingError, VectorStoreError
from askdocs.index.backend import FloatArray, Manifest, PointRecord
from askdocs.index.naming import (
    KEYWORD_ONLY,
    ModelSpec,
    collection_name,
    corpus_hash,
    point_id,
    site_hash,
)
from askdocs.index.payload import chunk_payload
from askdocs.index.plan import Item, plan_changes, plan_points, unique_chunks
from askdocs.index.resume import ResumeCache, resume_cache
from askdocs.index.store import IndexStore
from askdocs.index.types import BuildResult, SparseVector
from askdocs.types import Chunk

log = logging.getLogger(__name__)
UPSERT_BATCH = 256
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class _Job:
    store: IndexStore
    embedder: Embedder | None
    model: ModelSpec
    name: str
    hashes: dict[str, str]
    lexical_version: str
    sparse: Callable[[Chunk], SparseVector]
    progress: Progress | None
    between_batches: Callable[[], None] | None
    batch_size: int
    resume: ResumeCache | None


def model_spec(embedder: Embedder | None) -> ModelSpec:
    """The model a collection is built for: the embedder's id and dimension, or ``none``."""
    return KEYWORD_ONLY if embedder is None else ModelSpec(embedder.model_id, embedder.dimension)


def build_index(
    store: IndexStore,
    embedder: Embedder | None,
    site: str,
    chunks: Sequence[Chunk],
    *,
    sparse: Callable[[Chunk], SparseVector],
    lexical_version: str = "",
    progress: Progress | None = None,
    between_batches: Callable[[], None] | None = None,
    batch_size: int = 32,
) -> BuildResult:
    """Make ``site``'s ``chunks`` current in ``store`` for ``embedder``'s model.

    Idempotent: when the current collection already holds exactly these chunks it returns
    at once with ``unchanged=True``. Empty ``chunks`` removes the site. ``sparse`` makes a
    chunk's BM25 vector and ``lexical_version`` names that analysis (a change rebuilds).
    ``between_batches`` runs before each embedding batch (the interactive-priority hook);
    ``progress(done, total)`` after each. Waits while another build of the store runs.
    """
    started = time.monotonic()
    if store.read_only:
        raise VectorStoreError("the index store was opened read-only")
    model = model_spec(embedder)
    own, repeated = unique_chunks(site, chunks)
    if repeated:
        log.warning("site %s repeats chunk ids %s; the first of each is kept", site, repeated)
    with store.backend.build_lock():
        current = _current(store, model)
        source = current or _latest(store)
        hashes = {s: h for s, h in (source.site_hashes if source else {}).items() if s != site}
        if own:
            hashes[site] = site_hash(own)
        storage = store.backend.quantization
        name = collection_name(model, corpus_hash(hashes, lexical_version, storage))
        store.sweep(keep={name})  # partial and superseded collections a crash left behind
        if current is not None and current.name == name:
            return _result(current, site, started, 0, _reused(current, site, embedder), True)
        resume = resume_cache(store.resume_dir, model.key, model.dimension)
        job = _Job(
            store, embedder, model, name, hashes, lexical_version, sparse,
            progress, between_batches, batch_size, resume,
        )  # fmt: skip
        sealed = store.manifest(name)  # complete, but a crash came before the pointer moved
        if sealed is not None:
            manifest, embedded, reused = sealed, 0, _reused(sealed, site, embedder)
        else:
            manifest, embedded, reused = _write(job, site, own, source, current)
        store.backend.set_pointer(model.key, name)
        if resume is not None:
            resume.clear()  # every vector it kept is in the current collection now
        for other in set(store.backend.pointers()) - {model.key}:
            store.backend.drop_pointer(other)  # superseded: this collection has every site
        store.sweep()
    return _result(manifest, site, started, embedded, reused, False)


def _current(store: IndexStore, model: ModelSpec) -> Manifest | None:
    name = store.backend.pointers().get(model.key)
    return store.manifest(name) if name else None


def _latest(store: IndexStore) -> Manifest | None:
    manifests = [m for n in store.backend.pointers().values() if (m := store.manifest(n))]
    return max(manifests, key=lambda m: m.created, default=None)


def _reused(manifest: Manifest, site: str, embedder: Embedder | None) -> int:
    return manifest.site_points.get(site, 0) if embedder is not None else 0


@dataclass(frozen=True)
class _Target:
    """What to write: ``items`` on top of a copy of ``base`` (or of nothing), minus
    ``delete``; the finished collection must hold exactly ``total`` points."""

    base: str | None
    items: list[Item]
    delete: tuple[str, ...]
    total: int
    reused: int  # this site's chunks whose dense vector was reused


def _write(
    job: _Job, site: str, own: list[Chunk], source: Manifest | None, current: Manifest | None
) -> tuple[Manifest, int, int]:
    """Build collection ``job.name`` in full and seal it; on any failure remove it.
    Returns the manifest, the chunks embedded and this site's reused vectors."""
    backend = job.store.backend
    derive = (
        backend.can_derive
        and current is not None
        and current.lexical_version == job.lexical_version
    )
    target = _derived(job, site, own, current) if derive and current else (
        _fresh(job, site, own, source, current)
    )  # fmt: skip
    run = uuid.uuid4().hex
    if target.base is not None:
        backend.derive(target.base, job.name, job.model.dimension)
    else:
        backend.create(job.name, job.model.dimension)
    try:
        if target.delete:
            backend.delete(job.name, target.delete)
        embedded, resumed = _fill(job, target.items, run)
        manifest = _verify(job, target.total, _site_points(source, job, site, own), run)
        backend.seal(job.name, manifest)
    except BaseException:
        backend.drop(job.name)  # the embedded vectors stay in the resume file
        raise
    return manifest, embedded, target.reused + resumed if job.embedder is not None else 0


def _derived(job: _Job, site: str, own: list[Chunk], current: Manifest) -> _Target:
    """Same model and lexical analysis: copy the current collection and apply the diff."""
    backend = job.store.backend
    previous = list(backend.scroll(current.name, vectors=False))
    changes = plan_changes(site, own, previous, keep_sites=job.hashes)
    needed = {c.embed_hash for c in changes.upsert}
    sources = {h: pid for h, pid in changes.vector_of.items() if h in needed}
    vectors = backend.dense_vectors(current.name, sorted(set(sources.values()))) if (
        job.embedder is not None and sources
    ) else {}  # fmt: skip
    items = [
        Item(point_id(c.site, c.id), c, job.sparse(c), vectors.get(sources.get(c.embed_hash, "")))
        for c in changes.upsert
    ]
    missing = sum(1 for item in items if item.dense is None)
    total = changes.kept + len(items)
    return _Target(current.name, items, changes.delete, total, len(own) - missing)


def _fresh(
    job: _Job, site: str, own: list[Chunk], source: Manifest | None, current: Manifest | None
) -> _Target:
    """Write every point into an empty collection, reusing what the source allows."""
    previous = list(job.store.backend.scroll(source.name, vectors=True)) if source else []
    plan = plan_points(
        site,
        own,
        previous,
        keep_sites=job.hashes,
        reuse_dense=job.embedder is not None and current is not None and source is current,
        reuse_sparse=source is not None and source.lexical_version == job.lexical_version,
        sparse=job.sparse,
    )
    return _Target(None, list(plan.items), (), len(plan.items), plan.reused)


def _site_points(source: Manifest | None, job: _Job, site: str, own: list[Chunk]) -> dict[str, int]:
    counts = {s: n for s, n in (source.site_points if source else {}).items() if s in job.hashes}
    counts.pop(site, None)
    if own:
        counts[site] = len(own)
    return counts


def _fill(job: _Job, items: list[Item], run: str) -> tuple[int, int]:
    """Write the points: first those whose vectors are known (from the source collection
    or an earlier, unfinished build), then embed the rest in batches, keeping each batch
    in the resume file before it is written. ``progress(done, total)`` counts the resumed
    chunks as done. Returns (chunks embedded, chunks resumed)."""
    needs_dense = job.embedder is not None
    ready = [item for item in items if item.dense is not None or not needs_dense]
    pending = [item for item in items if needs_dense and item.dense is None]
    resumed = _resumed(job, pending)
    ready += resumed
    done_ids = {item.id for item in resumed}
    pending = by_length([item for item in pending if item.id not in done_ids], job.embedder)
    for batch in _batches(ready, UPSERT_BATCH):
        job.store.backend.upsert(job.name, [_record(item, run) for item in batch])
    done = kept = len(resumed)  # progress counts what an earlier build already embedded
    total = kept + len(pending)
    if job.progress is not None and pending:
        job.progress(done, total)
    for batch in _batches(pending, job.batch_size):
        if job.between_batches is not None:
            job.between_batches()
        vectors = _embed(job, batch)
        filled = [replace(item, dense=vector) for item, vector in zip(batch, vectors, strict=True)]
        if job.resume is not None:
            job.resume.put(
                {item.chunk.embed_hash: item.dense for item in filled if item.dense is not None}
            )
        job.store.backend.upsert(job.name, [_record(item, run) for item in filled])
        done += len(batch)
        if job.progress is not None:
            job.progress(done, total)
    return done - kept, kept


def _resumed(job: _Job, pending: list[Item]) -> list[Item]:
    """The pending items whose vectors an earlier, unfinished build already embedded."""
    if job.resume is None or not pending:
        return []
    kept = job.resume.get(item.chunk.embed_hash for item in pending)
    found = [
        replace(i, dense=kept[i.chunk.embed_hash]) for i in pending if i.chunk.embed_hash in kept
    ]
    if found:
        log.info(
            "resuming: %d of %d chunks were embedded by an unfinished build",
            len(found),
            len(pending),
        )
    return found


def by_length(items: list[Item], embedder: Embedder | None) -> list[Item]:
    """Items sorted by the length of their embed text in the model's tokens (in characters
    when the embedder cannot count tokens), so each embedding batch holds texts of about
    one length and pads little: in arbitrary order 20% of the tokens encoded were padding.
    Each item keeps its own id, so the order of writing does not matter."""
    texts = [item.chunk.embed_text for item in items]
    count = getattr(embedder, "token_lengths", None)
    lengths = list(count(texts)) if callable(count) else [len(text) for text in texts]
    order = sorted(range(len(items)), key=lengths.__getitem__)
    return [items[i] for i in order]


def _embed(job: _Job, batch: list[Item]) -> FloatArray:
    embedder = job.embedder
    if embedder is None:  # _fill only embeds when there is an embedder
        raise EmbeddingError("no embedding provider is configured")
    vectors = np.asarray(embedder.embed_documents([item.chunk.embed_text for item in batch]))
    expected = (len(batch), embedder.dimension)
    if vectors.shape != expected or not bool(np.all(np.isfinite(vectors))):
        raise EmbeddingError(
            f"embedder {embedder.model_id} returned vectors of shape {vectors.shape}; "
            f"expected {expected}, all finite"
        )
    return vectors.astype(np.float32, copy=False)


def _record(item: Item, run: str) -> PointRecord:
    return PointRecord(item.id, chunk_payload(item.chunk, run), item.sparse, item.dense)


def _batches(items: list[Item], size: int) -> Iterator[list[Item]]:
    step = max(1, size)
    for start in range(0, len(items), step):
        yield items[start : start + step]


def _verify(job: _Job, total: int, site_points: dict[str, int], run: str) -> Manifest:
    """Count the written points exactly; a mismatch means the collection is unusable."""
    backend = job.store.backend
    expected_dense = total if job.model.dimension else 0
    points = backend.count(job.name)
    dense_points = backend.count(job.name, dense_only=True) if job.model.dimension else 0
    if points != total or dense_points != expected_dense or sum(site_points.values()) != total:
        raise VectorStoreError(
            f"collection {job.name} holds {points} points ({dense_points} with a dense "
            f"vector); expected {total} ({expected_dense})"
        )
    return Manifest(
        name=job.name,
        model_id=job.model.model_id,
        dimension=job.model.dimension,
        points=points,
        dense_points=dense_points,
        lexical_version=job.lexical_version,
        site_hashes=job.hashes,
        site_points=site_points,
        run=run,
        created=time.time(),
    )


def _result(
    manifest: Manifest, site: str, started: float, embedded: int, reused: int, unchanged: bool
) -> BuildResult:
    return BuildResult(
        collection=manifest.name,
        site=site,
        chunks=manifest.site_points.get(site, 0),
        points=manifest.points,
        embedded=embedded,
        reused=reused,
        seconds=time.monotonic() - started,
        unchanged=unchanged,
    )
