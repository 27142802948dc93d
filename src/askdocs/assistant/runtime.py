"""Everything the assistant needs in one process: storage, the model, tools, in-flight turns.

Built once per app (``AssistantRuntime.build``) and closed at shutdown; routes reach it via
``app.state``. Turns run as tasks owned here, not by the request that started them.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from askdocs.assistant.registry import TurnRegistry
from askdocs.assistant.site_access import usable_site
from askdocs.assistant.store import ThreadStore
from askdocs.assistant.tools import ToolRegistry
from askdocs.assistant.toolset import ToolDeps, build_registry, offered_tools
from askdocs.db import Database
from askdocs.indexing import ActivityMonitor
from askdocs.llm.registry import create_chat_model
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
    turns: TurnRegistry = field(default_factory=TurnRegistry)

    @property
    def monitor(self) -> ActivityMonitor:
        """The service's process-wide count of interactive turns (the indexer yields to it)."""
        return self.service.monitor

    @classmethod
    def build(
        cls, settings: Settings, service: AskDocs, *, model: ChatModel | None = None
    ) -> AssistantRuntime:
        db = Database.open(settings)
        chosen = model if model is not None else create_chat_model(settings.chat)
        tools = build_registry(ToolDeps(settings, service, db))
        return cls(settings, service, db, chosen, tools)

    @property
    def threads(self) -> ThreadStore:
        return ThreadStore(self.db)

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
            return usable_site(session, list(self.service.sites), user_id, site_id)

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
        tasks = self.turns.tasks()
        for task in tasks:
            task.cancel()
        if tasks:
            log.warning("shutting down with %d assistant turn(s) in flight", len(tasks))
            await asyncio.gather(*tasks, return_exceptions=True)
        self.db.close()
