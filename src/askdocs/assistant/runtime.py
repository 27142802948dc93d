"""Everything the assistant needs in one process: storage, the model, tools, in-flight turns.

Built once by the application object (``askdocs.app.App``) and closed at shutdown; routes
reach it through a FastAPI dependency. Turns run as tasks owned here, not by the request
that started them, and are registered in the database under this process's ``replica``
name (``askdocs.assistant.turnlog``). The pulse renews their heartbeat every
``assistant.turn_heartbeat_seconds`` and sweeps the turns other replicas lost; at shutdown
the turns still running here are written down as interrupted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio

from askdocs.admin.active import ChatChoice
from askdocs.assistant.registry import TurnRegistry
from askdocs.assistant.site_access import usable_site
from askdocs.assistant.store import ThreadStore
from askdocs.assistant.tools import ToolRegistry
from askdocs.assistant.toolset import ToolDeps, build_registry, offered_tools
from askdocs.assistant.turnlog import TurnLog, replica_name
from askdocs.assistant.types import Identity, Membership
from askdocs.blocking import BlockingPool
from askdocs.db import Database
from askdocs.indexing import ActivityMonitor
from askdocs.keys import KeyRing
from askdocs.llm.types import ChatModel
from askdocs.service import AskDocs
from askdocs.settings import Settings
from askdocs.users.service import UserService

log = logging.getLogger(__name__)


@dataclass
class AssistantRuntime:
    settings: Settings
    service: AskDocs
    db: Database
    model: ChatModel | None
    tools: ToolRegistry
    pool: BlockingPool
    turns: TurnRegistry = field(default_factory=TurnRegistry)
    owns_db: bool = False
    chooser: Callable[[], ChatChoice] | None = None  # the chat provider in use, per turn
    keys: KeyRing | None = None  # the App's; None: a ring of its own over ``db``
    replica: str = field(default_factory=replica_name)  # this process, in assistant_turns
    _pulse: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    @property
    def monitor(self) -> ActivityMonitor:
        """The service's process-wide count of interactive turns (the indexer yields to it)."""
        return self.service.monitor

    @classmethod
    def build(
        cls,
        deps: ToolDeps,
        model: ChatModel | None,
        *,
        owns_db: bool = False,
        keys: KeyRing | None = None,
    ) -> AssistantRuntime:
        runtime = cls(deps.settings, deps.service, deps.db, model, build_registry(deps), deps.pool)
        runtime.owns_db = owns_db
        runtime.chooser = deps.admin.active.chat
        runtime.keys = keys or KeyRing(deps.settings, lambda: deps.db, deps.admin.env.secrets)
        return runtime

    def current_chat(self) -> ChatChoice:
        """The chat model of this turn: the active stored provider, else the configured one
        (blocking: reads the database)."""
        if self.chooser is not None:
            return self.chooser()
        return ChatChoice(self.model, self.provider, "settings")

    @property
    def threads(self) -> ThreadStore:
        return ThreadStore(self.db)

    @property
    def turn_log(self) -> TurnLog:
        return TurnLog(self.db, self.settings.assistant.turn_lost_seconds)

    def start_pulse(self) -> None:
        """Start the heartbeat and sweep of turns (idempotent; needs a running loop)."""
        if self._pulse is None or self._pulse.done():
            self._pulse = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        every, failing = self.settings.assistant.turn_heartbeat_seconds, False
        while True:
            try:
                await self._beat_once()
                failing = False
            except Exception as exc:  # the database is down: the next beat tries again
                if not failing:
                    log.warning("assistant turn heartbeat failed: %s", type(exc).__name__)
                failing = True
            await asyncio.sleep(every)

    async def _beat_once(self) -> None:
        turns = self.turn_log
        if ids := self.turns.turn_ids():
            await anyio.to_thread.run_sync(turns.beat, ids)
        lost = await anyio.to_thread.run_sync(turns.sweep)
        if lost:
            log.warning("%d assistant turn(s) lost their replica: interrupted", lost)

    @property
    def users(self) -> UserService:
        return UserService(self.db)

    @property
    def provider(self) -> str:
        return self.settings.chat.provider

    def visible_site(self, user_id: str, site_id: str | None) -> str | None:
        """A site id ``user_id`` may use as context, or None (dropped like an unknown id):
        a public site, or a site of an organisation the caller belongs to, re-read from the
        database on every call (blocking: run it in a worker thread)."""
        if site_id is None:
            return None
        with self.db.session() as session:
            return usable_site(session, self.service.catalog, user_id, site_id)

    def identity(self, user_id: str) -> Identity | None:
        """Who ``user_id`` is now, from the user row and memberships (blocking); None for a
        user that no longer exists."""
        users = self.users
        user = users.get(user_id)
        if user is None:
            return None
        memberships = tuple(Membership(org.name, role) for org, role in users.memberships(user_id))
        return Identity(user.display_name, user.email, user.platform_admin, memberships)

    def tools_for(self, user_id: str) -> ToolRegistry:
        """The tools ``user_id`` is offered now (blocking: run it in a worker thread)."""
        return offered_tools(self.tools, self.db, user_id)

    def docs_site(self, site_id: str | None) -> str | None:
        """The site the assistant searches: configured, else the caller's, else the default."""
        if self.settings.assistant.docs_site:
            return self.settings.assistant.docs_site
        if site_id is not None:
            return site_id
        return self.service.sites[0].id if self.service.sites else None

    async def close(self) -> None:
        if self._pulse is not None:
            self._pulse.cancel()
            await asyncio.gather(self._pulse, return_exceptions=True)
        tasks = self.turns.tasks()
        for task in tasks:
            task.cancel()
        if tasks:
            log.warning("shutting down with %d assistant turn(s) in flight", len(tasks))
            await asyncio.gather(*tasks, return_exceptions=True)
            try:  # every other replica shows them interrupted now, not after the bound
                await anyio.to_thread.run_sync(self.turn_log.end_replica, self.replica)
            except Exception as exc:
                log.warning("could not mark this replica's turns interrupted: %s", exc)
        if self.owns_db:
            self.db.close()
