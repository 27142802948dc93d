"""Admin tools over MCP (server mode), generated from the admin operation table
(``admin.table``): every proposal is a ``propose_*`` tool a person approves through
elicitation, every read and action a tool of its own name; each tool's input schema is its
operation's argument model.

The tools call the API's ``/api/v1/admin`` operations as the caller, so gates, grants and
confirmation tokens are exactly those of REST; only the tools the caller is granted are
listed (``GET /api/v1/admin/grants/mine``), and the API re-checks every call.

A ``propose_*`` tool proposes the change (writes nothing), then asks the person through
MCP elicitation, showing the summary and diff. Only if they accept does this server apply
it with the confirmation token, which never reaches the model: the tool returns the
outcome (``applied``, ``declined``). A client without elicitation gets ``needs_approval``
with the summary, the id of a stored proposal and ``applyUrl``: the web page where the
person (signed in) applies or discards it; nothing is applied here. ``change`` is that one
elicitation wrapper, shared by every proposal tool.

The apply after an accepted elicitation carries an approval proof this server mints with
the deployment's key (``askdocs.auth.approval``): the MCP token alone cannot apply, so the
person's answer is what the API enforces, not just what this process asks. Every URL comes
from ``routes.api_path`` (ids checked and quoted).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import anyio
from mcp.server.elicitation import render_elicitation_schema
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import (
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    ToolAnnotations,
)
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, Field

from askdocs.admin.models import Args, as_args
from askdocs.admin.results import Result
from askdocs.admin.table import TABLE, Action, AnyOperation, Change, Read
from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, InvalidInput, RateLimited
from askdocs.mcp import routes
from askdocs.mcp.backend import Call
from askdocs.mcp.errors import describe
from askdocs.wire import JsonDict

if TYPE_CHECKING:  # httpx loads only in server mode (local stdio starts faster)
    from askdocs.mcp.remote import RemoteBackend

T = TypeVar("T")
DECISION_SECONDS = 600.0  # how long a change tool waits for the person's decision
MRTR_VERSION = "2026-07-28"  # from this protocol version questions ride InputRequiredResult

Status = Literal["applied", "declined", "needs_approval"]
CHANGES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
ACTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
NO_ELICITATION = (
    "This MCP client cannot ask the person to confirm (it does not support elicitation), "
    "so nothing was changed. Tell the person what the change would do and give them "
    "applyUrl: they apply or discard it there, signed in to askdocs."
)


class Approval(BaseModel):
    """What the person answers when asked to approve a change."""

    apply: bool = Field(description="Apply this change now?")


class ChangeOutput(BaseModel):
    status: Status = Field(description="applied, declined, or needs_approval (not applied).")
    operation: str
    summary: str = Field(description="What the change does, as the person saw it.")
    diff: str | None = Field(default=None, description="The page diff, for page writes.")
    proposalId: str | None = Field(
        default=None, description="Set with needs_approval: the stored proposal's id."
    )
    applyUrl: str | None = Field(
        default=None, description="Set with needs_approval: where the person applies it."
    )
    result: JsonDict | None = Field(default=None, description="What applying wrote.")
    next: str | None = Field(default=None, description="What to tell the person.")


CallFactory = Callable[[Context[Any, Any]], Call]
Tool = tuple[AnyOperation, Callable[..., Awaitable[Any]], ToolAnnotations]
APPROVAL_KEY = "approval"
PENDING_SECONDS = DECISION_SECONDS
MAX_PENDING = 1000


@dataclass(frozen=True)
class Pending:
    """A proposed change waiting for the person: the token never leaves this process."""

    caller: str
    operation: str
    body: JsonDict
    token: str = field(repr=False)
    summary: str
    diff: str | None

    def message(self) -> str:
        text = f"askdocs wants to make this change ({self.operation}):\n\n{self.summary}"
        return f"{text}\n\n{self.diff}" if self.diff else text

    def output(
        self, status: Status, *, result: JsonDict | None = None, next: str | None = None
    ) -> ChangeOutput:
        return ChangeOutput(
            status=status,
            operation=self.operation,
            summary=self.summary,
            diff=self.diff,
            result=result,
            next=next,
        )


class PendingChanges:
    """Changes asked about on 2026-07-28, by pending id, for ``PENDING_SECONDS``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._items: dict[str, tuple[float, Pending]] = {}

    def ask(self, proposal: Pending) -> InputRequiredResult:
        now = self._clock()
        self._items = {k: v for k, v in self._items.items() if now - v[0] < PENDING_SECONDS}
        if len(self._items) >= MAX_PENDING:
            raise RateLimited("too many changes wait for a decision", retry_after=60)
        key = secrets.token_urlsafe(24)
        self._items[key] = (now, proposal)
        params = ElicitRequestFormParams(
            message=proposal.message(), requested_schema=render_elicitation_schema(Approval)
        )
        return InputRequiredResult(
            input_requests={APPROVAL_KEY: ElicitRequest(params=params)}, request_state=key
        )

    def take(self, key: str) -> Pending | None:
        found = self._items.pop(key, None)
        if found is None or self._clock() - found[0] >= PENDING_SECONDS:
            return None
        return found[1]


def _modern(ctx: Context[Any, Any]) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MRTR_VERSION)


def can_elicit(ctx: Context[Any, Any]) -> bool:
    capabilities = ctx.request_context.session.client_capabilities
    return capabilities is not None and capabilities.elicitation is not None


