"""What a new collection holds, and which vectors it can reuse. Pure.

The new collection = the other sites' chunks from the previous collection + this site's
chunks. A dense vector is reused when the previous collection was built by the same
model and holds a point with the same ``embed_hash`` (a hash of exactly the embedded
text); a sparse vector when the point's whole payload and the lexical version are
unchanged. Everything else is computed: sparse vectors here, dense ones by the builder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from askdocs.index.backend import FloatArray, StoredPoint
from askdocs.index.naming import chunk_fingerprint, point_id
from askdocs.index.payload import chunk_from_payload, stored_embed_hash
from askdocs.index.types import SparseVector
from askdocs.types import Chunk


@dataclass(frozen=True)
class Item:
    """One point of the new collection, with the vectors already known."""

    id: str
    chunk: Chunk
    sparse: SparseVector
    dense: FloatArray | None


@dataclass(frozen=True)
class Plan:
    items: tuple[Item, ...]
    reused: int  # this site's chunks whose dense vector is reused


def plan_points(
    site: str,
    own: Sequence[Chunk],
    previous: Sequence[StoredPoint],
    *,
    keep_sites: Mapping[str, object],
    reuse_dense: bool,
    reuse_sparse: bool,
    sparse: Callable[[Chunk], SparseVector],
) -> Plan:
    """The points of the new collection, best reuse first.

    ``keep_sites`` names the other sites to carry over; ``reuse_dense`` says the previous
    collection was built by the same model; ``reuse_sparse`` that it used the same
    lexical analysis.
    """
    others = [
        chunk_from_payload(p.payload)
        for p in previous
        if p.payload.get("site") != site and p.payload.get("site") in keep_sites
    ]
    dense_by_hash = _dense_by_hash(previous) if reuse_dense else {}
    sparse_by_id = _sparse_by_id(previous) if reuse_sparse else {}
    items = [_item(c, dense_by_hash, sparse_by_id, sparse) for c in [*others, *own]]
    reused = sum(1 for item in items[len(others) :] if item.dense is not None)
    return Plan(tuple(items), reused)


def _item(
    chunk: Chunk,
    dense_by_hash: Mapping[str, FloatArray],
    sparse_by_id: Mapping[str, tuple[str, SparseVector]],
    sparse: Callable[[Chunk], SparseVector],
) -> Item:
    pid = point_id(chunk.site, chunk.id)
    stored = sparse_by_id.get(pid)
    vector = stored[1] if stored is not None and stored[0] == chunk_fingerprint(chunk) else None
    return Item(pid, chunk, vector or sparse(chunk), dense_by_hash.get(chunk.embed_hash))


def _dense_by_hash(previous: Sequence[StoredPoint]) -> dict[str, FloatArray]:
    found: dict[str, FloatArray] = {}
    for point in previous:
        embed_hash = stored_embed_hash(point.payload)
        if embed_hash and point.dense is not None:
            found.setdefault(embed_hash, point.dense)
    return found


def _sparse_by_id(previous: Sequence[StoredPoint]) -> dict[str, tuple[str, SparseVector]]:
    return {
        p.id: (chunk_fingerprint(chunk_from_payload(p.payload)), p.sparse)
        for p in previous
        if p.sparse is not None
    }


def unique_chunks(site: str, chunks: Sequence[Chunk]) -> tuple[list[Chunk], list[str]]:
    """``chunks`` with one chunk per id (the first wins), plus the ids that repeated.
    A chunk of another site is a programming error."""
    seen: dict[str, Chunk] = {}
    repeated: list[str] = []
    for chunk in chunks:
        if chunk.site != site:
            raise ValueError(f"chunk {chunk.id} belongs to site {chunk.site}, not {site}")
        key = point_id(site, chunk.id)
        if key in seen:
            repeated.append(chunk.id)
        else:
            seen[key] = chunk
    return list(seen.values()), repeated


@dataclass(frozen=True)
class Changes:
    """How to turn a copy of the previous collection into the new one."""

    upsert: tuple[Chunk, ...]  # this site's new or changed chunks
    delete: tuple[str, ...]  # point ids: this site's removed chunks, sites no longer indexed
    kept: int  # points the copy already holds unchanged
    vector_of: Mapping[str, str]  # embed_hash -> a previous point id holding that vector


def plan_changes(
    site: str,
    own: Sequence[Chunk],
    previous: Sequence[StoredPoint],
    *,
    keep_sites: Mapping[str, object],
) -> Changes:
    """The difference between the previous collection (payloads only) and the new one,
    when both are for the same model and lexical analysis."""
    fingerprints: dict[str, str] = {}  # this site's previous points
    vector_of: dict[str, str] = {}
    delete: list[str] = []
    others = 0
    for point in previous:
        point_site = point.payload.get("site")
        embed_hash = stored_embed_hash(point.payload)
        if embed_hash:
            vector_of.setdefault(embed_hash, point.id)
        if point_site == site:
            fingerprints[point.id] = chunk_fingerprint(chunk_from_payload(point.payload))
        elif point_site in keep_sites:
            others += 1
        else:
            delete.append(point.id)
    wanted = {point_id(c.site, c.id): c for c in own}
    upsert = [c for pid, c in wanted.items() if fingerprints.get(pid) != chunk_fingerprint(c)]
    delete += [pid for pid in fingerprints if pid not in wanted]
    kept = others + len(wanted) - len(upsert)
    return Changes(tuple(upsert), tuple(delete), kept, vector_of)
