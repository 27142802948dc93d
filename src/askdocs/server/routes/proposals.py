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

from askdocs.admin.args import JsonObject
from askdocs.admin.proposal_wire import ProposalApplyIn, ProposalCreateIn, ProposalOut
from askdocs.admin.proposals import not_found
from askdocs.server.deps import AdminDep
from askdocs.server.routes.admin import _args, operation_name
from askdocs.server.signin import Caller

router = APIRouter(prefix="/api/v1/proposals", tags=["proposals"])
MAX_ID = 64


def _checked(proposal_id: str) -> str:
    if len(proposal_id) > MAX_ID:
        raise not_found()
    return proposal_id


@router.post("", status_code=201, response_model_exclude_none=True)
async def create(admin: AdminDep, caller: Caller, body: ProposalCreateIn) -> ProposalOut:
    name = operation_name(body.operation)
    args = _args(caller, name, body.arguments)
    stored = await anyio.to_thread.run_sync(
        lambda: admin.propose_stored(name, caller.user_id, args, source="api")
    )
    return ProposalOut.of(stored).model_copy(update={"token": None})


@router.get("/{proposal_id}", response_model_exclude_none=True)
async def show(admin: AdminDep, caller: Caller, proposal_id: str) -> ProposalOut:
    found = await anyio.to_thread.run_sync(
        admin.proposals.get, caller.user_id, _checked(proposal_id)
    )
    if found is None:
        raise not_found()
    return ProposalOut.of(found)


@router.post("/{proposal_id}/apply")
async def apply(
    admin: AdminDep, caller: Caller, proposal_id: str, body: ProposalApplyIn
) -> JsonObject:
    ident, token = _checked(proposal_id), body.confirmation_token
    return await anyio.to_thread.run_sync(lambda: admin.apply_stored(caller.user_id, ident, token))


@router.post("/{proposal_id}/discard", response_model_exclude_none=True)
async def discard(admin: AdminDep, caller: Caller, proposal_id: str) -> ProposalOut:
    found = await anyio.to_thread.run_sync(
        admin.proposals.discard, caller.user_id, _checked(proposal_id)
    )
    return ProposalOut.of(found)
