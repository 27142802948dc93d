"""A retrieval sent to a search worker process (``askdocs.search.worker``) and how a worker
answers it. The job's class lives here, not in the worker's ``__main__``, so the server and
the worker unpickle it as the same class.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path

from askdocs.embeddings.query_cache import QueryCache
from askdocs.embeddings.registry import create_query_embedder
from askdocs.errors import AskDocsError
from askdocs.index import IndexStore, open_store
from askdocs.search.retrieval import Retriever, SearchRequest
from askdocs.settings import EmbeddingSettings, IndexSettings, SearchSettings, Settings
from askdocs.workers import Answer


@dataclass(frozen=True)
class SearchJob:
    """One retrieval: the settings it runs under (the embedding provider can change at run
    time, so every job carries them) and the request."""

    data_dir: Path
    index: IndexSettings
    embedding: EmbeddingSettings
    search: SearchSettings
    request: SearchRequest

    @classmethod
    def of(cls, settings: Settings, request: SearchRequest) -> SearchJob:
        """The parts of ``settings`` a retrieval reads (a loaded ``Settings`` is of a local
        class, which does not pickle)."""
        return cls(
            Path(settings.data_dir), settings.index, settings.embedding, settings.search, request
        )

    def full_settings(self) -> Settings:
        return Settings.model_construct(
            data_dir=self.data_dir, index=self.index, embedding=self.embedding, search=self.search
        )


@dataclass
class _Engine:
    store: IndexStore
    embedder: QueryCache | None


_ENGINES: dict[str, _Engine] = {}


def answer(job: object) -> Answer:
    if not isinstance(job, SearchJob):
        return ("error", "not a search job")
    try:
        engine = _engine(job)
        retriever = Retriever(engine.store, engine.embedder, job.search)
        return ("ok", retriever.search(job.request))
    except AskDocsError as exc:
        return ("failed", exc)
    except Exception as exc:  # a bug answers, it does not kill the worker
        return ("error", f"{type(exc).__name__}: {exc}")


def _engine(job: SearchJob) -> _Engine:
    """The store and embedder of the job's settings (one set per distinct settings; the
    key covers secrets too, so a changed API key opens a new embedder)."""
    key = hashlib.sha256(pickle.dumps((job.data_dir, job.index, job.embedding))).hexdigest()
    engine = _ENGINES.get(key)
    if engine is not None:
        return engine
    for old in _ENGINES.values():  # settings changed (a provider switch): let go
        old.store.close()
        if old.embedder is not None:
            old.embedder.close()  # a hosted provider's connections, a local model's session
    _ENGINES.clear()
    embedder = create_query_embedder(job.embedding)
    if embedder is not None:
        embedder.load()
    store = open_store(job.full_settings(), read_only=True)
    engine = _ENGINES[key] = _Engine(store, embedder)
    return engine
