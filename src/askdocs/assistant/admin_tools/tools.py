"""The admin tools the model may call, one per row of the admin table: reads, actions
(test_inference_provider, reindex_site) and the Propose half of each proposal. Each body's
first statement calls ``AdminApi``, whose first statement is the authority gate (re-read
from the database); nothing is kept between calls.

There are no Apply tools (reliability anchor AU-17): a propose tool gives the model the
summary and a proposal id, never the confirmation token; the token travels only to the
person's client in a ``data-proposal`` frame, and only the person applies it, over
``POST /api/v1/proposals/{id}/apply`` (or ``POST /api/v1/admin/apply/{operation}``). The
proposal is stored (``askdocs.admin.proposals``), so a reload or a later visit can still
apply it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anyio

from askdocs.admin.api import AdminApi
from askdocs.admin.proposals import StoredProposal
from askdocs.admin.table import Action, Change, Read
from askdocs.assistant.tools import JsonObject, ToolContext, ToolOutcome
from askdocs.errors import RateLimited
from askdocs.llm.types import ToolSpec
from askdocs.operation import Operation

CHECKING = "Checking"
PROPOSING = "Preparing a change for your confirmation"
WAITING = (
    "The person now sees this proposal in their assistant panel with Apply and Discard "
    "buttons. Only they can apply it; you cannot, and no tool of yours can. Tell them in a "
    "sentence or two what it would change and that it waits for their decision. Never say "
    "it has been applied."
)
WHO = {"platform": "platform admins", "organisation": "admins", "reader": "anyone"}


def single_spec(op: Operation[Any, Any]) -> ToolSpec:
    description = f"{op.description.rstrip('.')} ({WHO[op.authority]})."
    return ToolSpec(op.name, description, op.schema())


def propose_spec(op: Change[Any, Any]) -> ToolSpec:
    description = (
        f"Propose to {op.description}. Writes nothing: the person sees the summary in their "
        "panel and applies or discards it there."
    )
    return ToolSpec(op.tools[0], description, op.schema())


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
    op: Read[Any, Any]
    spec: ToolSpec = field(init=False)
    start_caption: str = CHECKING

    def __post_init__(self) -> None:
        self.spec = single_spec(self.op)

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        name, user = self.op.name, context.user_id
        return ToolOutcome(await anyio.to_thread.run_sync(self.api.read, name, user, arguments))


@dataclass
class ProposeTool:
    api: AdminApi
    op: Change[Any, Any]
    spec: ToolSpec = field(init=False)
    start_caption: str = PROPOSING

    def __post_init__(self) -> None:
        self.spec = propose_spec(self.op)

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        op, user, thread = self.op.name, context.user_id, context.thread_id
        stored = await anyio.to_thread.run_sync(
            lambda: self.api.propose_stored(op, user, arguments, thread_id=thread)
        )
        return split_proposal(stored)


@dataclass
class ActionTool:
    """An action (``reindex_site``, ``test_inference_provider``); a rate limit is data
    the model reads, with when to retry."""

    api: AdminApi
    op: Action[Any, Any]
    spec: ToolSpec = field(init=False)
    start_caption: str = CHECKING

    def __post_init__(self) -> None:
        self.spec = single_spec(self.op)
        self.start_caption = f"{self.op.label}…"

    async def run(self, context: ToolContext, arguments: JsonObject) -> ToolOutcome:
        try:
            data = await self.api.act(self.op.name, context.user_id, arguments, "assistant")
        except RateLimited as exc:
            data = {"error": exc.message, "retryAfterSeconds": exc.retry_after}
        return ToolOutcome(data)
