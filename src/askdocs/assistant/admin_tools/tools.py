"""The admin tools: read-only tools, Propose/Apply pairs, test_inference_provider and
reindex_site. Each body's first statement calls ``AdminApi``, whose first statement is the
authority gate (re-read from the database); nothing is kept between calls."""

from __future__ import annotations

from dataclasses import dataclass, field

import anyio

from askdocs.admin.api import AdminApi
from askdocs.admin.names import apply_name, propose_name
from askdocs.assistant.admin_tools.schemas import OPERATION_ARGS, SINGLE_ARGS, TOKEN, obj
from askdocs.assistant.tools import JsonObject, ToolContext, ToolOutcome
from askdocs.errors import RateLimited
from askdocs.llm.types import ToolSpec

CHECKING = "Checking"
PROPOSING = "Preparing a change for your confirmation"
APPLYING = "Applying the confirmed change"


def single_spec(name: str) -> ToolSpec:
    description, properties, required = SINGLE_ARGS[name]
    return ToolSpec(name, description, obj(properties, required))


def propose_spec(operation: str) -> ToolSpec:
    what, properties, required = OPERATION_ARGS[operation]
    description = (
        f"Propose to {what}. Writes nothing: returns a summary to show the user and a "
        f"confirmationToken for {apply_name(operation)}."
    )
    return ToolSpec(propose_name(operation), description, obj(properties, required))


def apply_spec(operation: str) -> ToolSpec:
    what, properties, required = OPERATION_ARGS[operation]
    description = (
        f"Apply a proposal to {what}, after the user agreed: the same arguments as "
        f"{propose_name(operation)} plus its confirmationToken."
    )
    args = obj({**properties, "confirmationToken": TOKEN}, (*required, "confirmationToken"))
    return ToolSpec(apply_name(operation), description, args)


@dataclass
class ReadTool:
    api: AdminApi
    spec: ToolSpec
    start_caption: str = CHECKING

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        name = self.spec.name
        data = await anyio.to_thread.run_sync(self.api.read, name, context.user_id, arguments)
        return ToolOutcome(data)


@dataclass
class ProposeTool:
    api: AdminApi
    operation: str
    spec: ToolSpec = field(init=False)
    start_caption: str = PROPOSING

    def __post_init__(self) -> None:
        self.spec = propose_spec(self.operation)

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        op, user = self.operation, context.user_id
        data = await anyio.to_thread.run_sync(self.api.propose, op, user, arguments)
        return ToolOutcome(data)


@dataclass
class ApplyTool:
    api: AdminApi
    operation: str
    spec: ToolSpec = field(init=False)
    start_caption: str = APPLYING

    def __post_init__(self) -> None:
        self.spec = apply_spec(self.operation)

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        op, user = self.operation, context.user_id
        data = await anyio.to_thread.run_sync(self.api.apply, op, user, arguments)
        return ToolOutcome(data)


@dataclass
class TestProviderTool:
    api: AdminApi
    spec: ToolSpec = field(default_factory=lambda: single_spec("test_inference_provider"))
    start_caption: str = "Testing the provider"

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        return ToolOutcome(await self.api.test_provider(context.user_id, arguments))


@dataclass
class ReindexTool:
    api: AdminApi
    spec: ToolSpec = field(default_factory=lambda: single_spec("reindex_site"))
    start_caption: str = "Starting a re-index"

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        try:
            data = await self.api.reindex(context.user_id, arguments, "assistant")
        except RateLimited as exc:
            data = {"error": exc.message, "retryAfterSeconds": exc.retry_after}
        return ToolOutcome(data)
