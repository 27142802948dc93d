"""Retries with jittered exponential back-off, and a cap on concurrent requests, for the
hosted embedding providers.

A rate limit (429), a timeout, a refused or broken connection and a server error (5xx)
are retried up to ``embedding.max_retries`` times; the wait before retry ``n`` is drawn
uniformly from ``[0, min(retry_max_seconds, retry_base_seconds * 2**n)]`` ("full
jitter"), or the provider's ``Retry-After`` when it names one (capped the same way). At
most ``embedding.max_concurrent_requests`` requests to one provider are in flight at once.
Query embeddings are never retried: a search falls back to keyword-only instead.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

from askdocs.errors import EmbeddingError
from askdocs.settings import EmbeddingSettings


class Transient(Exception):
    """A failure worth retrying: the error to raise if no retry is left, and the wait the
    provider asked for (seconds), if any."""

    def __init__(self, error: EmbeddingError, retry_after: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.retry_after = retry_after


@dataclass
class RetryPolicy:
    max_retries: int = 4
    base_seconds: float = 1.0
    max_seconds: float = 30.0
    max_concurrent: int = 2
    rng: random.Random = field(default_factory=random.Random, repr=False)

    @classmethod
    def of(cls, settings: EmbeddingSettings) -> RetryPolicy:
        return cls(
            settings.max_retries,
            settings.retry_base_seconds,
            settings.retry_max_seconds,
            settings.max_concurrent_requests,
        )

    def delay(self, retry: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number ``retry`` (0-based)."""
        if retry_after is not None and retry_after >= 0:
            return min(self.max_seconds, retry_after)
        ceiling = min(self.max_seconds, self.base_seconds * (2**retry))
        return self.rng.uniform(0, ceiling)

    def slots(self) -> threading.BoundedSemaphore:
        return threading.BoundedSemaphore(max(1, self.max_concurrent))


def parse_retry_after(value: str | None) -> float | None:
    """``Retry-After`` in seconds (the HTTP-date form is ignored)."""
    if not value:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if seconds >= 0 else None
