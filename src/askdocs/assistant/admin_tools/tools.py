"""The admin tools the model may call: read-only tools, the Propose half of each pair,
test_inference_provider and reindex_site. Each body's first statement calls ``AdminApi``,
whose first statement is the authority gate (re-read from the database); nothing is kept
between calls.

There are no Apply tools (reliability anchor AU-17): a propose tool gives the model the
summary and a proposal id, never the confirmation token; the token travels only to the
person's client in a ``data-proposal`` frame, and only the person applies it, over
``POST /api/v1/proposals/{id}/apply`` (or ``POST /api/v1/admin/apply/{operation}``). The
proposal is stored (``askdocs.admin.proposals``), so a reload or a later visit can still
apply it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import anyio

from askdocs.admin.api import AdminApi
from askdocs.admin.models import OPERATION_MODELS, TOOL_MODELS, json_schema
from askdocs.admin.names import propose_name
from askdocs.admin.proposals import StoredProposal
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


def proposal_outline(stored: StoredProposal) -> JsonObject:
    """What the model may read of a stored proposal: never the token or the arguments."""
    outline: JsonObject = {"id": stored.id, "operation": stored.operation}
    outline["summary"] = stored.summary
    if stored.diff is not None:
        outline["diff"] = stored.diff
    if "organisationId" in stored.arguments:
        outline["organisationId"] = stored.arguments["organisationId"]
    return outline


def client_proposal(stored: StoredProposal) -> JsonObject:
    """The person's own client's view: the outline plus the arguments, the token, the
    state and the expiry (``data-proposal`` frames and ``GET /api/v1/proposals/{id}``)."""
    client = {**proposal_outline(stored), "arguments": stored.arguments, "state": stored.state}
    client["expiresAt"] = stored.expires_at.isoformat().replace("+00:00", "Z")
    client["token"] = stored.token if stored.pending else None
    return client


def split_proposal(stored: StoredProposal) -> ToolOutcome:
    """A stored proposal as two views: the model's (summary and proposal id, no token) and
    the client's (the same plus the arguments to apply with and the token)."""
    data = {"proposal": proposal_outline(stored), "next": WAITING}
    return ToolOutcome(data, proposal=client_proposal(stored))


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
        op, user, thread = self.operation, context.user_id, context.thread_id
        stored = await anyio.to_thread.run_sync(
            lambda: self.api.propose_stored(op, user, arguments, thread_id=thread)
        )
        return split_proposal(stored)


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
