"""The embedded default: one Qdrant Edge shard per collection, on disk.

Layout under ``<data_dir>/index``::

    .build.lock                      held by the one process building
    CURRENT-<model-key>.json         the pointer: {"name": <collection>}
    collections/<name>/shard/        the Edge shard (written once, then only read)
    collections/<name>/manifest.json present only once the collection is complete
    collections/<name>/lease         readers hold a shared flock while they have it open

Shards are created with the write-ahead log off: a collection is written by one builder,
flushed, verified, then never written again, so several processes can open it at once
(with the log on, Edge allows one opener per folder). Crash safety does not rest on the
log: a collection without a manifest is partial, is never opened for search, and is
deleted by the next build.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

import qdrant_edge as qe

from askdocs.errors import VectorStoreError
from askdocs.index import edge_convert as conv
from askdocs.index.backend import (
    DENSE,
    SPARSE,
    CollectionGone,
    FloatArray,
    Manifest,
    PointRecord,
    QuerySpec,
    RawResult,
    StoredPoint,
    TermIds,
    sorted_term_ids,
)
from askdocs.index.files import (
    atomic_write,
    copy_tree,
    exclusive,
    fsync_dir,
    lease_is_free,
    shared_lease,
    try_exclusive,
)
from askdocs.index.naming import PREFIX
from askdocs.index.ownership import is_askdocs_name
from askdocs.index.types import QueryFilter
from askdocs.settings import Quantization

POINTER_PREFIX = "CURRENT-"
_TRASH = ".trash-"
_SCROLL_PAGE = 512
_TERMS_PAGE = 256  # points per page when reading only the sparse vectors (small: RSS)
_TERMS_PAUSE = 0.002  # seconds between those pages, so searches beside the read keep the GIL
_NOT_COPIED = frozenset({"edge_config.json", "temp_segments"})  # rewritten on load / scratch


@dataclass
class _Handle:
    shard: qe.EdgeShard
    lease: int | None  # shared-lock descriptor of a reader; None for the writer
    lock: threading.Lock = field(default_factory=threading.Lock)
    closed: bool = False

    def close(self) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            with contextlib.suppress(Exception):
                self.shard.close()
            if self.lease is not None:
                os.close(self.lease)


class EdgeBackend:
    """Qdrant Edge shards in ``root`` (``<data_dir>/index``)."""

    def __init__(self, root: Path, quantization: Quantization = "int8") -> None:
        self.root = root
        self.quantization: Quantization = quantization  # of the collections it writes
        self._collections = root / "collections"
        try:
            self._collections.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise VectorStoreError(f"cannot create the index folder {root}: {exc}") from exc
        self._handles: dict[str, _Handle] = {}
        self._lock = threading.Lock()
        self._closed = False  # a closed backend opens no shard again

    # -- locks and pointers ------------------------------------------------------------

    def build_lock(self) -> AbstractContextManager[None]:
        return exclusive(self.root / ".build.lock")

    def try_build_lock(self) -> AbstractContextManager[bool]:
        return try_exclusive(self.root / ".build.lock")

    def collections(self) -> list[str]:
        """Folders askdocs made (an askdocs name, or one being deleted); any other folder
        is never listed, so never swept."""
        return sorted(
            entry.name
            for entry in self._collections.iterdir()
            if entry.is_dir() and (is_askdocs_name(entry.name) or entry.name.startswith(_TRASH))
        )

    def pointers(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for path in self.root.glob(f"{POINTER_PREFIX}*.json"):
            name = _read_pointer(path)
            if name is not None:
                found[path.stem.removeprefix(POINTER_PREFIX)] = name
        return found

    def set_pointer(self, model_key: str, name: str) -> None:
        path = self.root / f"{POINTER_PREFIX}{model_key}.json"
        _io(lambda: atomic_write(path, f'{{"name": "{name}"}}\n'), f"update {path.name}")

    def drop_pointer(self, model_key: str) -> None:
        path = self.root / f"{POINTER_PREFIX}{model_key}.json"
        _io(lambda: _unlink_durably(path), f"remove {path.name}")

    def manifest(self, name: str) -> Manifest | None:
        path = self._collections / name / "manifest.json"
        try:
            return Manifest.from_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise VectorStoreError(f"unreadable manifest of collection {name}: {exc}") from exc

    # -- writing -------------------------------------------------------------------------

    can_derive = True

    def create(self, name: str, dimension: int | None) -> None:
        folder = self._fresh_folder(name)
        (folder / "shard").mkdir()
        with _engine(name, "create"):
            shard = qe.EdgeShard.create(
                str(folder / "shard"), conv.config(dimension, self.quantization)
            )
            for operation in conv.payload_indexes():
                shard.update(operation)
        with self._lock:
            self._handles[name] = _Handle(shard, None)

    def derive(self, source: str, name: str, dimension: int | None) -> None:
        """Copy the source shard's files (vectors, payload, payload and HNSW indexes), so
        that a small change costs a file copy instead of re-inserting and re-indexing."""
        if self.manifest(source) is None:
            raise VectorStoreError(f"collection {source} is not complete; cannot copy it")
        folder = self._fresh_folder(name)
        _io(lambda: copy_tree(self._collections / source / "shard", folder / "shard",
                              skip=_NOT_COPIED), f"copy {source}")  # fmt: skip
        with _engine(name, "open the copy of"):
            shard = qe.EdgeShard.load(
                str(folder / "shard"), conv.config(dimension, self.quantization)
            )
            for operation in conv.payload_indexes():  # a copy of an older shard gains new ones
                shard.update(operation)
        with self._lock:
            self._handles[name] = _Handle(shard, None)

    def _fresh_folder(self, name: str) -> Path:
        folder = self._collections / name
        if folder.exists() and not self.drop(name):
            raise VectorStoreError(f"collection {name} is in use and cannot be rebuilt")
        folder.mkdir(parents=True)
        (folder / "lease").touch()
        fsync_dir(self._collections)
        return folder

    def delete(self, name: str, ids: Sequence[str]) -> None:
        handle = self._writer(name)
        with _engine(name, "delete from"), handle.lock:
            handle.shard.update(qe.UpdateOperation.delete_points(list(ids)))

    def dense_vectors(self, name: str, ids: Sequence[str]) -> dict[str, FloatArray]:
        with self._use(name, "read vectors of") as shard:
            records = shard.retrieve(list(ids), with_payload=False, with_vector=[DENSE])
        points = (conv.stored(record) for record in records)
        return {p.id: p.dense for p in points if p.dense is not None}

    def upsert(self, name: str, points: Sequence[PointRecord]) -> None:
        handle = self._writer(name)
        with _engine(name, "upsert"), handle.lock:
            handle.shard.update(qe.UpdateOperation.upsert_points(conv.points(points)))

    def seal(self, name: str, manifest: Manifest) -> None:
        handle = self._writer(name)
        with _engine(name, "flush"), handle.lock:
            handle.shard.optimize()
            handle.shard.flush()
        with self._lock:
            self._handles.pop(name, None)
        handle.close()
        path = self._collections / name / "manifest.json"
        _io(lambda: atomic_write(path, manifest.to_json()), f"seal {name}")

    def _writer(self, name: str) -> _Handle:
        handle = self._handles.get(name)
        if handle is None or handle.lease is not None:
            raise VectorStoreError(f"collection {name} is not being built")
        return handle

    # -- reading -------------------------------------------------------------------------

    def count(self, name: str, *, dense_only: bool = False) -> int:
        request = qe.CountRequest(exact=True, filter=conv.has_dense() if dense_only else None)
        with self._use(name, "count") as shard:
            return int(shard.count(request))

    def scroll(self, name: str, *, vectors: bool) -> Iterator[StoredPoint]:
        offset: qe.PointId | None = None
        while True:
            request = qe.ScrollRequest(
                offset=offset, limit=_SCROLL_PAGE, with_payload=True, with_vector=vectors
            )
            with self._use(name, "scroll") as shard:
                records, offset = shard.scroll(request)
            yield from (conv.stored(record) for record in records)
            if offset is None:
                return

    def term_ids(self, name: str, filter: QueryFilter) -> TermIds:
        def pages() -> Iterator[list[int]]:
            offset: qe.PointId | None = None
            while True:
                request = qe.ScrollRequest(
                    offset=offset,
                    limit=_TERMS_PAGE,
                    filter=conv.to_filter(filter),
                    with_payload=False,
                    with_vector=[SPARSE],
                )
                with self._use(name, "scroll") as shard:
                    records, offset = shard.scroll(request)
                yield from (conv.sparse_indices(record) for record in records)
                if offset is None:
                    return
                time.sleep(_TERMS_PAUSE)  # a background read: searches go first

        return sorted_term_ids(pages())

    def query(self, name: str, spec: QuerySpec) -> RawResult:
        return self.query_batch(name, [spec])[0]

    def query_batch(self, name: str, specs: Sequence[QuerySpec]) -> list[RawResult]:
        plans = [conv.query_requests(spec) for spec in specs]
        requests = [request for batch, _ in plans for request in batch]
        with self._use(name, "query") as shard:
            results = shard.query_batch(qe.QueryBatchRequest(requests))
        out: list[RawResult] = []
        for (batch, fused), spec in zip(plans, specs, strict=True):
            out.append(conv.raw_result(results[: len(batch)], fused, spec))
            results = results[len(batch) :]
        return out

    @contextlib.contextmanager
    def _use(self, name: str, action: str) -> Iterator[qe.EdgeShard]:
        handle = self._handles.get(name) or self._open(name)
        with handle.lock:
            if handle.closed:
                raise CollectionGone(f"collection {name} was closed")
            with _engine(name, action):
                yield handle.shard

    def _open(self, name: str) -> _Handle:
        with self._lock:
            if self._closed:
                raise CollectionGone(f"collection {name}: the index store is closed")
            handle = self._handles.get(name)
            if handle is not None:
                return handle
            folder = self._collections / name
            if self.manifest(name) is None:
                raise CollectionGone(f"collection {name} is missing or incomplete")
            lease = shared_lease(folder / "lease")
            if lease is None:
                raise CollectionGone(f"collection {name} was removed")
            try:
                with _engine(name, "open"):
                    shard = qe.EdgeShard.load(str(folder / "shard"))
            except VectorStoreError:
                os.close(lease)
                raise
            handle = self._handles[name] = _Handle(shard, lease)
            return handle

    # -- removal -------------------------------------------------------------------------

    def drop(self, name: str) -> bool:
        with self._lock:
            handle = self._handles.pop(name, None)
        if handle is not None:
            handle.close()
        folder = self._collections / name
        if name.startswith(_TRASH):
            shutil.rmtree(folder, ignore_errors=True)
            return True
        return self._drop_unleased(folder)

    def _drop_unleased(self, folder: Path) -> bool:
        try:
            fd = os.open(folder / "lease", os.O_RDONLY)
        except FileNotFoundError:
            fd = None  # a partial folder from a crash before its lease file existed
        try:
            if fd is not None and not lease_is_free(fd):
                return False
            trash = self._collections / f"{_TRASH}{folder.name}-{uuid.uuid4().hex[:8]}"
            with contextlib.suppress(FileNotFoundError):
                folder.rename(trash)
        finally:
            if fd is not None:
                os.close(fd)
        shutil.rmtree(trash, ignore_errors=True)
        return True

    def release(self, keep: set[str]) -> None:
        with self._lock:
            stale = [n for n, h in self._handles.items() if n not in keep and h.lease is not None]
            handles = [self._handles.pop(n) for n in stale]
        for handle in handles:
            handle.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            handles = list(self._handles.values())
            self._handles.clear()
        for handle in handles:
            handle.close()


def _unlink_durably(path: Path) -> None:
    path.unlink(missing_ok=True)
    fsync_dir(path.parent)


def _read_pointer(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    name = conv.pointer_name(text)
    return name if name is not None and name.startswith(f"{PREFIX}_") else None


@contextlib.contextmanager
def _engine(name: str, action: str) -> Iterator[None]:
    """Turn an engine failure into a VectorStoreError naming the collection."""
    try:
        yield
    except VectorStoreError:
        raise
    except Exception as exc:
        raise VectorStoreError(f"Qdrant Edge could not {action} collection {name}: {exc}") from exc


def _io(action: Callable[[], None], what: str) -> None:
    try:
        action()
    except OSError as exc:
        raise VectorStoreError(f"could not {what}: {exc}") from exc
