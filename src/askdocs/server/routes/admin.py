"""``/api/v1/admin``: the admin tools over REST, with the same gates, grants and tokens.

Bearer auth as the assistant's routes (the caller re-read from the database). The token's
``org`` claim is the active organisation unless a request names ``organisationId``.
Propose answers a summary and a ``confirmationToken``; apply takes the same arguments plus
that token. Errors use the common body; see docs/admin-tools.md for every code.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Body, Query
from fastapi.responses import JSONResponse

from askdocs.admin.api import AdminApi
from askdocs.admin.args import JsonObject
from askdocs.admin.models import OPERATION_MODELS, TOOL_MODELS, json_schema, model_of, schema_entry
from askdocs.admin.names import OPERATIONS, snake
from askdocs.admin.operations import slug
from askdocs.admin.results import (
    GrantsOut,
    PageOut,
    PagesOut,
    ProvidersOut,
    RunsOut,
    SiteDetailOut,
    SitesOut,
)
from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.server.approval import Approval
from askdocs.server.deps import AdminDep
from askdocs.server.openapi import ERRORS_KEY
from askdocs.server.signin import Caller
from askdocs.users.types import Principal

# an organisation id as ``admin.args.org_hint`` takes it: 1-64 characters
OrgParam = Annotated[str | None, Query(min_length=1, max_length=64)]

router = APIRouter(prefix="/api/v1/admin", tags=["admin"])
Args = Annotated[dict[str, Any], Body(default_factory=dict)]

Admin = AdminDep


def operation_name(slug: str) -> str:
    """``create-site`` -> ``CreateSite``; 404 for anything that is not an operation."""
    name = "".join(part.capitalize() for part in slug.split("-"))
    if not re.fullmatch(r"[a-z]+(-[a-z]+)*", slug) or name not in OPERATIONS:
        raise NotFound(f"unknown operation {slug!r}", code=ErrorCode.UNKNOWN_OPERATION)
    return name


def _args(caller: Principal, name: str, values: JsonObject) -> JsonObject:
    """The arguments, with the token's active organisation when ``name`` takes one."""
    args = dict(values)
    scoped = "organisation_id" in model_of(name).model_fields
    if scoped and args.get("organisationId") is None and caller.org is not None:
        args["organisationId"] = caller.org
    return args


async def _read(admin: AdminApi, caller: Principal, tool: str, values: JsonObject) -> JsonObject:
    args = _args(caller, tool, {k: v for k, v in values.items() if v is not None})
    return await anyio.to_thread.run_sync(admin.read, tool, caller.user_id, args)


@router.get("/sites", response_model=SitesOut)
async def list_sites(admin: Admin, caller: Caller, organisationId: OrgParam = None) -> JsonObject:
    return await _read(admin, caller, "list_sites", {"organisationId": organisationId})


@router.get("/sites/{site_id}", response_model=SiteDetailOut)
async def get_site(
    admin: Admin, caller: Caller, site_id: str, organisationId: OrgParam = None
) -> JsonObject:
    values = {"siteId": site_id, "organisationId": organisationId}
    return await _read(admin, caller, "get_site", values)


@router.get("/sites/{site_id}/pages", response_model=PagesOut)
async def list_pages(
    admin: Admin, caller: Caller, site_id: str, organisationId: OrgParam = None
) -> JsonObject:
    values = {"siteId": site_id, "organisationId": organisationId}
    return await _read(admin, caller, "list_pages", values)


@router.get("/sites/{site_id}/pages/{path:path}", response_model=PageOut)
async def read_page(
    admin: Admin, caller: Caller, site_id: str, path: str, organisationId: OrgParam = None
) -> JsonObject:
    values = {"siteId": site_id, "path": path, "organisationId": organisationId}
    return await _read(admin, caller, "read_page", values)


@router.get("/runs", response_model=RunsOut)
async def list_runs(
    admin: Admin,
    caller: Caller,
    siteId: str | None = None,
    limit: int = 20,
    organisationId: OrgParam = None,
) -> JsonObject:
    values = {"siteId": siteId, "limit": limit, "organisationId": organisationId}
    return await _read(admin, caller, "list_index_runs", values)


