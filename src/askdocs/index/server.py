"""Scale-out: the same collections on a Qdrant server, through ``qdrant-client``.

Same schema as the embedded store (named dense vector ``dense``, sparse ``bm25`` with
``Modifier.IDF``, keyword payload indexes on site, locale, audience). Several installs may
share one server, so every name is scoped by the install (``naming.scoped_name``): the
store and the builder speak of ``docs_<model-key>_<corpus>``, the server holds
``docs_<scope>_<model-key>_<corpus>``, and the pointer is the alias
``docs_<scope>_<model-key>_current`` (alias switches are atomic on the server). The manifest
lives in the collection's metadata, written only after the count was verified.

The install id and the build lock come from the ``Coordination`` (``index.shared``) the
replicas of an install share; without one, from ``index.install_id`` or the data dir, and a
file lock there. Collections an older version built under unscoped names and marked with
this install's id are listed as ``legacy:<name>`` so the next build's sweep drops them.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from qdrant_client import QdrantClient, models

from askdocs.errors import VectorStoreError
from askdocs.index.backend import (
    DENSE,
    INDEXING_THRESHOLD_KB,
    OVERSAMPLING,
    QUANTILE,
    SPARSE,
    CollectionGone,
    FloatArray,
    Manifest,
    PointRecord,
    QuerySpec,
    RawResult,
    StoredPoint,
    TermIds,
    payload_fields,
    sorted_term_ids,
)
from askdocs.index.files import exclusive, try_exclusive
from askdocs.index.naming import PREFIX, alias_name, scope_of, scoped_name, unscoped_name
from askdocs.index.ownership import INSTALL_KEY, install_id, is_askdocs_name
from askdocs.index.payload import INDEXED_FIELDS
from askdocs.index.server_convert import (
    filter_of,
    hit_of,
    point_of,
    sparse_indices,
    stored_of,
)
from askdocs.index.shared import Coordination
from askdocs.index.types import QueryFilter, SparseVector
from askdocs.settings import IndexSettings, Quantization

ALIAS_SUFFIX = "_current"
# index.quantization = "int8" (as on Qdrant Edge, see backend.QUANTILE): int8 copies in RAM,
# float32 originals on disk, candidates rescored with them
INT8 = models.ScalarQuantization(
    scalar=models.ScalarQuantizationConfig(
        type=models.ScalarType.INT8, quantile=QUANTILE, always_ram=True
    )
)
RESCORED = models.SearchParams(
    quantization=models.QuantizationSearchParams(rescore=True, oversampling=OVERSAMPLING)
)
MANIFEST_KEY = "askdocs_manifest"
LEGACY = "legacy:"  # an unscoped collection of this install, built before scoping
_SCROLL_PAGE = 512
T = TypeVar("T")


class QdrantBackend:
    """Collections on a Qdrant server (or ``qdrant-client``'s local mode, in tests)."""

    def __init__(
        self,
        client: QdrantClient,
        lock_dir: Path,
        quantization: Quantization = "int8",
        *,
        install: str | None = None,
        coordination: Coordination | None = None,
    ) -> None:
        self.client = client
        self.quantization: Quantization = quantization  # of the collections it creates
        self._lock_dir = lock_dir
        lock_dir.mkdir(parents=True, exist_ok=True)
        self._coordination = coordination
        if coordination is not None:
            install = coordination.install_id()
        self.install = install or install_id(lock_dir)
        self.scope = scope_of(self.install)
        self._ownership: dict[str, bool] = {}

    @classmethod
    def connect(
        cls, settings: IndexSettings, lock_dir: Path, coordination: Coordination | None = None
    ) -> QdrantBackend:
        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        client = QdrantClient(
            url=settings.qdrant_url, api_key=key, timeout=int(settings.qdrant_timeout_seconds)
        )
        return cls(
            client,
            lock_dir,
            settings.quantization,
            install=settings.install_id,
            coordination=coordination,
        )

    def build_lock(self) -> AbstractContextManager[None]:
        if self._coordination is not None:
            return self._coordination.build_lock()
        return exclusive(self._lock_dir / ".build.lock")

    def try_build_lock(self) -> AbstractContextManager[bool]:
        if self._coordination is not None:
            return self._coordination.try_build_lock()
        return try_exclusive(self._lock_dir / ".build.lock")

    def _physical(self, name: str) -> str:
        """The server's name of collection ``name``."""
        if name.startswith(LEGACY):
            return name.removeprefix(LEGACY)
        return scoped_name(self.scope, name)

    def collections(self) -> list[str]:
        """This install's collections only: its scope's names (and the unscoped names an
        older version gave them, as ``legacy:``) AND this install's id in the metadata.
        Anything else on the server is never listed, so never swept."""
        found = self._call("list collections", self.client.get_collections)
        names: list[str] = []
        for physical in sorted(c.name for c in found.collections):
            name = unscoped_name(self.scope, physical)
            if name is None and is_askdocs_name(physical):
                name = LEGACY + physical
            if name is not None and self._owned(physical):
                names.append(name)
        return names

    def _owned(self, name: str) -> bool:
        """Whether ``name`` carries this install's id (remembered: it never changes)."""
        known = self._ownership.get(name)
        if known is not None:
            return known
        try:
            info = self.client.get_collection(name)
        except Exception:
            return False  # gone meanwhile, or unreadable: not ours to drop
        owned = (info.config.metadata or {}).get(INSTALL_KEY) == self.install
        self._ownership[name] = owned
        return owned

    def pointers(self) -> dict[str, str]:
        """Model key -> current collection, for this scope's aliases naming a collection of
        this install."""
        aliases = self._call("list aliases", self.client.get_aliases).aliases
        head = f"{PREFIX}_{self.scope}_"
        found: dict[str, str] = {}
        for alias in aliases:
            name = unscoped_name(self.scope, alias.collection_name)
            if (
                alias.alias_name.startswith(head)
                and alias.alias_name.endswith(ALIAS_SUFFIX)
                and name is not None
                and self._owned(alias.collection_name)
            ):
                found[alias.alias_name.removeprefix(head).removesuffix(ALIAS_SUFFIX)] = name
        return found

    def set_pointer(self, model_key: str, name: str) -> None:
        alias = alias_name(self.scope, model_key)
        target = self._physical(name)
        operations: list[Any] = [
            models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=alias)),
            models.CreateAliasOperation(
                create_alias=models.CreateAlias(collection_name=target, alias_name=alias)
            ),
        ]
        if model_key not in self.pointers():
            operations = operations[1:]
        self._call("switch alias", lambda: self.client.update_collection_aliases(operations))

    def drop_pointer(self, model_key: str) -> None:
        alias = alias_name(self.scope, model_key)
        operation = models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=alias))
        self._call("remove alias", lambda: self.client.update_collection_aliases([operation]))

    def manifest(self, name: str) -> Manifest | None:
        name = self._physical(name)  # the server's name for it
        if not self._call("look up", lambda: self.client.collection_exists(name)):
            return None
        info = self._call("describe", lambda: self.client.get_collection(name))
        text = (info.config.metadata or {}).get(MANIFEST_KEY)
        return Manifest.from_json(text) if isinstance(text, str) else None

    def create(self, name: str, dimension: int | None) -> None:
        name = self._physical(name)  # the server's name for it
        if self._exists(name):
            if not self._owned(name):
                raise VectorStoreError(
                    f"collection {name} on the Qdrant server belongs to another install; "
                    "it is never replaced"
                )
            self._drop(name)
        quantized = self.quantization == "int8"
        dense = (
            {
                DENSE: models.VectorParams(
                    size=dimension, distance=models.Distance.COSINE, on_disk=quantized
                )
            }
            if dimension
            else {}
        )
        sparse = {SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)}
        self._call(
            "create",
            lambda: self.client.create_collection(
                name,
                vectors_config=dense,
                sparse_vectors_config=sparse,
                quantization_config=INT8 if quantized else None,
                optimizers_config=models.OptimizersConfigDiff(
                    indexing_threshold=INDEXING_THRESHOLD_KB
                ),
                metadata={INSTALL_KEY: self.install},
            ),
        )
        with warnings.catch_warnings():  # local mode warns that it ignores payload indexes
            warnings.filterwarnings("ignore", message="Payload indexes have no effect")
            for field_name in INDEXED_FIELDS:
                index = partial(
                    self.client.create_payload_index,
                    name,
                    field_name,
                    models.PayloadSchemaType.KEYWORD,
                )
                self._call("index", index)

    can_derive = False  # a server has no collection copy: builds write every point

    def derive(self, source: str, name: str, dimension: int | None) -> None:
        raise VectorStoreError("a Qdrant server collection cannot be copied; build it afresh")

    def delete(self, name: str, ids: Sequence[str]) -> None:
        name = self._physical(name)  # the server's name for it
        selector = models.PointIdsList(points=list(ids))
        self._call("delete from", lambda: self.client.delete(name, selector, wait=True), name)

    def dense_vectors(self, name: str, ids: Sequence[str]) -> dict[str, FloatArray]:
        name = self._physical(name)  # the server's name for it
        found = self._call(
            "read vectors of",
            lambda: self.client.retrieve(name, list(ids), with_payload=False, with_vectors=[DENSE]),
            name,
        )
        points = (stored_of(record) for record in found)
        return {p.id: p.dense for p in points if p.dense is not None}

    def upsert(self, name: str, points: Sequence[PointRecord]) -> None:
        name = self._physical(name)  # the server's name for it
        batch = [point_of(point) for point in points]
        self._call("upsert", lambda: self.client.upsert(name, batch, wait=True))

    def count(self, name: str, *, dense_only: bool = False) -> int:
        name = self._physical(name)  # the server's name for it
        flt = models.Filter(must=[models.HasVectorCondition(has_vector=DENSE)])
        found = self._call(
            "count",
            lambda: self.client.count(name, count_filter=flt if dense_only else None, exact=True),
            name,
        )
        return int(found.count)

    def seal(self, name: str, manifest: Manifest) -> None:
        name = self._physical(name)  # the server's name for it
        metadata = {MANIFEST_KEY: manifest.to_json(), INSTALL_KEY: self.install}
        self._call("seal", lambda: self.client.update_collection(name, metadata=metadata))

    def scroll(self, name: str, *, vectors: bool) -> Iterator[StoredPoint]:
        name = self._physical(name)  # the server's name for it
        offset: Any = None
        while True:
            page = partial(
                self.client.scroll,
                name,
                limit=_SCROLL_PAGE,
                offset=offset,
                with_payload=True,
                with_vectors=vectors,
            )
            records, offset = self._call("scroll", page, name)
            yield from (stored_of(record) for record in records)
            if offset is None:
                return

    def term_ids(self, name: str, filter: QueryFilter) -> TermIds:
        name = self._physical(name)  # the server's name for it

        def pages() -> Iterator[list[int]]:
            offset: Any = None
            while True:
                page = partial(
                    self.client.scroll,
                    name,
                    scroll_filter=filter_of(filter),
                    limit=_SCROLL_PAGE,
                    offset=offset,
                    with_payload=False,
                    with_vectors=[SPARSE],
                )
                records, offset = self._call("scroll", page, name)
                yield from (sparse_indices(record) for record in records)
                if offset is None:
                    return

        return sorted_term_ids(pages())

    def query(self, name: str, spec: QuerySpec) -> RawResult:
        return self.query_batch(name, [spec])[0]

    def query_batch(self, name: str, specs: Sequence[QuerySpec]) -> list[RawResult]:
        name = self._physical(name)  # the server's name for it
        plans = [_requests(spec) for spec in specs]
        requests = [request for batch, _ in plans for request in batch]
        results = self._call("query", lambda: self.client.query_batch_points(name, requests), name)
        out: list[RawResult] = []
        for (batch, fused), spec in zip(plans, specs, strict=True):
            out.append(_raw_result([r.points for r in results[: len(batch)]], fused, spec))
            results = results[len(batch) :]
        return out

    def drop(self, name: str) -> bool:
        """Delete one of this install's collections; anything else is left alone."""
        return self._drop(self._physical(name))

    def _drop(self, physical: str) -> bool:
        if not self._owned(physical):
            return False
        self._call("drop", lambda: self.client.delete_collection(physical))
        self._ownership.pop(physical, None)
        return True

    def release(self, keep: set[str]) -> None:
        """Nothing to let go: the server serves every collection."""

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()

    def _call(self, action: str, call: Callable[[], T], name: str | None = None) -> T:
        try:
            return call()
        except Exception as exc:
            if name is not None and not self._exists(name):
                raise CollectionGone(f"collection {name} no longer exists") from exc
            where = f" collection {name}" if name else ""
            raise VectorStoreError(f"Qdrant could not {action}{where}: {exc}") from exc

    def _exists(self, name: str) -> bool:
        try:
            return bool(self.client.collection_exists(name))
        except Exception:
            return True  # the server itself failed: report the original error


