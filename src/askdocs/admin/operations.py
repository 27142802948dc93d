"""Propose and Apply: the one runner every pair (tools and REST) goes through.

Propose: gate (re-read) -> grant -> re-derive the payload -> mint a token; writes nothing.
Apply: gate -> grant -> under the apply lock and one write transaction, re-derive the
payload from the database and the arguments -> verify the token -> write. A token that
does not verify writes nothing. Authority always comes first, from the database.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

from askdocs.admin import ops_grants, ops_pages, ops_providers, ops_sites
from askdocs.admin.args import JsonObject, org_hint
from askdocs.admin.authority import Actor, organisation_gate, platform_gate
from askdocs.admin.env import AdminEnv, Prepare, Prepared, PrepareGiven
from askdocs.admin.grants import ensure_first_admin_grant, require_grant
from askdocs.admin.models import Args, as_args, canonical_arguments, parse
from askdocs.admin.names import OPERATIONS, Authority, apply_name, authority_of, propose_name
from askdocs.confirm.canonical import canonical_json
from askdocs.error_codes import ErrorCode
from askdocs.errors import Forbidden, NotFound

APPLY_LOCK = 0x61646D61  # "adma": PostgreSQL advisory lock serialising applies
MISMATCH_MESSAGE = "the confirmation token does not match this change; propose it again"


def as_given(prepare: PrepareGiven) -> Prepare:
    """``prepare`` over the arguments as given (``as_args``)."""

    def typed(env: AdminEnv, session: Session, org: str | None, user: str, args: Args) -> Prepared:
        return prepare(env, session, org, user, as_args(args))

    return typed


# Page and grant operations take their typed model; site and provider operations take the
# arguments as given (``as_args``: absent, null and "" mean different things there).
PREPARE: dict[str, Prepare] = {
    "CreateSite": as_given(ops_sites.prepare_create),
    "UpdateSite": as_given(ops_sites.prepare_update),
    "DeleteSite": as_given(ops_sites.prepare_delete),
    "WritePage": ops_pages.prepare_write,
    "DeletePage": ops_pages.prepare_delete,
    "AssignToolGrants": ops_grants.prepare_assign,
    "CreateInferenceProvider": as_given(ops_providers.prepare_create),
    "UpdateInferenceProvider": as_given(ops_providers.prepare_update),
    "DeleteInferenceProvider": as_given(ops_providers.prepare_delete),
}
SITE_OPERATIONS = frozenset({"CreateSite", "UpdateSite", "DeleteSite"})
PROVIDER_OPERATIONS = frozenset(
    {"CreateInferenceProvider", "UpdateInferenceProvider", "DeleteInferenceProvider"}
)


def gate(session: Session, authority: Authority, user_id: str, hint: str | None) -> Actor:
    if authority == "platform":
        return platform_gate(session, user_id)
    return organisation_gate(session, user_id, hint)


def access(env: AdminEnv, tool: str, user_id: str, hint: str | None) -> Actor:
    """The gate, then the grant. Nothing is written for a caller who fails the gate."""
    with env.db.session() as session:
        actor = gate(session, authority_of(tool), user_id, hint)
    ensure_first_admin_grant(env.db)
    with env.db.session() as session:
        require_grant(session, user_id, tool)
    return actor


def operation_of(name: str) -> str:
    if name not in OPERATIONS:
        raise NotFound(f"unknown operation {name!r}", code=ErrorCode.UNKNOWN_OPERATION)
    return name


def bound_payload(model: Args, prepared: Prepared) -> str:
    """What a confirmation token binds: the typed arguments as given (canonical JSON, the
    organisation hint aside) and the state the operation re-derived from the database."""
    return canonical_json({"arguments": canonical_arguments(model), "state": prepared.payload})


def propose(env: AdminEnv, operation: str, user_id: str, args: JsonObject) -> JsonObject:
    actor = access(env, propose_name(operation_of(operation)), user_id, org_hint(args))
    model = parse(operation, args)
    with env.db.session() as session:
        prepared = PREPARE[operation](env, session, actor.org_id, user_id, model)
    token = env.tokens.mint(operation, bound_payload(model, prepared), user_id)
    proposal: JsonObject = {"operation": operation, "summary": prepared.summary}
    if prepared.diff is not None:
        proposal["diff"] = prepared.diff
    if actor.org_id is not None:
        proposal["organisationId"] = actor.org_id
    return {
        "proposal": proposal,
        "confirmationToken": token,
        "next": (
            f"Show this summary to the person. Only if they agree, POST the same arguments "
            f"plus confirmationToken to /api/v1/admin/apply/{slug(operation)}."
        ),
    }


def slug(operation: str) -> str:
    """``WritePage`` -> ``write-page``: the operation's name in REST paths."""
    return propose_name(operation).removeprefix("propose_").replace("_", "-")


def apply(env: AdminEnv, operation: str, user_id: str, args: JsonObject) -> JsonObject:
    hint = org_hint(args)
    actor = access(env, apply_name(operation_of(operation)), user_id, hint)
    presented = args.get("confirmationToken")
    model = parse(operation, {k: v for k, v in args.items() if k != "confirmationToken"})
    with env.apply_lock, env.db.session(write=True) as session:
        if session.get_bind().dialect.name == "postgresql":
            session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": APPLY_LOCK})
        actor = gate(session, OPERATIONS[operation], user_id, hint)
        prepared = PREPARE[operation](env, session, actor.org_id, user_id, model)
        if not env.tokens.verify(operation, bound_payload(model, prepared), user_id, presented):
            raise Forbidden(MISMATCH_MESSAGE, code=ErrorCode.CONFIRMATION_INVALID)
        result = prepared.write(session)
    if operation in SITE_OPERATIONS:
        env.sites_changed()
    if operation in PROVIDER_OPERATIONS:
        env.providers_changed()
    return {"applied": operation, **result}
