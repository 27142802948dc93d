"""Run the operations of the table (``admin.table``): the one runner every surface (tools,
REST, MCP, the admin UI) goes through.

Every run: gate (the authority, re-read from the database) -> grant. Then
- a read reads, in one session;
- propose re-derives the change's payload and mints a token; it writes nothing;
- apply, under the apply lock and one write transaction, re-derives the payload from the
  database and the arguments, verifies the token, and writes. A token that does not verify
  writes nothing.
Authority always comes first, from the database. Arguments arrive typed (``admin.models``).
"""

from __future__ import annotations

from typing import TypeVar

from sqlalchemy import text
from sqlalchemy.orm import Session

from askdocs.admin.authority import Actor, organisation_gate, platform_gate
from askdocs.admin.env import AdminEnv, Prepared
from askdocs.admin.grants import ensure_first_admin_grant, require_grant
from askdocs.admin.models import Args, canonical_arguments, org_hint
from askdocs.admin.results import Applied, Proposal, Proposed, Result
from askdocs.admin.table import Change, Read
from askdocs.confirm.canonical import canonical_json
from askdocs.error_codes import ErrorCode
from askdocs.errors import Forbidden
from askdocs.operation import Authority
from askdocs.replicas.changes import bump

A = TypeVar("A", bound=Args)
R = TypeVar("R", bound=Result)
W = TypeVar("W", bound=Applied)
APPLY_LOCK = 0x61646D61  # "adma": PostgreSQL advisory lock serialising applies
MISMATCH_MESSAGE = "the confirmation token does not match this change; propose it again"


def gate(session: Session, authority: Authority, user_id: str, hint: str | None) -> Actor:
    if authority == "platform":
        return platform_gate(session, user_id)
    return organisation_gate(session, user_id, hint)


def access(env: AdminEnv, tool: str, authority: Authority, user_id: str, args: Args) -> Actor:
    """The gate, then the grant. Nothing is written for a caller who fails the gate."""
    with env.db.session() as session:
        actor = gate(session, authority, user_id, org_hint(args))
    ensure_first_admin_grant(env.db, env.grantable)
    with env.db.session() as session:
        require_grant(session, user_id, tool)
    return actor


def bound_payload(args: Args, prepared: Prepared[R]) -> str:
    """What a confirmation token binds: the typed arguments as given (canonical JSON, the
    organisation hint aside) and the state the operation re-derived from the database."""
    return canonical_json({"arguments": canonical_arguments(args), "state": prepared.payload})


def read(env: AdminEnv, op: Read[A, R], user_id: str, args: A) -> R:
    actor = access(env, op.name, op.authority, user_id, args)
    with env.db.session() as session:
        return op.read(env, session, actor, args)


def propose(env: AdminEnv, op: Change[A, W], user_id: str, args: A) -> Proposed:
    actor = access(env, op.tools[0], op.authority, user_id, args)
    with env.db.session() as session:
        prepared = op.prepare(env, session, actor, args)
    token = env.tokens.mint(op.name, bound_payload(args, prepared), user_id)
    proposal = Proposal(
        operation=op.name,
        summary=prepared.summary,
        diff=prepared.diff,
        organisation_id=actor.org_id,
    )
    return Proposed(
        proposal=proposal,
        confirmation_token=token,
        next=(
            "Show this summary to the person. Only if they agree, POST the same arguments "
            f"plus confirmationToken to /api/v1/admin/apply/{op.slug}."
        ),
    )


def apply(env: AdminEnv, op: Change[A, W], user_id: str, args: A, presented: str) -> W:
    actor = access(env, op.tools[1], op.authority, user_id, args)
    with env.apply_lock, env.db.session(write=True) as session:
        if session.get_bind().dialect.name == "postgresql":
            session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": APPLY_LOCK})
        actor = gate(session, op.authority, user_id, org_hint(args))
        prepared = op.prepare(env, session, actor, args)
        if not env.tokens.verify(op.name, bound_payload(args, prepared), user_id, presented):
            raise Forbidden(MISMATCH_MESSAGE, code=ErrorCode.CONFIRMATION_INVALID)
        result = prepared.write(session)
        if op.changes in ("sites", "providers"):
            bump(session)  # every other replica re-reads its sites and providers
    if op.changes == "sites":
        env.sites_changed()
    if op.changes == "providers":
        env.providers_changed()
    return result.model_copy(update={"applied": op.name})