@router.get("/grants", response_model=GrantsOut)
async def list_grants(admin: Admin, caller: Caller, organisationId: OrgParam = None) -> JsonObject:
    return await _read(admin, caller, "list_tool_grants", {"organisationId": organisationId})


@router.get("/grants/mine")
async def own_grants(admin: Admin, caller: Caller) -> JsonObject:
    """The admin tools granted to the caller (the MCP server offers only these)."""
    return await anyio.to_thread.run_sync(admin.own_grants, caller.user_id)


@router.get("/providers", response_model=ProvidersOut)
async def list_providers(admin: Admin, caller: Caller) -> JsonObject:
    return await anyio.to_thread.run_sync(
        admin.read, "list_inference_providers", caller.user_id, {}
    )


@router.post("/providers/{provider_id}/test")
async def test_provider(admin: Admin, caller: Caller, provider_id: str) -> JsonObject:
    return await admin.test_provider(caller.user_id, {"providerId": provider_id})


@router.post("/sites/{site_id}/reindex", status_code=202)
async def reindex(
    admin: Admin, caller: Caller, site_id: str, organisationId: OrgParam = None
) -> JSONResponse:
    args = _args(caller, "reindex_site", {"siteId": site_id, "organisationId": organisationId})
    data = await admin.reindex(caller.user_id, args, "api")
    return JSONResponse(data, status_code=202, headers={"Cache-Control": "no-store"})


@router.get("/schemas")
async def list_schemas(caller: Caller) -> JsonObject:
    """Every operation (Propose/Apply pair) and single tool with its arguments' JSON schema."""
    names = [*OPERATION_MODELS, *TOOL_MODELS]
    return {"operations": [schema_entry(name) for name in names]}


@router.get("/schemas/{operation}", openapi_extra={ERRORS_KEY: [ErrorCode.UNKNOWN_OPERATION]})
async def get_schema(caller: Caller, operation: str) -> JsonObject:
    """One operation's schema, by name (``CreateSite``, ``list_sites``) or REST slug."""
    name = operation if operation in TOOL_MODELS else operation_name(operation)
    return schema_entry(name)


def _proposer(name: str) -> Callable[..., Awaitable[JsonObject]]:
    async def propose(admin: Admin, caller: Caller, body: Args) -> JsonObject:
        args = _args(caller, name, body)
        return await anyio.to_thread.run_sync(admin.propose, name, caller.user_id, args)

    return propose


def _applier(name: str) -> Callable[..., Awaitable[JsonObject]]:
    async def apply(admin: Admin, caller: Caller, body: Args, approval: Approval) -> JsonObject:
        approval.require(body.get("confirmationToken"))  # an MCP token: the person's proof
        args = _args(caller, name, body)
        return await anyio.to_thread.run_sync(admin.apply, name, caller.user_id, args)

    return apply


def _documented(name: str, *, apply: bool) -> JsonObject:
    """The request body as ``/openapi.json`` shows it, generated from the operation's model."""
    schema = json_schema(model_of(name))
    if apply:
        token = {"type": "string", "description": "The token the proposal returned."}
        schema["properties"] = {**schema["properties"], "confirmationToken": token}
        schema["required"] = [*schema.get("required", []), "confirmationToken"]
    schema["title"] = f"{'Apply' if apply else 'Propose'}{name}"
    body = {"required": True, "content": {"application/json": {"schema": schema}}}
    return {"requestBody": body}


for _name, (_model, _what) in OPERATION_MODELS.items():
    router.add_api_route(
        f"/proposals/{slug(_name)}",
        _proposer(_name),
        methods=["POST"],
        summary=f"Propose to {_what}",
        operation_id=f"propose_{snake(_name)}",
        openapi_extra=_documented(_name, apply=False),
    )
    router.add_api_route(
        f"/apply/{slug(_name)}",
        _applier(_name),
        methods=["POST"],
        summary=f"Apply: {_what}",
        operation_id=f"apply_{snake(_name)}",
        openapi_extra=_documented(_name, apply=True),
    )


@router.post("/proposals/{operation}", include_in_schema=False)
@router.post("/apply/{operation}", include_in_schema=False)
async def unknown_operation(caller: Caller, operation: str) -> JsonObject:
    raise NotFound(f"unknown operation {operation!r}", code=ErrorCode.UNKNOWN_OPERATION)