class AdminTools:
    """The admin tool bodies over one ``RemoteBackend``."""

    def __init__(self, remote: RemoteBackend, make_call: CallFactory) -> None:
        self.remote = remote
        self.make_call = make_call
        self.pending = PendingChanges()

    async def guard(self, name: str, work: Awaitable[T]) -> T:
        """One bound per call (the person's decision included); errors as tool errors."""
        try:
            with anyio.fail_after(DECISION_SECONDS):
                return await work
        except TimeoutError as exc:
            raise ToolError(f"{name} did not finish within {DECISION_SECONDS:g} s") from exc
        except AskDocsError as exc:
            raise ToolError(describe(exc)) from exc

    async def granted(self, call: Call) -> set[str]:
        data = await self.remote.call_api(call, "GET", routes.GRANTS_MINE)
        return {str(tool) for tool in data.get("tools") or ()}

    async def change(
        self, ctx: Context[Any, Any], op: Change[Any, Any], arguments: Args
    ) -> ChangeOutput | InputRequiredResult:
        """Propose, ask the person, apply on acceptance. On 2026-07-28 the question rides an
        ``InputRequiredResult`` and the client's retry carries the answer (``request_state``
        holds only a pending id; the token stays here); earlier versions ask mid-call."""
        call = self.make_call(ctx)
        operation, slug, body = op.name, op.slug, as_args(arguments)
        if ctx.request_state is not None:
            return await self._decided(ctx, call, operation, slug, body)
        if not can_elicit(ctx):
            return await self._stored(call, operation, slug, body)
        proposed = await self.remote.call_api(
            call, "POST", routes.PROPOSE, ids={"operation": slug}, body=body
        )
        proposal = Pending(
            caller=call.auth.sub if call.auth else "",
            operation=operation,
            body=body,
            token=str(proposed["confirmationToken"]),
            summary=str(proposed["proposal"].get("summary", "")),
            diff=proposed["proposal"].get("diff"),
        )
        if _modern(ctx):
            return self.pending.ask(proposal)
        answer = await ctx.elicit(proposal.message(), Approval)
        approved = answer.action == "accept" and answer.data.apply
        return await self._finish(call, slug, proposal, approved)

    async def _stored(self, call: Call, operation: str, slug: str, body: JsonDict) -> ChangeOutput:
        """No elicitation: the change is stored for the person to apply on the web."""
        stored = await self.remote.store_proposal(call, slug, body)
        return ChangeOutput(
            status="needs_approval",
            operation=operation,
            summary=str(stored.get("summary", "")),
            diff=stored.get("diff"),
            proposalId=str(stored["id"]),
            applyUrl=str(stored["applyUrl"]),
            next=NO_ELICITATION,
        )

    async def _decided(
        self, ctx: Context[Any, Any], call: Call, operation: str, slug: str, body: JsonDict
    ) -> ChangeOutput:
        proposal = self.pending.take(str(ctx.request_state))
        caller = call.auth.sub if call.auth else ""
        if proposal is None or (proposal.caller, proposal.operation, proposal.body) != (
            caller,
            operation,
            body,
        ):
            raise InvalidInput(
                "this approval does not belong to a pending change; propose it again",
                code=ErrorCode.PROPOSAL_UNKNOWN,
            )
        answer = (ctx.input_responses or {}).get(APPROVAL_KEY)
        approved = (
            isinstance(answer, ElicitResult)
            and answer.action == "accept"
            and (answer.content or {}).get("apply") is True
        )
        return await self._finish(call, slug, proposal, approved)

    async def _finish(
        self, call: Call, slug: str, proposal: Pending, approved: bool
    ) -> ChangeOutput:
        if not approved:
            return proposal.output("declined", next="The person declined; nothing was changed.")
        applied = await self.remote.apply_approved(call, slug, proposal.body, proposal.token)
        return proposal.output("applied", result=applied)

    def proposer(self, op: Change[Any, Any]) -> Callable[..., Awaitable[Any]]:
        """The ``propose_*`` tool of ``op``: propose, ask the person, apply on acceptance."""
        name = op.tools[0]

        async def propose(
            arguments: Args, ctx: Context[Any, Any]
        ) -> ChangeOutput | InputRequiredResult:
            return await self.guard(name, self.change(ctx, op, arguments))

        return propose

    def single(self, op: Read[Any, Any] | Action[Any, Any]) -> Callable[..., Awaitable[Any]]:
        """The tool of a read or an action: one call of its REST operation."""
        route, ids = (
            (routes.READ if isinstance(op, Read) else routes.ACTION),
            {"operation": op.slug},
        )

        async def run(arguments: Args, ctx: Context[Any, Any]) -> Result:
            call = self.make_call(ctx)
            work = self.remote.call_api(call, "POST", route, ids=ids, body=as_args(arguments))
            result: Result = op.result.model_validate(await self.guard(op.name, work))
            return result

        return run

    def tools(self) -> dict[str, Tool]:
        """Tool name -> (operation, body, annotations); each name is also the grant it
        needs (``apply_*`` is never a tool: the person approves, this server applies)."""
        found: dict[str, Tool] = {}
        for op in TABLE:
            if isinstance(op, Change):
                found[op.tools[0]] = (op, self.proposer(op), CHANGES)
            else:
                found[op.name] = (op, self.single(op), READS if isinstance(op, Read) else ACTS)
        return found
