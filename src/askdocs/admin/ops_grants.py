"""Assign tool grants (organisation authority) to a member of the active organisation.

The assigner may add or remove only tools they hold themselves; the target's other grants
stay as they are. The payload binds the target's id and current email (its name), the
grant it holds now and the grant it will hold.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import JsonValue
from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.admin.authority import Actor
from askdocs.admin.env import AdminEnv, Prepared
from askdocs.admin.grants import grants_of, replace_grants
from askdocs.admin.models import AssignToolGrants, bad
from askdocs.admin.results import Granted, GrantsAssigned
from askdocs.db.models import MembershipRow, UserRow
from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput, NotFound

MAX_TOOL_NAME = 253


def member(session: Session, org_id: str | None, user_id: str) -> UserRow:
    """A user of ``org_id``; anyone else answers exactly like a missing user."""
    query = select(UserRow).join(MembershipRow, MembershipRow.user_id == UserRow.id)
    query = query.where(MembershipRow.organisation_id == org_id, UserRow.id == user_id)
    row = session.scalars(query).first()
    if row is None:
        raise NotFound("user not found", code=ErrorCode.USER_NOT_FOUND)
    return row


def _requested(tools: list[str], grantable: tuple[str, ...]) -> set[str]:
    if not all(0 < len(tool) <= MAX_TOOL_NAME for tool in tools):
        raise bad("tools", "every item must be a non-empty string")
    unknown = sorted(set(tools) - set(grantable))
    if unknown:
        raise bad("tools", f"not grantable: {', '.join(unknown)}")
    return set(tools)


def prepare_assign(
    env: AdminEnv, session: Session, actor: Actor, args: AssignToolGrants
) -> Prepared[GrantsAssigned]:
    org_id, user_id = actor.org_id, actor.user_id
    target = member(session, org_id, args.user_id)
    requested = _requested(args.tools, env.grantable)
    held = set(grants_of(session, user_id))
    if requested - held:
        missing = ", ".join(sorted(requested - held))
        raise InvalidInput(
            f"you can only grant tools you hold: {missing}", code=ErrorCode.GRANT_NOT_HELD
        )
    current = set(grants_of(session, target.id))
    new = sorted((current - held) | requested)
    added, removed = sorted(set(new) - current), sorted(current - set(new))
    summary = (
        f"Set the tool grant of {target.email}: add {', '.join(added) or 'nothing'}; "
        f"remove {', '.join(removed) or 'nothing'}."
    )
    ident = target.id

    def write(tx: Session) -> GrantsAssigned:
        replace_grants(tx, ident, new, user_id)
        return GrantsAssigned(granted=Granted(user_id=ident, tools=new))

    payload: Mapping[str, JsonValue] = {
        "organisationId": org_id,
        "userId": target.id,
        "userEmail": target.email,
        "current": list[JsonValue](sorted(current)),
        "grants": list[JsonValue](new),
    }
    return Prepared(payload, summary, write)
