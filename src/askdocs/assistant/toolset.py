"""Which tools the assistant has: factories registered here build them for one runtime,
and ``offered_tools`` picks the ones one user is offered in one turn.

The admin tools append their factories to ``TOOL_FACTORIES`` exactly as the built-in
``search_docs`` does. A turn offers the ungated tools plus each admin tool the acting user
holds a grant for, read from the database (``admin.grants``) when the turn starts; the
system prompt lists exactly the offered tools, and the model can call no other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from askdocs.admin.api import AdminApi
from askdocs.admin.grants import ensure_first_admin_grant, grants_of
from askdocs.admin.table import grantable_tools
from askdocs.assistant.admin_tools import ADMIN_TOOL_FACTORIES
from askdocs.assistant.docs_tool import SearchDocsTool
from askdocs.assistant.tools import Tool, ToolRegistry
from askdocs.blocking import BlockingPool
from askdocs.db import Database
from askdocs.service import AskDocs
from askdocs.settings import Settings


@dataclass(frozen=True)
class ToolDeps:
    settings: Settings
    service: AskDocs
    db: Database
    admin: AdminApi
    pool: BlockingPool


ToolFactory = Callable[[ToolDeps], Tool]


def search_docs(deps: ToolDeps) -> Tool:
    return SearchDocsTool(
        deps.service, deps.settings.assistant, deps.settings.assistant.docs_site, deps.pool
    )


TOOL_FACTORIES: list[ToolFactory] = [search_docs, *ADMIN_TOOL_FACTORIES]


def build_registry(deps: ToolDeps, factories: list[ToolFactory] | None = None) -> ToolRegistry:
    """Every tool of the runtime; ``assistant.docs_enabled = false`` (seed 000's master
    switch) leaves ``search_docs`` out."""
    registry = ToolRegistry()
    for factory in TOOL_FACTORIES if factories is None else factories:
        if factory is search_docs and not deps.settings.assistant.docs_enabled:
            continue
        registry.register(factory(deps))
    return registry


GATED = frozenset(grantable_tools())


def offered_tools(registry: ToolRegistry, db: Database, user_id: str) -> ToolRegistry:
    """The tools ``user_id`` is offered now: ungated ones and the granted admin tools."""
    ensure_first_admin_grant(db, grantable_tools())
    with db.session() as session:
        held = set(grants_of(session, user_id))
    return registry.subset(lambda name: name not in GATED or name in held)
