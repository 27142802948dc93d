"""Remember recent query vectors: a repeated question skips the model (or the paid API).

``QueryCache`` wraps any :class:`Embedder`. Its LRU holds at most ``size`` vectors (384
floats each for the bundled model: 1,024 of them are 1.5 MB), keyed by the model id (the
query model's, ``query_model_id``, where the provider has one) and the exact query text,
so a switch of model never serves an old model's vector. Document
embedding passes straight through.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from askdocs.embeddings.protocol import Embedder, Vectors

DEFAULT_SIZE = 1024


class QueryCache:
    """An :class:`Embedder` that answers repeated queries from a bounded LRU."""

    def __init__(self, inner: Embedder, size: int = DEFAULT_SIZE) -> None:
        self.inner = inner
        self.size = max(0, size)
        self._vectors: OrderedDict[tuple[str, str], Vectors] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def __len__(self) -> int:
        return len(self._vectors)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> Vectors:
        key = (str(getattr(self.inner, "query_model_id", self.inner.model_id)), text)
        with self._lock:
            found = self._vectors.get(key)
            if found is not None:
                self._vectors.move_to_end(key)
                return found
        vector = np.array(self.inner.embed_query(text), dtype=np.float32)
        vector.flags.writeable = False  # shared between callers
        self._remember(key, vector)
        return vector

    def _remember(self, key: tuple[str, str], vector: Vectors) -> None:
        if self.size == 0:
            return
        with self._lock:
            self._vectors[key] = vector
            self._vectors.move_to_end(key)
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)

    def token_lengths(self, texts: Sequence[str]) -> list[int]:
        """The wrapped model's token counts, else character counts (the builder sorts by
        them to batch texts of one length together)."""
        count = getattr(self.inner, "token_lengths", None)
        return list(count(texts)) if callable(count) else [len(text) for text in texts]

    def load(self) -> None:
        """Load the wrapped model now, when it loads lazily (the local providers)."""
        load = getattr(self.inner, "load", None)
        if callable(load):
            load()

    def release_documents(self) -> None:
        """Let the wrapped model free what only document embedding needs (local providers)."""
        release = getattr(self.inner, "release_documents", None)
        if callable(release):
            release()

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()
