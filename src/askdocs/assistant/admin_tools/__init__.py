"""Admin tools for the assistant, registered through ``assistant.toolset.TOOL_FACTORIES``.

``ADMIN_TOOL_FACTORIES`` builds, from the admin operation table (``admin.table``), every
read and action as a tool of its own name and the Propose half of every proposal, over the
application's one ``AdminApi`` (``ToolDeps.admin``). Apply is never a model tool: only the
person applies, over REST (see ``tools``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from askdocs.admin.table import TABLE, Action, AnyOperation, Change, Read
from askdocs.assistant.admin_tools.tools import ActionTool, ProposeTool, ReadTool
from askdocs.assistant.tools import Tool

if TYPE_CHECKING:
    from askdocs.assistant.toolset import ToolDeps


def _factory(op: AnyOperation) -> Callable[[ToolDeps], Tool]:
    def build(deps: ToolDeps) -> Tool:
        return _tool(deps, op)

    return build


def _tool(deps: ToolDeps, op: Change[Any, Any] | Read[Any, Any] | Action[Any, Any]) -> Tool:
    if isinstance(op, Change):
        return ProposeTool(deps.admin, op)
    if isinstance(op, Read):
        return ReadTool(deps.admin, op)
    return ActionTool(deps.admin, op)


ADMIN_TOOL_FACTORIES: list[Callable[[ToolDeps], Tool]] = [_factory(op) for op in TABLE]
