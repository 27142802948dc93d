"""Which tools the assistant has: factories registered here build them for one runtime.

Later tools (issue: propose/apply) append their factory to ``TOOL_FACTORIES`` exactly as the
built-in ``search_docs`` does; the system prompt lists whatever the registry ends up holding.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from askdocs.assistant.admin_tools import ADMIN_TOOL_FACTORIES
from askdocs.assistant.docs_tool import SearchDocsTool
from askdocs.assistant.tools import Tool, ToolRegistry
from askdocs.db import Database
from askdocs.service import AskDocs
from askdocs.settings import Settings


@dataclass(frozen=True)
class ToolDeps:
    settings: Settings
    service: AskDocs
    db: Database


ToolFactory = Callable[[ToolDeps], Tool]


def search_docs(deps: ToolDeps) -> Tool:
    return SearchDocsTool(deps.service, deps.settings.assistant, deps.settings.assistant.docs_site)


TOOL_FACTORIES: list[ToolFactory] = [search_docs, *ADMIN_TOOL_FACTORIES]


def build_registry(deps: ToolDeps, factories: list[ToolFactory] | None = None) -> ToolRegistry:
    registry = ToolRegistry()
    for factory in TOOL_FACTORIES if factories is None else factories:
        registry.register(factory(deps))
    return registry
