"""The ``openai-compatible`` provider: ``POST {base_url}/embeddings`` as OpenAI defines it.

The same wire protocol is spoken by OpenAI, Ollama (``http://127.0.0.1:11434/v1``), vLLM,
the llama.cpp server and LM Studio. Request: ``{"model", "input": [...]}`` plus
``"dimensions"`` when a dimension is configured (and ``request_dimensions`` is on).
Response: ``{"data": [{"index", "embedding": [...]}, ...]}``, ordered here by ``index``.
"""

from __future__ import annotations

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

NAME = "openai-compatible"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
PROBE_TEXT = "dimension probe"


class OpenAICompatibleEmbedder:
    """Embeddings from any server that speaks OpenAI's ``/embeddings`` endpoint."""

    def __init__(
        self,
        *,
        model: str,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        dimension: int | None = None,
        request_dimensions: bool = True,
        batch_size: int = 32,
        timeout: float = 30.0,
        query_timeout: float = 5.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.model = model
        self.url = base_url.rstrip("/") + "/embeddings"
        self._headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        self._configured = dimension
        self._send_dimensions = request_dimensions and dimension is not None
        self._dimension = dimension
        self._batch_size = max(1, batch_size)
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
            self._embed([PROBE_TEXT], self._timeout)
        assert self._dimension is not None
        return self._dimension

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        size = self._batch_size
        parts = [
            self._embed(texts[i : i + size], self._timeout) for i in range(0, len(texts), size)
        ]
        return np.concatenate(parts)

    def embed_query(self, text: str) -> Vectors:
        return self._embed([text], self._query_timeout, retries=0)  # search falls back instead

    def close(self) -> None:
        self._client.close()

    def _embed(self, texts: Sequence[str], timeout: float, retries: int | None = None) -> Vectors:
        body: dict[str, object] = {"model": self.model, "input": [t or " " for t in texts]}
        if self._send_dimensions:
            body["dimensions"] = self._configured
        answer = self._client.post(
            self.url, body, headers=self._headers, timeout=timeout, retries=retries
        )
        rows = self._rows(answer, len(texts))
        vectors = to_unit_rows(rows, expected=len(texts), dimension=self._dimension, source=NAME)
        with self._lock:
            if self._dimension is None:
                self._dimension = int(vectors.shape[1])
        return vectors

    def _rows(self, answer: object, expected: int) -> list[object]:
        data = answer.get("data") if isinstance(answer, dict) else None
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            raise self._client.error(
                "response has no 'data' list", ErrorCode.EMBEDDING_BAD_RESPONSE
            )
        indexes = [item.get("index", position) for position, item in enumerate(data)]
        if not all(type(i) is int for i in indexes) or sorted(indexes) != list(range(len(data))):
            raise self._client.error(
                "response 'index' values are not 0..n-1", ErrorCode.EMBEDDING_BAD_RESPONSE
            )
        ordered = sorted(zip(indexes, data, strict=True), key=lambda pair: pair[0])
        return [item.get("embedding") for _, item in ordered]


def from_settings(settings: EmbeddingSettings) -> OpenAICompatibleEmbedder:
    if not settings.model:
        raise ConfigError(
            "embedding provider openai-compatible needs a model "
            "(ASKDOCS_EMBEDDING__MODEL, e.g. text-embedding-3-small or nomic-embed-text)"
        )
    key = settings.api_key.get_secret_value() if settings.api_key else None
    return OpenAICompatibleEmbedder(
        model=settings.model,
        base_url=settings.base_url or DEFAULT_BASE_URL,
        api_key=key or None,
        dimension=settings.dimension,
        request_dimensions=settings.request_dimensions,
        batch_size=settings.batch_size,
        timeout=settings.timeout_seconds,
        query_timeout=settings.query_timeout_seconds,
        retry=RetryPolicy.of(settings),
    )
