"""Admin tools for the assistant, registered through ``assistant.toolset.TOOL_FACTORIES``.

``ADMIN_TOOL_FACTORIES`` builds every single tool and the Propose half of every pair named
in ``askdocs.admin.names`` over the application's one ``AdminApi`` (``ToolDeps.admin``). Apply is
never a model tool: only the person applies, over REST (see ``tools``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from askdocs.admin.names import OPERATIONS, SINGLE_TOOLS
from askdocs.assistant.admin_tools.tools import (
    ProposeTool,
    ReadTool,
    ReindexTool,
    TestProviderTool,
    single_spec,
)
from askdocs.assistant.tools import Tool

if TYPE_CHECKING:
    from askdocs.assistant.toolset import ToolDeps


def _single(name: str) -> Callable[[ToolDeps], Tool]:
    def build(deps: ToolDeps) -> Tool:
        api = deps.admin
        if name == "reindex_site":
            return ReindexTool(api)
        if name == "test_inference_provider":
            return TestProviderTool(api)
        return ReadTool(api, single_spec(name))

    return build


def _propose(operation: str) -> Callable[[ToolDeps], Tool]:
    def build(deps: ToolDeps) -> Tool:
        return ProposeTool(deps.admin, operation)

    return build


ADMIN_TOOL_FACTORIES: list[Callable[[ToolDeps], Tool]] = [
    *(_single(name) for name in SINGLE_TOOLS),
    *(_propose(operation) for operation in OPERATIONS),
]
