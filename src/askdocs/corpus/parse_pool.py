"""Parsing with a time budget: a page's Markdown structure is parsed in a worker process
that can be killed (``askdocs.workers``; the worker is ``python -m
askdocs.corpus.parse_worker``), so a pathological page cannot stall a catalog read.

Some Markdown (tens of thousands of headings, deeply nested lists, long tables) takes
markdown-it seconds to tens of seconds to parse. A page longer than
``IN_PROCESS_MAX_CHARS`` is parsed in the worker; one that outlives the budget becomes a
bad file (``PageError``: "parsing took longer than N s"), left out and listed like any
other, and stays so until the file changes. Shorter pages are parsed in the calling
process: at that size the worst known input parses in well under 0.1 s, and most pages of
a docs tree (and of the tests) never need a worker.
"""

from __future__ import annotations

from dataclasses import dataclass

from askdocs.corpus.dialects.includes import Included
from askdocs.corpus.documents import ParseOptions, SourceDoc, parse_document
from askdocs.errors import CorpusError
from askdocs.workers import WorkerFailed, WorkerPool, WorkerTimeout

IN_PROCESS_MAX_CHARS = 8 * 1024


@dataclass(frozen=True)
class ParseJob:
    text: str
    rel: str
    options: ParseOptions
    included: Included | None


class ParsePool:
    """``parse_document`` bounded by ``timeout`` seconds per page (see the module text)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._pool = WorkerPool(
            "askdocs.corpus.parse_worker", [], workers=1, timeout=timeout, name="parse"
        )

    def parse(
        self, text: str, rel: str, options: ParseOptions, included: Included | None = None
    ) -> SourceDoc:
        """Like ``parse_document``; every failure is a ``CorpusError`` (a bad file)."""
        if len(text) <= IN_PROCESS_MAX_CHARS:
            return parse_document(text, rel, options, included)
        try:
            status, value = self._pool.call(ParseJob(text, rel, options, included))
        except WorkerTimeout:
            raise CorpusError(rel, f"parsing took longer than {self.timeout:g} s") from None
        except WorkerFailed as exc:
            raise CorpusError(rel, f"parsing failed: {exc}") from None
        if status == "ok" and isinstance(value, SourceDoc):
            return value
        raise CorpusError(rel, str(value))

    def start_soon(self) -> None:
        """Start the worker in the background now, before a long page needs it."""
        self._pool.start_soon()

    @property
    def workers_started(self) -> int:
        return self._pool.started

    def idle_worker_pids(self) -> list[int]:
        return self._pool.idle_worker_pids()

    def close(self) -> None:
        self._pool.close()
