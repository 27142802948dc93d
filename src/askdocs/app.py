"""``App``: the composition root. Built once from ``Settings``; every part is made here.

The HTTP app (``server.app.create_app``) and the CLI build one ``App`` and reach its parts;
MCP local mode builds the ``Core`` alone (the engine-side subset), the same way. No part is
built anywhere else and no module keeps mutable state of its own. The parts:

- the ``Core``: ``engine`` (``AskDocs``), with the ``catalog`` of sites and the activity
  ``monitor``; ``pool``, the bounded pool for blocking engine work (searches, corpus reads);
  ``chat``, the configured chat model (``None`` when ``chat.provider`` is ``none``; what
  ``current_chat`` falls back to when no stored provider is active); ``indexer``, the one
  background indexer (``askdocs.indexing.Indexer``) that runs the server's periodic check
  (started by ``start()`` when ``server.index_in_background`` is on), MCP local mode's
  start-up runs and the admin re-index;
- ``ready_pool``: a bounded pool kept for ``/readyz`` alone;
- ``limiter``, ``bot_check``, ``visitor_key``: Ask AI's guards;
- ``search_execution``: the search route's per-account admission, deadline, cancellation
  and metrics (``askdocs.search.execution``);
- ``keys``: the install's signing keys (``askdocs.keys``; configured, else in the
  database) and ``tokens``, the confirmation tokens made with them;
- ``reader``: the docs reader and its render workers;
- the stored parts, which need the database (the ``Core``'s, ``core.database()``): ``db``,
  ``admin`` (the admin operations, handed the one indexer and token service), ``assistant``
  (the assistant runtime). They open in ``start()``, or on first use when nothing called
  ``start()`` (tests that drive the ASGI app without its lifespan);
- ``changes``: the watcher (``askdocs.replicas``) that re-reads the sites, providers and
  keys when another replica changed them (started by ``start()``).

``aclose()`` releases everything in reverse order; an engine passed in stays open.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

import anyio.to_thread

from askdocs.admin.active import ChatChoice
from askdocs.admin.api import AdminApi
from askdocs.assistant.runtime import AssistantRuntime
from askdocs.assistant.toolset import ToolDeps
from askdocs.blocking import BlockingPool
from askdocs.confirm.service import ConfirmationTokens
from askdocs.core import Core
from askdocs.db import Database
from askdocs.guard.botcheck import BotCheck, create_bot_check
from askdocs.guard.limiter import Limiter, open_limits_store
from askdocs.indexing import Indexer
from askdocs.keys import KEY_NAMES, KeyRing, SecretBox
from askdocs.reader.control import DocsReader
from askdocs.replicas.changes import ChangeWatcher
from askdocs.replicas.locks import IndexCoordination
from askdocs.search.execution import SearchExecution
from askdocs.service import AskDocs
from askdocs.settings import Settings
from askdocs.sites import SiteCatalog

log = logging.getLogger(__name__)
READY_THREADS = 2


@dataclass(frozen=True)
class Stored:
    """The parts that live in the database."""

    db: Database
    admin: AdminApi
    assistant: AssistantRuntime


class App:
    """Everything one askdocs process runs, built once. ``await start()``, ``await aclose()``."""

    def __init__(self, settings: Settings, *, engine: AskDocs | None = None) -> None:
        self.settings = settings
        # a shared Qdrant server's install id and build lock, from the database
        self.coordination = IndexCoordination(settings, lambda: self.stored().db)
        self.core = Core(settings, engine=engine, coordination=self.coordination)
        self.engine, self.pool, self.chat = self.core.engine, self.core.pool, self.core.chat
        self.indexer: Indexer = self.core.indexer
        self.ready_pool = BlockingPool(READY_THREADS, "askdocs-ready")  # /readyz's own lane
        self.limiter = Limiter(open_limits_store(settings), settings)
        self.search_execution = SearchExecution(settings.search, self.limiter, self.pool)
        self.reader = DocsReader(settings)
        self.secrets = SecretBox.from_settings(settings)
        self.keys = KeyRing(settings, lambda: self.stored().db, self.secrets)
        self.bot_check: BotCheck = create_bot_check(settings, self.limiter.store, self.keys)
        self.tokens = ConfirmationTokens(self.keys)
        self.changes: ChangeWatcher | None = None
        self._stored: Stored | None = None
        self._stored_lock = threading.Lock()
        self.warm_thread: threading.Thread | None = None  # the engine's warm-up (start())
        self.http_warming = threading.Event()  # set while the server warms its search route

    @property
    def warming_up(self) -> bool:
        """Whether the model, or the HTTP search path, is still warming up (``/readyz``)."""
        return self.engine.warming_up or self.http_warming.is_set()

    @property
    def catalog(self) -> SiteCatalog:
        return self.engine.catalog

    @property
    def visitor_key(self) -> bytes:
        """The key of the visitor hash (blocking on first use: it may read the database)."""
        return self.keys.signing("visitor").secret

    async def visitor_secret(self) -> bytes:
        """``visitor_key`` without blocking the event loop when it must be read."""
        known = self.keys.peek("visitor")
        if known is not None:
            return known.secret
        return await anyio.to_thread.run_sync(lambda: self.visitor_key)

    # -- the stored parts ------------------------------------------------------------------

    def stored(self) -> Stored:
        """The database parts, opened (and migrated) on first call. Blocking."""
        with self._stored_lock:
            if self._stored is None:
                self._stored = self._open_stored()
            return self._stored

    async def stored_parts(self) -> Stored:
        if self._stored is not None:
            return self._stored
        return await anyio.to_thread.run_sync(self.stored)

    def _open_stored(self) -> Stored:
        db = self.core.database()
        admin = AdminApi(
            self.settings,
            self.engine,
            db,
            tokens=self.tokens,
            indexer=self.indexer,
            chat=self.chat,
            embedding_changed=self.indexer.trigger,
            secrets=self.secrets,
        )
        admin.sync_sites()
        admin.sync_providers()
        deps = ToolDeps(self.settings, self.engine, db, admin, self.pool)
        return Stored(db, admin, AssistantRuntime.build(deps, self.chat, keys=self.keys))

    def watch_changes(self) -> ChangeWatcher:
        """The watcher of other replicas' changes: sites, providers, then the keys (blocking:
        it reads the change version)."""
        admin = self.stored().admin
        listeners = (admin.sync_sites, admin.sync_providers, self.keys.reload)
        interval = self.settings.server.change_poll_seconds
        return ChangeWatcher(self.stored().db, interval, listeners)

    async def current_chat(self) -> ChatChoice:
        """The chat model to answer with now: the active stored chat provider, else the
        configured one (``ActiveProviders.chat``, the one resolver the assistant's turns use
        too), read on every call, so an admin's switch takes effect on the next question.
        The configured model when the database cannot be read (logged): Ask AI still
        answers."""
        try:
            stored = await self.stored_parts()
            return await anyio.to_thread.run_sync(stored.admin.active.chat)
        except Exception as exc:
            log.warning("stored chat provider unavailable: %s", type(exc).__name__)
            return ChatChoice(self.chat, self.settings.chat.provider, "settings")

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        self.warm_thread = self.engine.start_warm_up()  # the model loads while the db opens
        self.reader.start_workers()  # the first reader request finds its workers ready
        stored = await self.stored_parts()
        stored.assistant.start_pulse()  # sweeps turns a stopped replica left running
        await anyio.to_thread.run_sync(self._load_keys)
        self.changes = await anyio.to_thread.run_sync(self.watch_changes)
        self.changes.start()
        if self.settings.server.index_in_background:
            self.indexer.start()

    def _load_keys(self) -> None:
        """Read (or make) every key now, so no request waits for the database for one."""
        for name in KEY_NAMES:
            self.keys.signing(name)

    async def aclose(self) -> None:
        changes, self.changes = self.changes, None
        if changes is not None:
            await anyio.to_thread.run_sync(changes.stop)
        await self.limiter.close()
        await self.core.stop_indexer()
        stored, self._stored = self._stored, None
        if stored is not None:
            await stored.assistant.close()
        self.reader.close()
        self.ready_pool.close()
        await self.core.aclose()
