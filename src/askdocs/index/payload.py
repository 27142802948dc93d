"""Chunk <-> point payload. Pure.

A payload holds every ``Chunk`` field (so a hit rebuilds the chunk without another read),
plus ``chunk_id``, ``embed_hash`` (the hash of exactly the embedded text, which decides
vector reuse) and ``run`` (the indexing run that wrote the point).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from askdocs.corpus.groups import GENERAL
from askdocs.errors import VectorStoreError
from askdocs.types import AUDIENCES, Chunk

PayloadValue = str | int | list[str]
_STR_FIELDS = (
    "site",
    "path",
    "slug",
    "title",
    "heading",
    "section_id",
    "anchor",
    "url",
    "locale",
    "text",
    "context",
    "group",
)
# keyword indexes: filters on these never read every payload (search's unknown-name probes
# exclude changelogs: 13 ms per probe call on fastapi-docs without the "kind" index, 0.7 with)
INDEXED_FIELDS: tuple[str, ...] = ("site", "locale", "audience", "kind", "group")


def fingerprint_payload(chunk: Chunk) -> dict[str, PayloadValue]:
    """The payload without the run id: what the corpus hash covers."""
    payload: dict[str, PayloadValue] = {name: getattr(chunk, name) for name in _STR_FIELDS}
    payload["heading_trail"] = list(chunk.heading_trail)
    payload["audience"] = chunk.audience
    payload["part"] = chunk.part
    payload["chunk_id"] = chunk.id
    payload["embed_hash"] = chunk.embed_hash
    if chunk.kind != "guide":
        payload["kind"] = chunk.kind  # absent for guides: their fingerprints stay as they were
    return payload


def chunk_payload(chunk: Chunk, run: str) -> dict[str, PayloadValue]:
    payload = fingerprint_payload(chunk)
    payload["run"] = run
    return payload


def chunk_from_payload(payload: Mapping[str, Any]) -> Chunk:
    """Rebuild a chunk from a stored payload; a malformed payload is a store error."""
    try:
        audience = payload["audience"]
        if audience not in AUDIENCES:
            raise ValueError(f"unknown audience {audience!r}")
        strings = {name: str(payload.get(name, "")) for name in _STR_FIELDS if name != "context"}
        strings["context"] = str(payload.get("context", ""))
        strings["group"] = str(payload.get("group", GENERAL))
        strings["kind"] = str(payload.get("kind", "guide"))
        trail = tuple(str(item) for item in payload["heading_trail"])
        return Chunk(**strings, heading_trail=trail, audience=audience, part=int(payload["part"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise VectorStoreError(f"a stored point has a malformed payload: {exc}") from exc


def stored_embed_hash(payload: Mapping[str, Any]) -> str | None:
    value = payload.get("embed_hash")
    return value if isinstance(value, str) else None
