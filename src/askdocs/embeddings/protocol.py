"""The Embedder protocol every provider implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]  # shape (n, dimension), L2-normalised rows


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into dense vectors. Documents and queries may embed differently."""

    @property
    def model_id(self) -> str:
        """A stable id of the model, e.g. ``local:all-MiniLM-L6-v2``; part of collection names."""
        ...

    @property
    def dimension(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Embed a batch of document texts (task RETRIEVAL_DOCUMENT where it applies)."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """Embed one query (task RETRIEVAL_QUERY where it applies); shape (1, dimension)."""
        ...
