"""Resumable builds: every embedded batch is kept on disk until its collection is current.

A build writes each batch's dense vectors here (one SQLite file per model,
``<data_dir>/index/resume-<model-key>.sqlite``, committed per batch) before it upserts
them. When a build fails or the process is killed, the next build of the same model looks
each chunk's ``embed_hash`` up here first and embeds only what is missing. The file is
emptied once a build's collection is sealed and current.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import numpy as np

from askdocs.errors import VectorStoreError
from askdocs.index.backend import FloatArray
from askdocs.sqlite_wal import enable_wal

_SCHEMA = "CREATE TABLE IF NOT EXISTS vectors (embed_hash TEXT PRIMARY KEY, vector BLOB)"
_LOOKUP_BATCH = 500


class ResumeCache:
    """Dense vectors by ``embed_hash`` for one model (``dimension`` floats each)."""

    def __init__(self, path: Path, dimension: int) -> None:
        self.path = path
        self.dimension = dimension

    def get(self, hashes: Iterable[str]) -> dict[str, FloatArray]:
        wanted = sorted(set(hashes))
        if not wanted or not self.path.exists():
            return {}
        found: dict[str, FloatArray] = {}
        with self._connect() as db:
            for start in range(0, len(wanted), _LOOKUP_BATCH):
                part = wanted[start : start + _LOOKUP_BATCH]
                marks = ",".join("?" * len(part))
                query = f"SELECT embed_hash, vector FROM vectors WHERE embed_hash IN ({marks})"  # noqa: S608
                found.update(self._decoded(db.execute(query, part)))
        return found

    def put(self, vectors: Mapping[str, FloatArray]) -> None:
        rows = [(h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in vectors.items()]
        with self._connect() as db:
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)

    def clear(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def __len__(self) -> int:
        if not self.path.exists():
            return 0
        with self._connect() as db:
            return int(db.execute("SELECT count(*) FROM vectors").fetchone()[0])

    def _decoded(self, rows: Iterable[tuple[str, bytes]]) -> Iterator[tuple[str, FloatArray]]:
        for embed_hash, blob in rows:
            vector = np.frombuffer(blob, dtype=np.float32)
            if vector.shape == (self.dimension,):
                yield embed_hash, vector

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise VectorStoreError(f"cannot open the resume file {self.path}: {exc}") from exc
        try:
            enable_wal(db)
            db.execute("PRAGMA synchronous=FULL")
            db.execute(_SCHEMA)
            db.execute("BEGIN")
            yield db
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise VectorStoreError(f"the resume file {self.path} failed: {exc}") from exc
        finally:
            db.close()


def resume_cache(folder: Path | None, model_key: str, dimension: int | None) -> ResumeCache | None:
    """The model's resume file in ``folder``; None without a folder or for keyword-only."""
    if folder is None or not dimension:
        return None
    return ResumeCache(folder / f"resume-{model_key}.sqlite", dimension)
