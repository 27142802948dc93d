"""``IndexState``: what one site's search can do now and how far its indexing is, in the
words every surface uses (``askdocs serve``'s progress, ``/readyz`` detail, the search
answer's banner, the admin Sites tab). Pure: built from the engine's status of the site
and the indexer's progress view.

A site moves through three stages: nothing searchable yet (the docs are being read and a
keyword index built, seconds), keyword search while its sections are embedded (minutes on
a large tree), then hybrid search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from askdocs.indexing.progress import ProgressView

Search = Literal["none", "keyword", "hybrid"]


@dataclass(frozen=True)
class IndexState:
    site: str
    search: Search  # what a search of the site reads now
    embedding: bool  # its sections are being embedded now
    embedded: int  # sections embedded so far in this run
    total: int  # sections this run embeds
    error: str | None = None  # the last run's error, if it failed
    sections: int = 0  # sections the search reads now

    @property
    def share(self) -> int:
        return 100 * self.embedded // self.total if self.total else 0

    def describe(self) -> str:
        """One line for people: what works now and what is still to come."""
        if self.embedding and self.total:
            counted = f"{self.embedded:,} of {self.total:,} sections are embedded ({self.share}%)"
            if self.search == "hybrid":
                return f"hybrid search ready; re-embedding: {counted}"
            return f"searching by keyword while {counted}"
        if self.search == "hybrid":
            return f"hybrid search ready ({self.sections:,} sections)"
        if self.error is not None:
            return f"indexing failed: {self.error}"
        if self.search == "keyword":
            return (
                "keyword search ready; embedding starts"
                if self.embedding
                else "keyword search only"
            )
        return "reading the docs and building the keyword index"


def index_state(site: str, search: Search, sections: int, view: ProgressView) -> IndexState:
    """The state of ``site`` from what its search reads and its indexing progress. A run
    whose every section is embedded and swapped in is no longer embedding (it is only
    finishing its bookkeeping)."""
    finished = search == "hybrid" and view.total > 0 and view.done >= view.total
    embedding = view.phase in ("queued", "running") and not finished
    error = view.error if view.phase == "failed" else None
    return IndexState(site, search, embedding, view.done, view.total, error, sections)
