"""Collection names, fingerprints and point ids. Pure.

A collection is named ``docs_{model-slug}_{model-hash8}_{corpus-hash12}`` (seed 000):

* the model is part of the name because vectors of different models are not comparable;
* the corpus hash covers every chunk of every site in the collection (through one
  fingerprint per site) plus ``INDEX_VERSION``, the chunker's ``CHUNKER_VERSION``, the
  lexical analysis version and the storage layout (quantization), so any doc edit, any
  change to the point layout, the chunking, the BM25 tokenisation or the quantization
  gives a new name.

On a Qdrant server several installs may share, the names are scoped by the install
(``scoped_name``): ``docs_{scope}_{model-slug}_{model-hash8}_{corpus-hash12}`` with the
alias ``docs_{scope}_{model-slug}_{model-hash8}_current``, ``scope`` ten hex digits of the
install id's hash, so two installs (even of the same docs) never share a name or an alias.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from askdocs.chunking import CHUNKER_VERSION
from askdocs.index.payload import fingerprint_payload
from askdocs.types import Chunk

INDEX_VERSION = "askdocs-index-1"  # bump when the point layout or naming changes
PREFIX = "docs"
NO_MODEL = "none"
_SLUG_CHARS = re.compile(r"[^a-z0-9]+")
_NAME = re.compile(r"^docs_([a-z0-9-]+)_([0-9a-f]{8})_([0-9a-f]{12})$")


@dataclass(frozen=True)
class ModelSpec:
    """The embedding model a collection is built for; ``dimension`` None means keyword-only."""

    model_id: str
    dimension: int | None

    @property
    def slug(self) -> str:
        return model_slug(self.model_id)

    @property
    def hash8(self) -> str:
        return _sha(f"{self.model_id}|{self.dimension or 0}")[:8]

    @property
    def key(self) -> str:
        """``{slug}_{hash8}``: names the model's collections and its current pointer."""
        return f"{self.slug}_{self.hash8}"


KEYWORD_ONLY = ModelSpec(NO_MODEL, None)


def model_slug(model_id: str) -> str:
    """A short, filesystem- and Qdrant-safe form of a model id."""
    slug = _SLUG_CHARS.sub("-", model_id.lower()).strip("-")[:40].strip("-")
    return slug or "model"


def collection_name(spec: ModelSpec, corpus_hash: str) -> str:
    return f"{PREFIX}_{spec.key}_{corpus_hash[:12]}"


def model_key_of(name: str) -> str | None:
    """The ``{slug}_{hash8}`` part of a collection name, or None for a foreign name."""
    match = _NAME.match(name)
    return f"{match.group(1)}_{match.group(2)}" if match else None


def scope_of(install: str) -> str:
    """The install's part of its names on a shared server: 10 hex digits of its id's hash."""
    return _sha(f"askdocs-install:{install}")[:10]


def scoped_name(scope: str, name: str) -> str:
    """``docs_{model}_{h8}_{h12}`` as the install ``scope`` names it on a shared server."""
    return f"{PREFIX}_{scope}_{name.removeprefix(PREFIX + '_')}"


def unscoped_name(scope: str, physical: str) -> str | None:
    """The collection name a scoped server name stands for; None for another scope's."""
    head = f"{PREFIX}_{scope}_"
    if not physical.startswith(head):
        return None
    name = f"{PREFIX}_{physical.removeprefix(head)}"
    return name if model_key_of(name) is not None else None


def alias_name(scope: str, model_key: str) -> str:
    return f"{PREFIX}_{scope}_{model_key}_current"


def point_id(site: str, chunk_id: str) -> str:
    """A UUID-formatted SHA-256 of ``site:chunk_id``: stable across runs and collections."""
    digest = hashlib.sha256(f"{site}:{chunk_id}".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16]))


def chunk_fingerprint(chunk: Chunk) -> str:
    """A hash of everything stored for a chunk except its vectors and run id."""
    body = json.dumps(fingerprint_payload(chunk), sort_keys=True, ensure_ascii=False)
    return _sha(body)


def site_hash(chunks: Iterable[Chunk]) -> str:
    """One fingerprint for all chunks of a site, independent of their order."""
    lines = sorted(f"{point_id(c.site, c.id)} {chunk_fingerprint(c)}" for c in chunks)
    return _sha("\n".join(lines))


def corpus_hash(site_hashes: Mapping[str, str], lexical_version: str, storage: str) -> str:
    """The collection's content hash: every site's fingerprint plus the versions and the
    ``storage`` layout (``index.quantization``: switching it writes a new collection)."""
    sites = "\n".join(f"{site} {digest}" for site, digest in sorted(site_hashes.items()))
    versions = f"{INDEX_VERSION}\n{CHUNKER_VERSION}\n{lexical_version}\n{storage}"
    return _sha(f"{versions}\n{sites}")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
