"""``Core``: the engine-side parts every surface builds the same way (``askdocs.app``).

Kept apart from ``askdocs.app`` so that MCP local mode, which builds the ``Core`` alone, does
not import the stored parts (admin operations, the database layer, Alembic): about 0.6 CPU
seconds of imports before its first answer (issue #18). The database is one of its parts,
opened (and migrated) on the first ``database()`` call, so the layer loads only for a
surface that uses it: the App's stored parts, MCP local mode's token check, the commands
that read accounts or Ask AI's records. The chat model is built on first use of ``chat``
(the App and MCP local mode use it at once, so a bad chat configuration fails at start;
``askdocs index`` never builds one).
"""

from __future__ import annotations

import threading
from functools import cached_property
from typing import TYPE_CHECKING

import anyio.to_thread

from askdocs.blocking import BlockingPool, pool_size
from askdocs.index.shared import Coordination
from askdocs.indexing import Indexer
from askdocs.indexing.state import IndexState, index_state
from askdocs.llm.registry import create_chat_model
from askdocs.llm.types import ChatModel
from askdocs.search.processes import SearchProcesses
from askdocs.service import AskDocs, SiteIndexStatus
from askdocs.settings import Settings, SiteConfig

if TYPE_CHECKING:  # the database layer loads on the first ``database()`` call
    from askdocs.db import Database

# The indexer is a daemon thread and builds are resumable (every embedded batch is kept), so
# shutdown waits only briefly for it: SIGTERM ends ``serve`` within 3 s even mid-batch.
SHUTDOWN_WAIT_SECONDS = 1.0


class Core:
    """The engine-side parts every surface builds the same way: the engine, the bounded pool,
    the chat model, the background indexer and the database. An engine passed in stays open
    on close."""

    def __init__(
        self,
        settings: Settings,
        *,
        engine: AskDocs | None = None,
        sites: list[SiteConfig] | None = None,
        coordination: Coordination | None = None,
    ) -> None:
        self.settings = settings
        self.engine = engine or AskDocs(settings, sites, coordination=coordination)
        self._owns_engine = engine is None
        self.pool = BlockingPool(pool_size(settings.server.search_concurrency))
        processes = settings.server.search_processes
        self.search_processes = SearchProcesses(processes) if processes else None
        if self.search_processes is not None:
            self.engine.search_processes = self.search_processes
        self.indexer = Indexer.from_settings(self.engine, settings.index)
        self._db: Database | None = None
        self._db_lock = threading.Lock()

    @cached_property
    def chat(self) -> ChatModel | None:
        """The configured chat model (``None`` when ``chat.provider`` is ``none``)."""
        return create_chat_model(self.settings.chat)

    def database(self) -> Database:
        """The data dir's database, opened and migrated on the first call (blocking)."""
        with self._db_lock:
            if self._db is None:
                from askdocs.db import Database

                self._db = Database.open(self.settings)
            return self._db

    def site_status(self, site_id: str) -> tuple[SiteIndexStatus, IndexState]:
        """The engine's status of ``site_id`` and its index state (blocking)."""
        status = self.engine.status(site_id)
        view = self.indexer.progress(site_id).view()
        return status, index_state(site_id, status.search, status.chunks, view)

    def index_state(self, site_id: str) -> IndexState:
        """What ``site_id``'s search reads now and how far its indexing is (blocking)."""
        return self.site_status(site_id)[1]

    def index_states(self) -> list[IndexState]:
        return [self.index_state(site.id) for site in self.engine.sites]

    async def stop_indexer(self, wait_seconds: float = SHUTDOWN_WAIT_SECONDS) -> None:
        await anyio.to_thread.run_sync(self.indexer.stop, wait_seconds)

    async def aclose(self, wait_seconds: float = SHUTDOWN_WAIT_SECONDS) -> None:
        await self.stop_indexer(wait_seconds)
        self.pool.close()
        if self.search_processes is not None:
            self.engine.search_processes = None
            self.search_processes.close()
        if self._owns_engine:
            self.engine.close()
        with self._db_lock:
            db, self._db = self._db, None
        if db is not None:
            db.close()
