"""The admin tools the model may call: read-only tools, the Propose half of each pair,
test_inference_provider and reindex_site. Each body's first statement calls ``AdminApi``,
whose first statement is the authority gate (re-read from the database); nothing is kept
between calls.

There are no Apply tools (reliability anchor AU-17): a propose tool gives the model the
summary and a proposal id, never the confirmation token; the token travels only to the
person's client in a ``data-proposal`` frame, and only the person applies it, over
``POST /api/v1/admin/apply/{operation}``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import anyio

from askdocs.admin.api import AdminApi
from askdocs.admin.models import OPERATION_MODELS, TOOL_MODELS, json_schema
from askdocs.admin.names import propose_name
from askdocs.assistant.tools import JsonObject, ToolContext, ToolOutcome
from askdocs.errors import RateLimited
from askdocs.llm.types import ToolSpec

CHECKING = "Checking"
PROPOSING = "Preparing a change for your confirmation"
WAITING = (
    "The person now sees this proposal in their assistant panel with Apply and Discard "
    "buttons. Only they can apply it; you cannot, and no tool of yours can. Tell them in a "
    "sentence or two what it would change and that it waits for their decision. Never say "
    "it has been applied."
)


def single_spec(name: str) -> ToolSpec:
    model, description = TOOL_MODELS[name]
    return ToolSpec(name, description, json_schema(model))


def propose_spec(operation: str) -> ToolSpec:
    model, what = OPERATION_MODELS[operation]
    description = (
        f"Propose to {what}. Writes nothing: the person sees the summary in their panel "
        "and applies or discards it there."
    )
    return ToolSpec(propose_name(operation), description, json_schema(model))


def split_proposal(arguments: JsonObject, result: JsonObject) -> ToolOutcome:
    """A propose result as two views: the model's (summary and proposal id, no token) and
    the client's (the same plus the arguments to apply with and the token)."""
    proposal: JsonObject = {"id": uuid.uuid4().hex, **result["proposal"]}
    apply_args = {k: v for k, v in arguments.items() if k != "confirmationToken"}
    if "organisationId" in proposal:
        apply_args["organisationId"] = proposal["organisationId"]
    client = {**proposal, "arguments": apply_args, "token": result["confirmationToken"]}
    return ToolOutcome({"proposal": proposal, "next": WAITING}, proposal=client)


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
        return split_proposal(arguments, data)


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
