"""Admin tools over MCP (server mode): changes a person approves through elicitation.

The tools call the API's ``/api/v1/admin`` operations as the caller, so gates, grants and
confirmation tokens are exactly those of REST; only the tools the caller is granted are
listed (``GET /api/v1/admin/grants/mine``), and the API re-checks every call.

A ``propose_*`` tool proposes the change (writes nothing), then asks the person through
MCP elicitation, showing the summary and diff. Only if they accept does this server apply
it with the confirmation token, which never reaches the model: the tool returns the
outcome (``applied``, ``declined``). A client without elicitation gets ``needs_approval``
with the summary, the id of a stored proposal and ``applyUrl``: the web page where the
person (signed in) applies or discards it; nothing is applied here. ``reindex_site`` and
``list_index_runs`` are single-step, as over REST.

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
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

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

from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, InvalidInput, RateLimited
from askdocs.mcp import routes
from askdocs.mcp.backend import Call
from askdocs.mcp.errors import describe

if TYPE_CHECKING:  # httpx loads only in server mode (local stdio starts faster)
    from askdocs.mcp.remote import RemoteBackend

T = TypeVar("T")
DECISION_SECONDS = 600.0  # how long a change tool waits for the person's decision
MRTR_VERSION = "2026-07-28"  # from this protocol version questions ride InputRequiredResult

Status = Literal["applied", "declined", "needs_approval"]
CHANGES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
NO_ELICITATION = (
    "This MCP client cannot ask the person to confirm (it does not support elicitation), "
    "so nothing was changed. Tell the person what the change would do and give them "
    "applyUrl: they apply or discard it there, signed in to askdocs."
)

SiteId = Annotated[str, Field(min_length=1, max_length=63, description="The site's id.")]
PagePath = Annotated[
    str, Field(min_length=1, max_length=500, description="Page path, e.g. guide/install.md.")
]
Content = Annotated[
    str, Field(max_length=1_000_000, description="The page's complete new Markdown.")
]
OrgId = Annotated[
    str | None,
    Field(max_length=100, description="Organisation id; only needed if you belong to several."),
]


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
    result: dict[str, Any] | None = Field(default=None, description="What applying wrote.")
    next: str | None = Field(default=None, description="What to tell the person.")


class AdminOutput(BaseModel):
    data: dict[str, Any]


CallFactory = Callable[[Context[Any, Any]], Call]
APPROVAL_KEY = "approval"
PENDING_SECONDS = DECISION_SECONDS
MAX_PENDING = 1000


@dataclass(frozen=True)
class Pending:
    """A proposed change waiting for the person: the token never leaves this process."""

    caller: str
    operation: str
    body: dict[str, Any]
    token: str = field(repr=False)
    summary: str
    diff: str | None

    def message(self) -> str:
        text = f"askdocs wants to make this change ({self.operation}):\n\n{self.summary}"
        return f"{text}\n\n{self.diff}" if self.diff else text

    def output(self, status: Status, **extra: Any) -> ChangeOutput:
        return ChangeOutput(
            status=status,
            operation=self.operation,
            summary=self.summary,
            diff=self.diff,
            **extra,
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
        self, ctx: Context[Any, Any], operation: str, slug: str, args: dict[str, Any]
    ) -> ChangeOutput | InputRequiredResult:
        """Propose, ask the person, apply on acceptance. On 2026-07-28 the question rides an
        ``InputRequiredResult`` and the client's retry carries the answer (``request_state``
        holds only a pending id; the token stays here); earlier versions ask mid-call."""
        call = self.make_call(ctx)
        body = {key: value for key, value in args.items() if value is not None}
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

    async def _stored(
        self, call: Call, operation: str, slug: str, body: dict[str, Any]
    ) -> ChangeOutput:
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
        self, ctx: Context[Any, Any], call: Call, operation: str, slug: str, body: dict[str, Any]
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

    async def propose_write_page(
        self,
        siteId: SiteId,
        path: PagePath,
        content: Content,
        ctx: Context[Any, Any],
        organisationId: OrgId = None,
    ) -> ChangeOutput | InputRequiredResult:
        """Create or replace one Markdown page of a site with its full new text. The person
        is shown the diff and asked to approve; only then is the page written."""
        args: dict[str, Any] = {"siteId": siteId, "path": path, "content": content}
        args["organisationId"] = organisationId
        return await self.guard(
            "propose_write_page", self.change(ctx, "WritePage", "write-page", args)
        )

    async def propose_delete_page(
        self,
        siteId: SiteId,
        path: PagePath,
        ctx: Context[Any, Any],
        organisationId: OrgId = None,
    ) -> ChangeOutput | InputRequiredResult:
        """Delete one page of a site, after the person approves."""
        args = {"siteId": siteId, "path": path, "organisationId": organisationId}
        return await self.guard(
            "propose_delete_page", self.change(ctx, "DeletePage", "delete-page", args)
        )

    async def propose_create_site(
        self,
        id: SiteId,
        name: Annotated[str, Field(min_length=1, max_length=200)],
        ctx: Context[Any, Any],
        public: bool | None = None,
        hostnames: list[str] | None = None,
        organisationId: OrgId = None,
    ) -> ChangeOutput | InputRequiredResult:
        """Create a documentation site in your organisation, after the person approves."""
        args: dict[str, Any] = {"id": id, "name": name, "public": public, "hostnames": hostnames}
        args["organisationId"] = organisationId
        return await self.guard(
            "propose_create_site", self.change(ctx, "CreateSite", "create-site", args)
        )

    async def propose_update_site(
        self,
        siteId: SiteId,
        ctx: Context[Any, Any],
        name: str | None = None,
        public: bool | None = None,
        hostnames: list[str] | None = None,
        askEnabled: bool | None = None,
        organisationId: OrgId = None,
    ) -> ChangeOutput | InputRequiredResult:
        """Change a site's settings (omitted fields stay as they are), after the person
        approves."""
        args: dict[str, Any] = {"siteId": siteId, "name": name, "public": public}
        args |= {"hostnames": hostnames}
        args |= {"askEnabled": askEnabled, "organisationId": organisationId}
        return await self.guard(
            "propose_update_site", self.change(ctx, "UpdateSite", "update-site", args)
        )

    async def reindex_site(
        self,
        siteId: SiteId,
        ctx: Context[Any, Any],
        organisationId: OrgId = None,
    ) -> AdminOutput:
        """Re-index one site now (runs in the background; see list_index_runs)."""
        params = {"organisationId": organisationId}
        call = self.make_call(ctx)
        ids = {"siteId": siteId}
        work = self.remote.call_api(call, "POST", routes.REINDEX, ids=ids, params=params)
        return AdminOutput(data=await self.guard("reindex_site", work))

    async def list_index_runs(
        self,
        ctx: Context[Any, Any],
        siteId: SiteId | None = None,
        limit: Annotated[int, Field(ge=1, le=100)] = 20,
        organisationId: OrgId = None,
    ) -> AdminOutput:
        """List recent index runs of your sites: when, who started them, outcome."""
        params = {"siteId": siteId, "limit": limit, "organisationId": organisationId}
        work = self.remote.call_api(self.make_call(ctx), "GET", routes.RUNS, params=params)
        return AdminOutput(data=await self.guard("list_index_runs", work))

    def tools(self) -> dict[str, tuple[Callable[..., Awaitable[Any]], ToolAnnotations]]:
        """Tool name -> (body, annotations); each name is also the grant it needs."""
        return {
            "propose_write_page": (self.propose_write_page, CHANGES),
            "propose_delete_page": (self.propose_delete_page, CHANGES),
            "propose_create_site": (self.propose_create_site, CHANGES),
            "propose_update_site": (self.propose_update_site, CHANGES),
            "reindex_site": (self.reindex_site, CHANGES),
            "list_index_runs": (self.list_index_runs, READS),
        }
