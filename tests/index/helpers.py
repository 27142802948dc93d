"""Test-only helpers: chunks, and a deterministic hashing embedder for fast unit tests.

The hashing embedder is NOT a product provider: it exists so store mechanics can be
tested in milliseconds. Lifecycle and reuse are also tested with the real local model.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from askdocs.embeddings.protocol import Vectors
from askdocs.types import Chunk

_WORD = re.compile(r"\w+")


class HashingEmbedder:
    """Bag of hashed words, L2-normalised. Counts what it embeds."""

    def __init__(self, dimension: int = 64, model_id: str = "test:hashing") -> None:
        self._dimension = dimension
        self._model_id = model_id
        self.embedded: list[str] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimension(self) -> int:
        return self._dimension

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self._dimension, dtype=np.float32)
        for word in _WORD.findall(text.lower()):
            digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
            vector[int.from_bytes(digest, "big") % self._dimension] += 1.0
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector + 1.0 / np.sqrt(self._dimension)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        self.embedded.extend(texts)
        return np.stack([self._vector(t) for t in texts]).astype(np.float32)

    def embed_query(self, text: str) -> Vectors:
        return self._vector(text).reshape(1, -1)


def chunk(
    site: str,
    slug: str,
    heading: str,
    text: str,
    *,
    locale: str = "en",
    audience: str = "user",
    part: int = 0,
    title: str | None = None,
) -> Chunk:
    section = re.sub(r"\W+", "-", heading.lower()).strip("-")
    return Chunk(
        site=site,
        path=f"{slug}.md",
        slug=slug,
        title=title or slug.replace("-", " ").title(),
        heading=heading,
        heading_trail=(heading,),
        section_id=section,
        anchor=section,
        url=f"/docs/{slug}#{section}",
        audience="developer" if audience == "developer" else "user",
        locale=locale,
        part=part,
        text=text,
    )


TOPICS = {
    "install": "Install the package with pip and create a virtual environment first.",
    "cors": "Cross origin resource sharing lets a browser call an API on another origin.",
    "websockets": "Use receive_json to read a JSON message from a websocket connection.",
    "docker": "Set shm-size when the container needs more shared memory for workers.",
    "testing": "The TestClient runs requests against the application without a server.",
    "security": "OAuth2 with password flow and bearer tokens protects the endpoints.",
}


def corpus(site: str = "docs", pages: int = 6, sections: int = 3) -> list[Chunk]:
    """A small corpus: ``pages`` pages of ``sections`` sections, distinct texts."""
    names = list(TOPICS)
    chunks: list[Chunk] = []
    for p in range(pages):
        topic = names[p % len(names)]
        for s in range(sections):
            filler = " notes" * (p * sections + s)  # distinct lengths: no ranking ties
            text = f"{TOPICS[topic]} Section {s} of page {p} explains detail{filler}."
            chunks.append(chunk(site, f"{topic}-{p}", f"{topic.title()} part {s}", text))
    return chunks
