"""``/api/v1/admin``: every operation of the admin table (``admin.table``) over REST,
generated from it, with the same gates, grants and tokens as every other surface.

For each operation the argument model is the request body and the result model the
response model:
- a proposal ``CreateSite``: ``POST /proposals/create-site`` (a summary and a
  ``confirmationToken``, writes nothing) and ``POST /apply/create-site`` (the same
  arguments plus that token);
- a read ``list_sites``: ``POST /reads/list-sites``, and its ``GET`` route (``/sites``);
- an action ``reindex_site``: ``POST /actions/reindex-site``, and its route
  (``POST /sites/{siteId}/reindex``).
A ``GET``/route form takes the same fields as path and query parameters. Bearer or session
auth as the assistant's routes (the caller re-read from the database); the token's ``org``
is the active organisation unless a request names ``organisationId``. Arguments that fail
their model answer ``400 invalid_argument``. See docs/admin-tools.md for every code.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Body, Path, Query
from pydantic import BaseModel, Field, ValidationError, create_model

from askdocs.admin.api import AdminApi
from askdocs.admin.models import Args, invalid
from askdocs.admin.results import OwnGrants, Proposed, Result
from askdocs.admin.table import TABLE, Action, AnyOperation, Change, Read, find, unknown
from askdocs.error_codes import ErrorCode
from askdocs.mcp.operations import docs_operations
from askdocs.server.admin_calls import ArgumentRoute, Endpoint, TypedEndpoint, keyword, scoped
from askdocs.server.approval import Approval, ApprovalGate
from askdocs.server.deps import AdminDep, SettingsDep
from askdocs.server.openapi import BODY_KEY, ERRORS_KEY
from askdocs.server.signin import Caller
from askdocs.users.types import Principal
from askdocs.wire import JsonDict, json_schema

router = APIRouter(prefix="/api/v1/admin", tags=["admin"], route_class=ArgumentRoute)
TOKEN_HELP = "The token the proposal returned."  # noqa: S105 (a description)


def apply_model(op: Change[Any, Any]) -> type[Args]:
    """The apply body: the operation's arguments plus ``confirmationToken``."""
    token = (str, Field(min_length=1, max_length=128, description=TOKEN_HELP))
    model: type[Args] = create_model(f"Apply{op.name}", __base__=op.args, confirmation_token=token)
    return model


def _body(model: type[BaseModel]) -> inspect.Parameter:
    return keyword("body", Annotated[model, Body()])


def _caller_params() -> list[inspect.Parameter]:
    return [keyword("admin", AdminDep), keyword("caller", Caller)]


def _documented(schema: JsonDict, title: str) -> dict[str, object]:
    """The request body as ``/openapi.json`` shows it: the operation's own schema."""
    return {BODY_KEY: {**schema, "title": title}}


def _add(
    path: str,
    run: Endpoint,
    body: type[BaseModel],
    *more: inspect.Parameter,
    **extra: Any,
) -> None:
    """One generated ``POST`` route whose body is ``body`` (plus ``more`` parameters)."""
    parameters = [*_caller_params(), _body(body), *more]
    endpoint = TypedEndpoint(run, parameters, extra["operation_id"])
    router.add_api_route(path, endpoint, methods=["POST"], **extra)


def _add_change(op: Change[Any, Any]) -> None:
    async def propose(admin: AdminApi, caller: Principal, body: Args) -> Proposed:
        args = scoped(caller, body)
        return await anyio.to_thread.run_sync(admin.run_propose, op, caller.user_id, args)

    async def apply(
        admin: AdminApi, caller: Principal, body: Args, approval: ApprovalGate
    ) -> BaseModel:
        given = body.model_dump(by_alias=True, exclude_unset=True, exclude={"confirmation_token"})
        args = scoped(caller, op.args.model_validate(given))
        token = str(body.model_dump()["confirmation_token"])
        approval.require(token)  # an MCP token: the person's proof (issue #27, defect 4)
        return await anyio.to_thread.run_sync(admin.run_apply, op, caller.user_id, args, token)

    schema, applied = op.schema(), apply_model(op)
    token_schema = json_schema(applied)
    _add(
        f"/proposals/{op.slug}",
        propose,
        op.args,
        operation_id=op.tools[0],
        summary=f"Propose to {op.description}",
        response_model=Proposed,
        response_model_exclude_none=True,
        openapi_extra=_documented(schema, f"Propose{op.name}"),
    )
    _add(
        f"/apply/{op.slug}",
        apply,
        applied,
        keyword("approval", Approval),
        operation_id=op.tools[1],
        summary=f"Apply: {op.description}",
        response_model=op.result,
        openapi_extra=_documented(token_schema, f"Apply{op.name}"),
    )


