"""``IndexStore``: the one facade over both vector stores that search and the builder use.

Searches read the collection a model's pointer names (always a complete one); they never
take the build lock, so they never wait for an indexer.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from askdocs.embeddings.heap import trim_heap
from askdocs.errors import VectorStoreError
from askdocs.index.backend import Backend, CollectionGone, Manifest, QuerySpec, RawHit, TermIds
from askdocs.index.edge import EdgeBackend
from askdocs.index.naming import ModelSpec, point_id
from askdocs.index.payload import chunk_from_payload
from askdocs.index.shared import Coordination
from askdocs.index.types import (
    CollectionInfo,
    HybridParams,
    QueryFilter,
    QueryResult,
    ScoredChunk,
    SparseVector,
)
from askdocs.settings import Settings

log = logging.getLogger(__name__)
TERMS_RETRY_SECONDS = 60.0  # after a failed read of a collection's term ids
CLOSE_JOIN_SECONDS = 30.0  # how long ``close`` waits for a term-id read to see the close


class IndexStore:
    """Collections of one store (Qdrant Edge on disk, or a Qdrant server)."""

    def __init__(
        self, backend: Backend, *, read_only: bool = False, resume_dir: Path | None = None
    ) -> None:
        self.backend = backend
        self.read_only = read_only
        self.resume_dir = resume_dir  # where builds keep embedded vectors until current
        self._manifests: dict[str, Manifest] = {}
        self._seen: dict[str, str] = {}
        self._lock = threading.Lock()
        self._terms = TermSets(backend)

    def current(self, model: ModelSpec) -> CollectionInfo | None:
        """The last complete collection built for ``model``; None before the first build."""
        pointers = self.backend.pointers()
        self._notice(pointers)
        name = pointers.get(model.key)
        manifest = self._manifest(name) if name else None
        return _info(manifest) if manifest else None

    def latest(self) -> CollectionInfo | None:
        """The most recently built complete collection of any model (a keyword-only
        fallback while the configured model has none yet)."""
        manifests = [m for n in self.backend.pointers().values() if (m := self._manifest(n))]
        newest = max(manifests, key=lambda m: m.created, default=None)
        return _info(newest) if newest else None

    def query(
        self,
        collection: CollectionInfo,
        *,
        dense: npt.NDArray[np.float32] | None,
        sparse: SparseVector | None,
        filter: QueryFilter,
        limit: int,
        params: HybridParams | None = None,
    ) -> QueryResult:
        """Hybrid query: dense and lexical prefetch fused by weighted RRF in the engine.

        ``dense`` is ignored for a keyword-only collection; an empty ``sparse`` is skipped.
        If the collection was replaced meanwhile, the model's new current one answers.
        """
        query_vector = _normalised(dense, collection) if collection.dimension else None
        spec = QuerySpec(query_vector, sparse or None, filter, limit, params or HybridParams())
        if spec.dense is None and spec.sparse is None:
            return QueryResult(collection.name, (), None, "keyword")
        try:
            raw = self.backend.query(collection.name, spec)
        except CollectionGone:
            model = ModelSpec(collection.model_id, collection.dimension)
            replacement = self.current(model)
            if replacement is None or replacement.name == collection.name:
                raise
            collection = replacement
            raw = self.backend.query(collection.name, spec)
        hits = tuple(_scored(hit) for hit in raw.hits)
        return QueryResult(collection.name, hits, raw.best_dense, _mode(spec))

    def with_cosines(
        self,
        collection: CollectionInfo,
        hits: Sequence[ScoredChunk],
        dense: npt.NDArray[np.float32],
    ) -> tuple[ScoredChunk, ...]:
        """``hits`` with ``dense_score`` filled in where it is None, from their stored
        vectors (a hit outside the dense side's best ``prefetch`` has no score from the
        query; this fetches the few vectors a decision needs)."""
        query = _normalised(dense, collection)
        missing = [point_id(h.chunk.site, h.chunk.id) for h in hits if h.dense_score is None]
        if query is None or not missing:
            return tuple(hits)
        vectors = self.backend.dense_vectors(collection.name, missing)
        return tuple(_with_cosine(hit, vectors, query) for hit in hits)

    def mentioned(
        self, collection: CollectionInfo, terms: Sequence[SparseVector], filter: QueryFilter
    ) -> list[bool]:
        """For each one-term ``terms`` vector: whether any chunk under ``filter`` holds it.

        First each term's best chunk in the whole collection (no filter, so the engine
        reads only the term's postings: a tenth of a filtered look-up at 100k chunks). A
        term no chunk holds is unknown, one whose best chunk passes ``filter`` is known;
        only the others are asked again under ``filter``. Each step is one engine call.
        Once the term ids under ``filter`` have been read (``TermSets``, in the background
        after the first call), the answer comes from them and the engine is not asked."""
        if not terms:
            return []
        known = self._terms.get(collection.name, filter)
        if known is not None:
            return [holds_any(known, term) for term in terms]
        wide = [
            QuerySpec(None, t, QueryFilter(), 1, HybridParams(), QueryFilter.FIELDS) for t in terms
        ]
        best = self.backend.query_batch(collection.name, wide)
        found = [bool(raw.hits) and filter.admits(raw.hits[0].payload) for raw in best]
        again = [i for i, raw in enumerate(best) if raw.hits and not found[i]]
        if again:
            specs = [QuerySpec(None, terms[i], filter, 1, HybridParams(), False) for i in again]
            for i, raw in zip(again, self.backend.query_batch(collection.name, specs), strict=True):
                found[i] = bool(raw.hits)
        return found

    def manifest(self, name: str) -> Manifest | None:
        return self._manifest(name)

    def sweep(self, keep: Iterable[str] = ()) -> list[str]:
        """Drop every collection no pointer names (superseded or partial) except ``keep``.
        The caller holds the build lock. Returns what was dropped; a collection a reader
        elsewhere still has open stays until a later sweep."""
        kept = set(self.backend.pointers().values()) | set(keep)
        return [n for n in self.backend.collections() if n not in kept and self._drop(n)]

    def _drop(self, name: str) -> bool:
        with self._lock:
            self._manifests.pop(name, None)
        return self.backend.drop(name)

    def _manifest(self, name: str) -> Manifest | None:
        with self._lock:
            cached = self._manifests.get(name)
        if cached is not None:
            return cached
        manifest = self.backend.manifest(name)
        if manifest is not None:
            with self._lock:
                self._manifests[name] = manifest
        return manifest

    def _notice(self, pointers: dict[str, str]) -> None:
        """When a pointer moved, let go of the collections it superseded and, unless a
        build is running (it sweeps itself), remove them."""
        with self._lock:
            superseded = set(self._seen.values()) - set(pointers.values())
            self._seen = dict(pointers)
        if not superseded:
            return
        self._terms.forget(set(pointers.values()))
        self.backend.release(set(pointers.values()))
        if self.read_only:
            return
        with self.backend.try_build_lock() as acquired:
            if acquired:
                for name in superseded - set(self.backend.pointers().values()):
                    self._drop(name)

    def close(self) -> None:
        """Close the backend, then wait for the term-id reads to end: they fail at their
        next engine call. No engine call may still run when the interpreter exits (a
        Qdrant Edge call returning during finalisation aborts the process)."""
        self._terms.stop()
        self.backend.close()
        self._terms.join(CLOSE_JOIN_SECONDS)


class TermSets:
    """Per collection and filter: every term id the points under the filter hold, read
    once on a background thread (a complete collection never changes); None until read.
    Sorted ``uint32`` arrays: fastapi-docs's vocabulary is some 60 KB."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._ready: dict[tuple[str, QueryFilter], TermIds] = {}
        self._reading: set[tuple[str, QueryFilter]] = set()
        self._failed: dict[tuple[str, QueryFilter], float] = {}
        self._threads: list[threading.Thread] = []
        self._stopped = False
        self._lock = threading.Lock()

    def get(self, name: str, filter: QueryFilter) -> TermIds | None:
        key = (name, filter)
        with self._lock:
            found = self._ready.get(key)
            if found is not None or key in self._reading or self._stopped:
                return found
            if time.monotonic() - self._failed.get(key, -TERMS_RETRY_SECONDS) < TERMS_RETRY_SECONDS:
                return None
            self._reading.add(key)
            thread = threading.Thread(
                target=self._read, args=(key,), name="askdocs-term-ids", daemon=True
            )
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()
        return None

    def stop(self) -> None:
        """Start no more reads (the store is closing)."""
        with self._lock:
            self._stopped = True

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds in all for the reads under way to end."""
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def forget(self, keep: set[str]) -> None:
        """Let go of the term ids of collections not in ``keep``."""
        with self._lock:
            self._ready = {key: ids for key, ids in self._ready.items() if key[0] in keep}
            self._failed = {key: at for key, at in self._failed.items() if key[0] in keep}

    def _read(self, key: tuple[str, QueryFilter]) -> None:
        try:
            ids = self._backend.term_ids(*key)
        except Exception as exc:  # the probes keep answering; retried after a while
            log.info("term ids of %s not read (%s); probing the engine meanwhile", key[0], exc)
            with self._lock:
                self._failed[key] = time.monotonic()
                self._reading.discard(key)
            return
        with self._lock:
            self._ready[key] = ids
            self._reading.discard(key)
            self._failed.pop(key, None)
        trim_heap(collect=False)  # the pages were Python lists: give their memory back


def holds_any(known: TermIds, term: SparseVector) -> bool:
    """Whether any index of ``term`` is among the sorted ``known`` ids."""
    wanted = np.asarray(term.indices, dtype=np.uint32)
    found = np.searchsorted(known, wanted)
    inside = found < len(known)
    return bool(np.any(known[found[inside]] == wanted[inside]))


def open_store(
    settings: Settings, *, read_only: bool = False, coordination: Coordination | None = None
) -> IndexStore:
    """The configured store: a Qdrant server when ``index.qdrant_url`` is set (shared by the
    install's replicas through ``coordination``, see ``index.shared``), else Qdrant Edge
    shards under ``<data_dir>/index`` (each process's own)."""
    root = Path(settings.data_dir) / "index"
    if settings.index.qdrant_url:
        from askdocs.index.server import QdrantBackend  # optional path, imported on use

        backend: Backend = QdrantBackend.connect(settings.index, root, coordination)
    else:
        backend = EdgeBackend(root, settings.index.quantization)
    return IndexStore(backend, read_only=read_only, resume_dir=root)


def _info(manifest: Manifest) -> CollectionInfo:
    return CollectionInfo(
        name=manifest.name,
        model_id=manifest.model_id,
        dimension=manifest.dimension,
        points=manifest.points,
        dense_points=manifest.dense_points,
        sites=tuple(sorted(manifest.site_points)),
        site_points=tuple(sorted(manifest.site_points.items())),
    )


def _normalised(
    dense: npt.NDArray[np.float32] | None, collection: CollectionInfo
) -> npt.NDArray[np.float32] | None:
    if dense is None:
        return None
    vector = np.asarray(dense, dtype=np.float32).reshape(-1)
    if vector.shape[0] != collection.dimension:
        raise VectorStoreError(
            f"query vector has {vector.shape[0]} dimensions; collection {collection.name} "
            f"holds {collection.dimension}"
        )
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else None


def _scored(hit: RawHit) -> ScoredChunk:
    return ScoredChunk(chunk_from_payload(hit.payload), hit.score, hit.cosine)


def _with_cosine(
    hit: ScoredChunk, vectors: dict[str, npt.NDArray[np.float32]], query: npt.NDArray[np.float32]
) -> ScoredChunk:
    if hit.dense_score is not None:
        return hit
    vector = vectors.get(point_id(hit.chunk.site, hit.chunk.id))
    cosine = float(vector @ query) if vector is not None else None
    return replace(hit, dense_score=cosine)


def _mode(spec: QuerySpec) -> str:
    if spec.dense is not None and spec.sparse is not None:
        return "hybrid"
    return "dense" if spec.dense is not None else "keyword"
