"""The ``gemini`` provider: the Gemini API's ``batchEmbedContents`` endpoint.

``POST {base}/v1beta/models/{model}:batchEmbedContents`` with header ``x-goog-api-key``
and one request per text: ``{"model": "models/{model}", "content": {"parts": [{"text"}]},
"taskType": "RETRIEVAL_DOCUMENT" | "RETRIEVAL_QUERY", "outputDimensionality": n}``.
The answer is ``{"embeddings": [{"values": [...]}, ...]}`` in request order. Truncated
dimensions are not unit length, so every vector is normalised.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

import numpy as np

from askdocs.embeddings.protocol import Vectors
from askdocs.embeddings.remote import JsonClient
from askdocs.embeddings.remote_retry import RetryPolicy
from askdocs.embeddings.vectors import to_unit_rows
from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError
from askdocs.settings import EmbeddingSettings

NAME = "gemini"
DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
DEFAULT_MODEL = "gemini-embedding-001"
MAX_BATCH = 100  # the API's limit of requests per batchEmbedContents call
DOCUMENT, QUERY = "RETRIEVAL_DOCUMENT", "RETRIEVAL_QUERY"
PROBE_TEXT = "dimension probe"
_MODEL_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class GeminiEmbedder:
    """Gemini embeddings with retrieval task types for documents and queries."""

    def __init__(
        self,
        *,
        api_key: str,
        model: str = DEFAULT_MODEL,
        base_url: str = DEFAULT_BASE_URL,
        dimension: int | None = None,
        request_dimensions: bool = True,
        batch_size: int = MAX_BATCH,
        timeout: float = 30.0,
        query_timeout: float = 5.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.model = model.removeprefix("models/")
        if not _MODEL_NAME.match(self.model):
            raise ConfigError(f"invalid Gemini model name: {model!r}")
        self.url = f"{_api_root(base_url)}/models/{self.model}:batchEmbedContents"
        self._headers = {"x-goog-api-key": api_key}
        self._configured = dimension
        self._send_dimensions = request_dimensions and dimension is not None
        self._dimension = dimension
        self._batch_size = min(max(1, batch_size), MAX_BATCH)
        self._timeout, self._query_timeout = timeout, query_timeout
        self._client = JsonClient(NAME, secret=api_key, retry=retry)
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        suffix = f"@{self._configured}" if self._configured else ""
        return f"{NAME}:{self.model}{suffix}"

    @property
    def dimension(self) -> int:
        """The configured dimension, else learnt from the first answer (one probe if needed)."""
        if self._dimension is None:
            self._embed([PROBE_TEXT], QUERY, self._timeout)
        assert self._dimension is not None
        return self._dimension

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        size = self._batch_size
        parts = [
            self._embed(texts[i : i + size], DOCUMENT, self._timeout)
            for i in range(0, len(texts), size)
        ]
        return np.concatenate(parts)

    def embed_query(self, text: str) -> Vectors:
        return self._embed([text], QUERY, self._query_timeout, retries=0)  # no retry for search

    def close(self) -> None:
        self._client.close()

    def _embed(
        self, texts: Sequence[str], task: str, timeout: float, retries: int | None = None
    ) -> Vectors:
        body = {"requests": [self._request(text, task) for text in texts]}
        answer = self._client.post(
            self.url, body, headers=self._headers, timeout=timeout, retries=retries
        )
        rows = self._rows(answer)
        vectors = to_unit_rows(rows, expected=len(texts), dimension=self._dimension, source=NAME)
        with self._lock:
            if self._dimension is None:
                self._dimension = int(vectors.shape[1])
        return vectors

    def _request(self, text: str, task: str) -> dict[str, object]:
        request: dict[str, object] = {
            "model": f"models/{self.model}",
            "content": {"parts": [{"text": text or " "}]},
            "taskType": task,
        }
        if self._send_dimensions:
            request["outputDimensionality"] = self._configured
        return request

    def _rows(self, answer: object) -> list[object]:
        items = answer.get("embeddings") if isinstance(answer, dict) else None
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise self._client.error(
                "response has no 'embeddings' list", ErrorCode.EMBEDDING_BAD_RESPONSE
            )
        return [item.get("values") for item in items]


def _api_root(base_url: str) -> str:
    """``{base}/v1beta`` unless the configured base already names an API version."""
    base = base_url.rstrip("/")
    return base if base.rsplit("/", 1)[-1] in {"v1", "v1beta"} else f"{base}/v1beta"


def from_settings(settings: EmbeddingSettings) -> GeminiEmbedder:
    key = settings.api_key.get_secret_value() if settings.api_key else ""
    if not key:
        raise ConfigError("embedding provider gemini needs an API key (ASKDOCS_EMBEDDING__API_KEY)")
    return GeminiEmbedder(
        api_key=key,
        model=settings.model or DEFAULT_MODEL,
        base_url=settings.base_url or DEFAULT_BASE_URL,
        dimension=settings.dimension,
        request_dimensions=settings.request_dimensions,
        batch_size=settings.batch_size,
        timeout=settings.timeout_seconds,
        query_timeout=settings.query_timeout_seconds,
        retry=RetryPolicy.of(settings),
    )
