"""``/api/v1/proposals``: stored proposals, for their own user only.

``GET /{id}`` shows one (with its confirmation token while pending); ``POST /{id}/apply``
applies it at most once (the token must match; authority, payload and token are checked
again); ``POST /{id}/discard`` drops it; ``POST /api/v1/proposals`` proposes and stores a
change (what the MCP server does for a client that cannot ask the person) and answers
where the person applies it. Another user's proposal answers like a missing one: 404
``proposal_not_found``. See docs/admin-tools.md "Stored proposals".
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter

from askdocs.admin.models import parse
from askdocs.admin.proposal_wire import ProposalApplyIn, ProposalCreateIn, ProposalOut
from askdocs.admin.proposals import not_found
from askdocs.admin.table import TABLE, Change, change
from askdocs.server.admin_calls import scoped
from askdocs.server.approval import Approval
from askdocs.server.deps import AdminDep
from askdocs.server.openapi import BODY_KEY
from askdocs.server.signin import Caller
from askdocs.wire import JsonDict

router = APIRouter(prefix="/api/v1/proposals", tags=["proposals"])
MAX_ID = 64


def _checked(proposal_id: str) -> str:
    if len(proposal_id) > MAX_ID:
        raise not_found()
    return proposal_id


def _documented() -> dict[str, object]:
    """The body as ``/openapi.json`` shows it: the operation's slug and its typed arguments
    (each operation's model, closed); the operation's own model checks them."""
    changes = [op for op in TABLE if isinstance(op, Change)]
    variants = [{**op.schema(), "title": f"Arguments of {op.name}"} for op in changes]
    properties = {
        "operation": {"type": "string", "enum": [op.slug for op in changes]},
        "arguments": {"oneOf": variants},
    }
    schema = {
        "title": "StoreProposal",
        "type": "object",
        "properties": properties,
        "required": ["operation", "arguments"],
        "additionalProperties": False,
    }
    return {BODY_KEY: schema}


@router.post("", status_code=201, response_model_exclude_none=True, openapi_extra=_documented())
async def create(admin: AdminDep, caller: Caller, body: ProposalCreateIn) -> ProposalOut:
    op = change(body.operation)
    args = scoped(caller, parse(op.args, body.arguments))
    stored = await anyio.to_thread.run_sync(
        lambda: admin.store_proposal(op, caller.user_id, args, source="api")
    )
    return ProposalOut.of(stored).model_copy(update={"token": None})


@router.get("/{proposal_id}", response_model_exclude_none=True)
async def show(admin: AdminDep, caller: Caller, proposal_id: str) -> ProposalOut:
    """An MCP token never reads the token back: it could not apply it anyway."""
    found = await anyio.to_thread.run_sync(
        admin.proposals.get, caller.user_id, _checked(proposal_id)
    )
    if found is None:
        raise not_found()
    shown = ProposalOut.of(found)
    return shown.model_copy(update={"token": None}) if caller.mcp else shown


@router.post("/{proposal_id}/apply")
async def apply(
    admin: AdminDep, caller: Caller, proposal_id: str, body: ProposalApplyIn, approval: Approval
) -> JsonDict:
    ident, token = _checked(proposal_id), body.confirmation_token
    approval.require(token)  # an MCP token: the person's proof
    return await anyio.to_thread.run_sync(lambda: admin.apply_stored(caller.user_id, ident, token))


@router.post("/{proposal_id}/discard", response_model_exclude_none=True)
async def discard(admin: AdminDep, caller: Caller, proposal_id: str) -> ProposalOut:
    found = await anyio.to_thread.run_sync(
        admin.proposals.discard, caller.user_id, _checked(proposal_id)
    )
    return ProposalOut.of(found)
