"""The ``local`` providers: a MiniLM-L6 encoder bundled with askdocs, run on onnxruntime.

Nothing leaves the host and nothing is downloaded: the weights come from the installed
companion package of the model ``embedding.model`` names
(:mod:`askdocs.embeddings.local_models`: all-MiniLM-L6-v2 by default, or askdocs's
docs-tuned minilm-l6-docs). Documents and queries go through the same tokenizer and graph
(the model has no task prefixes). Texts are truncated at 256 tokens, as
sentence-transformers does.
``local`` runs the float32 weights; ``local-int8`` the same graph with int8 weights (one
scale per output channel), a separate model id and so a separate collection.

Queries run on a session of their own: ``query_precision`` (default: the documents' one;
the service passes ``embedding.query_precision``) and ``query_threads`` (default one
thread: a query is ~25 tokens, a second thread costs more in hand-offs than it saves, and
the search pool runs one query per core side by side). An int8 query session against
float32 document vectors leaves the collection, and its model id, unchanged. The document
session is opened only when documents are embedded, so a server whose index is current
never holds the float32 weights, and ``release_documents()`` frees it after an indexing
run.

All the texts of one call are sorted by token length before they are cut into batches,
and the vectors are returned in input order: a batch pads only to its own longest text.

Other benchmarks and tools may use :class:`LocalEmbedder` directly::

    from askdocs.embeddings.local import LocalEmbedder
    vectors = LocalEmbedder(threads=2).embed_documents(["How do I add CORS?"])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from tokenizers import Encoding

from askdocs.blocking import usable_cpus
from askdocs.embeddings import local_models
from askdocs.embeddings.local_model import (
    EncoderRuntime,
    ModelConfig,
    load_runtime,
    read_config,
    release_runtime,
    shared_tokenizer,
)
from askdocs.embeddings.local_models import DEFAULT, MINILM, LocalModel, find_model
from askdocs.embeddings.protocol import Vectors
from askdocs.embeddings.variants import Precision
from askdocs.settings import EmbeddingSettings

MODEL_NAME = MINILM.name
MODEL_ID = f"local:{MODEL_NAME}"  # search/threshold.py keys its calibrated value on this
INT8_MODEL_ID = f"{MODEL_ID}-int8"
BATCH_SIZE = 16  # texts per onnxruntime call; measured faster than 32 or 64 on CPU
QUERY_THREADS = 1


class LocalEmbedder:
    """A local MiniLM-L6 (384 dimensions) on onnxruntime; the model loads on first use."""

    def __init__(
        self,
        *,
        model: LocalModel = DEFAULT,
        threads: int | None = None,
        model_dir: Path | None = None,
        batch_size: int = BATCH_SIZE,
        fused: bool | None = None,
        precision: Precision = "fp32",
        cache_dir: Path | None = None,
        query_precision: Precision | None = None,
        query_threads: int = QUERY_THREADS,
    ) -> None:
        """``model``: which local model (its folder is ``model_dir`` when given).
        ``fused``: None picks the fastest graph the runtime supports (see bert_graph).
        ``cache_dir``: where the compiled model file is kept between starts.
        ``query_precision``: the query session's weights (None: ``precision``)."""
        self._model = model
        self._threads = threads
        self._precision: Precision = precision
        self._query_precision: Precision = query_precision or precision
        self._query_threads = max(1, query_threads)
        self._cache_dir = cache_dir
        self._fused = fused
        self._model_dir = model_dir
        self._batch_size = max(1, batch_size)
        self._config: ModelConfig | None = None

    @property
    def model_id(self) -> str:
        """``local:<name>``, ``-int8`` added for int8 documents: each its own collections."""
        base = f"local:{self._model.name}"
        return f"{base}-int8" if self._precision == "int8" else base

    @property
    def query_model_id(self) -> str:
        """What query vectors come from (the query cache keys on it)."""
        return f"{self.model_id}|query-{self._query_precision}"

    @property
    def dimension(self) -> int:
        if self._config is None:
            self._config = read_config(self.model_dir)
        return self._config.dimension

    @property
    def model_dir(self) -> Path:
        if self._model_dir is None:
            self._model_dir = local_models.model_dir(self._model)
        return self._model_dir

    def load(self) -> None:
        """Open the query session now instead of on the first search (the document
        session opens on the first ``embed_documents`` call that has texts)."""
        self._query_runtime()

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        runtime = self._runtime()
        encodings = runtime.tokenizer.encode_batch(list(texts))
        out = np.empty((len(texts), runtime.config.dimension), dtype=np.float32)
        for rows in _length_sorted_batches(encodings, self._batch_size):
            ids, mask = pad_batch([encodings[i] for i in rows], runtime.pad_id)
            out[rows] = runtime.run(ids, mask)
        return out

    def embed_query(self, text: str) -> Vectors:
        runtime = self._query_runtime()
        row = np.asarray([runtime.tokenizer.encode(text).ids], dtype=np.int64)
        return runtime.run(row, np.ones_like(row))

    def release_documents(self) -> None:
        """Free the document session (its weights and its arena, some 250 MB for float32
        after batches of long texts) when queries do not share it; the next
        ``embed_documents`` opens it again from the compiled file (about 0.1 s)."""
        if (self._threads or usable_cpus(), self._precision) == (
            self._query_threads,
            self._query_precision,
        ):
            return
        release_runtime(self.model_dir, self._threads, fused=self._fused, precision=self._precision)

    def token_lengths(self, texts: Sequence[str]) -> list[int]:
        """Each text's length in model tokens after truncation (the builder sorts by it)."""
        tokenizer = shared_tokenizer(self.model_dir)  # no session needed to count
        return [len(e.ids) for e in tokenizer.encode_batch(list(texts))]

    def _runtime(self) -> EncoderRuntime:
        return load_runtime(
            self.model_dir,
            self._threads,
            fused=self._fused,
            precision=self._precision,
            cache_dir=self._cache_dir,
            stem=self._model.stem,
        )

    def _query_runtime(self) -> EncoderRuntime:
        return load_runtime(
            self.model_dir,
            self._query_threads,
            fused=self._fused,
            precision=self._query_precision,
            cache_dir=self._cache_dir,
            stem=self._model.stem,
        )


def _length_sorted_batches(encodings: Sequence[Encoding], size: int) -> Iterator[list[int]]:
    """Row indices in batches of similar token length, so each batch pads little."""
    order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
    for start in range(0, len(order), size):
        yield order[start : start + size]


def pad_batch(
    encodings: Sequence[Encoding], pad_id: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``input_ids`` and ``attention_mask`` padded to the batch's longest sequence."""
    width = max(len(e.ids) for e in encodings)
    ids = np.full((len(encodings), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(encodings), width), dtype=np.int64)
    for row, encoding in enumerate(encodings):
        ids[row, : len(encoding.ids)] = encoding.ids
        mask[row, : len(encoding.ids)] = 1
    return ids, mask


def from_settings(settings: EmbeddingSettings, precision: Precision = "fp32") -> LocalEmbedder:
    """``embedding.model``: one of ``local_models.MODELS`` (unset: the default one).
    ``embedding.query_precision``: ``auto`` is int8 queries (see docs/embeddings.md)."""
    model = find_model(settings.model)
    query: Precision = "int8" if settings.query_precision == "auto" else settings.query_precision
    return LocalEmbedder(
        model=model,
        threads=settings.threads,
        precision=precision,
        cache_dir=settings.cache_dir,
        query_precision=query,
        query_threads=settings.query_threads or QUERY_THREADS,
    )