def _requests(spec: QuerySpec) -> tuple[list[models.QueryRequest], bool]:
    """As ``edge_convert.query_requests``: the fused query, then the dense side alone
    (ids and scores) for the hits' cosines; no vectors are fetched."""
    flt = filter_of(spec.filter)
    dense = spec.dense.tolist() if spec.dense is not None else None
    lexical = _sparse(spec.sparse) if spec.sparse else None
    if dense is not None and lexical is not None:
        p = spec.params
        prefetch = [
            models.Prefetch(
                query=dense, using=DENSE, limit=p.prefetch, filter=flt, params=RESCORED
            ),
            models.Prefetch(query=lexical, using=SPARSE, limit=p.prefetch, filter=flt),
        ]
        rrf = models.RrfQuery(rrf=models.Rrf(k=p.rrf_k, weights=[p.dense_weight, p.lexical_weight]))
        main = models.QueryRequest(
            prefetch=prefetch, query=rrf, limit=spec.limit, with_payload=payload_fields(spec)
        )
        scores = models.QueryRequest(
            query=dense,
            using=DENSE,
            limit=p.prefetch,
            filter=flt,
            with_payload=False,
            params=RESCORED,
        )
        return [main, scores], True
    only = models.QueryRequest(
        query=dense if dense is not None else lexical,
        using=DENSE if dense is not None else SPARSE,
        limit=spec.limit,
        filter=flt,
        with_payload=payload_fields(spec),
        params=RESCORED if dense is not None else None,
    )
    return [only], False


def _raw_result(results: list[list[models.ScoredPoint]], fused: bool, spec: QuerySpec) -> RawResult:
    if fused:
        cosines = {str(point.id): float(point.score) for point in results[1]}
        hits = [hit_of(point, cosines.get(str(point.id))) for point in results[0]]
        return RawResult(hits=hits, best_dense=float(results[1][0].score) if results[1] else None)
    dense = spec.dense is not None
    hits = [hit_of(point, float(point.score) if dense else None) for point in results[0]]
    return RawResult(hits=hits, best_dense=hits[0].score if hits and dense else None)


def _sparse(vector: SparseVector) -> models.SparseVector:
    return models.SparseVector(indices=list(vector.indices), values=list(vector.values))