def _runner(op: Read[Any, Any] | Action[Any, Any]) -> Endpoint:
    async def run(admin: AdminApi, caller: Principal, body: Args) -> Result:
        args = scoped(caller, body)
        if isinstance(op, Read):
            found: Result = await anyio.to_thread.run_sync(admin.run_read, op, caller.user_id, args)
            return found
        done: Result = await admin.run_action(op, caller.user_id, args, "api")
        return done

    return run


def _add_single(op: Read[Any, Any] | Action[Any, Any]) -> None:
    kind = "reads" if isinstance(op, Read) else "actions"
    run = _runner(op)
    _add(
        f"/{kind}/{op.slug}",
        run,
        op.args,
        operation_id=op.name,
        summary=op.label,
        response_model=op.result,
        openapi_extra=_documented(op.schema(), op.name),
    )
    if op.route is not None:
        _add_route(op, run)


def _route_param(op: AnyOperation, name: str, info: Any) -> inspect.Parameter:
    alias = info.alias or name
    path = op.route.path if op.route is not None else ""
    if f"{{{alias}}}" in path or f"{{{alias}:path}}" in path:
        return keyword(alias, Annotated[str, Path(description=info.description)])
    annotation = info.annotation if not info.is_required() else info.annotation | None
    return keyword(alias, Annotated[annotation, Query(description=info.description)], None)


def _add_route(op: Read[Any, Any] | Action[Any, Any], run: Endpoint) -> None:
    """``op``'s own route: its fields as path and query parameters."""
    assert op.route is not None
    fields = [_route_param(op, name, info) for name, info in op.args.model_fields.items()]

    async def from_parameters(admin: AdminApi, caller: Principal, **values: object) -> Result:
        given = {key: value for key, value in values.items() if value is not None}
        try:
            body = op.args.model_validate(given)
        except ValidationError as exc:
            raise invalid(exc) from None
        done: Result = await run(admin, caller, body)
        return done

    endpoint = TypedEndpoint(from_parameters, [*_caller_params(), *fields], f"{op.name}_route")
    router.add_api_route(
        op.route.path,
        endpoint,
        methods=[op.route.method],
        status_code=op.route.status,
        response_model=op.result,
        summary=op.label,
        operation_id=f"{op.name}_by_route",
    )


for _op in TABLE:
    if isinstance(_op, Change):
        _add_change(_op)
    else:
        _add_single(_op)


@router.get("/grants/mine", response_model=OwnGrants)
async def own_grants(admin: AdminDep, caller: Caller) -> OwnGrants:
    """The admin tools granted to the caller (the MCP server offers only these)."""
    return await anyio.to_thread.run_sync(admin.own_grants, caller.user_id)


@router.get("/schemas")
async def list_schemas(caller: Caller, settings: SettingsDep) -> JsonDict:
    """Every operation (admin and documentation) with its label and arguments' schema."""
    entries = [op.entry() for op in (*TABLE, *docs_operations(settings))]
    return {"operations": list(entries)}


@router.get("/schemas/{operation}", openapi_extra={ERRORS_KEY: [ErrorCode.UNKNOWN_OPERATION]})
async def get_schema(caller: Caller, settings: SettingsDep, operation: str) -> JsonDict:
    """One operation's entry, by name (``CreateSite``, ``list_sites``) or REST slug."""
    for op in docs_operations(settings):
        if operation in (op.name, op.slug):
            return op.entry()
    return find(operation).entry()


@router.post("/proposals/{operation}", include_in_schema=False)
@router.post("/apply/{operation}", include_in_schema=False)
@router.post("/reads/{operation}", include_in_schema=False)
@router.post("/actions/{operation}", include_in_schema=False)
async def unknown_operation(caller: Caller, operation: str) -> JsonDict:
    raise unknown(operation)
