"""The apply routes' approval gate: an MCP token applies a change only with the person's
approval proof (``askdocs.auth.approval``), sent in the ``X-Askdocs-Approval`` header.

A browser session and an ordinary bearer token apply with the confirmation token alone, as
before; an MCP token without a valid proof for that token is ``403 approval_required`` or
``403 approval_invalid``, and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from askdocs.auth.approval import HEADER, check_approval
from askdocs.keys import KeyRing
from askdocs.server.deps import AppDep
from askdocs.server.signin import Caller
from askdocs.settings import Settings
from askdocs.users.types import Principal


@dataclass(frozen=True)
class ApprovalGate:
    settings: Settings
    keys: KeyRing
    caller: Principal
    proof: str | None

    def require(self, confirmation_token: object) -> None:
        """Raise ``Forbidden`` when this caller needs a proof and has none for the token."""
        if self.caller.mcp:
            check_approval(
                self.settings, self.keys, self.caller.user_id, confirmation_token, self.proof
            )


async def get_approval(request: Request, app: AppDep, caller: Caller) -> ApprovalGate:
    return ApprovalGate(app.settings, app.keys, caller, request.headers.get(HEADER))


Approval = Annotated[ApprovalGate, Depends(get_approval)]
