"""``/api/v1/admin``: the admin tools over REST, with the same gates, grants and tokens.

Bearer auth as the assistant's routes (the caller re-read from the database). The token's
``org`` claim is the active organisation unless a request names ``organisationId``.
Propose answers a summary and a ``confirmationToken``; apply takes the same arguments plus
that token. Errors use the common body; see docs/admin-tools.md for every code.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from askdocs.admin.api import AdminApi
from askdocs.admin.args import JsonObject
from askdocs.admin.names import OPERATIONS
from askdocs.errors import NotFound
from askdocs.server.deps import AdminDep
from askdocs.server.signin import Caller
from askdocs.users.types import Principal

router = APIRouter(prefix="/api/v1/admin", tags=["admin"])
Args = Annotated[dict[str, Any], Body(default_factory=dict)]

Admin = AdminDep


def operation_name(slug: str) -> str:
    """``create-site`` -> ``CreateSite``; 404 for anything that is not an operation."""
    name = "".join(part.capitalize() for part in slug.split("-"))
    if not re.fullmatch(r"[a-z]+(-[a-z]+)*", slug) or name not in OPERATIONS:
        raise NotFound(f"unknown operation {slug!r}", code="unknown_operation")
    return name


def _args(caller: Principal, values: JsonObject) -> JsonObject:
    args = dict(values)
    if args.get("organisationId") is None and caller.org is not None:
        args["organisationId"] = caller.org
    return args


async def _read(admin: AdminApi, caller: Principal, tool: str, values: JsonObject) -> JsonObject:
    args = _args(caller, {k: v for k, v in values.items() if v is not None})
    return await anyio.to_thread.run_sync(admin.read, tool, caller.user_id, args)


@router.get("/sites")
async def list_sites(admin: Admin, caller: Caller, organisationId: str | None = None) -> JsonObject:
    return await _read(admin, caller, "list_sites", {"organisationId": organisationId})


@router.get("/sites/{site_id}")
async def get_site(
    admin: Admin, caller: Caller, site_id: str, organisationId: str | None = None
) -> JsonObject:
    values = {"siteId": site_id, "organisationId": organisationId}
    return await _read(admin, caller, "get_site", values)


@router.get("/sites/{site_id}/pages")
async def list_pages(
    admin: Admin, caller: Caller, site_id: str, organisationId: str | None = None
) -> JsonObject:
    values = {"siteId": site_id, "organisationId": organisationId}
    return await _read(admin, caller, "list_pages", values)


@router.get("/sites/{site_id}/pages/{path:path}")
async def read_page(
    admin: Admin, caller: Caller, site_id: str, path: str, organisationId: str | None = None
) -> JsonObject:
    values = {"siteId": site_id, "path": path, "organisationId": organisationId}
    return await _read(admin, caller, "read_page", values)


@router.get("/runs")
async def list_runs(
    admin: Admin,
    caller: Caller,
    siteId: str | None = None,
    limit: int = 20,
    organisationId: str | None = None,
) -> JsonObject:
    values = {"siteId": siteId, "limit": limit, "organisationId": organisationId}
    return await _read(admin, caller, "list_index_runs", values)


@router.get("/grants")
async def list_grants(
    admin: Admin, caller: Caller, organisationId: str | None = None
) -> JsonObject:
    return await _read(admin, caller, "list_tool_grants", {"organisationId": organisationId})


@router.get("/grants/mine")
async def own_grants(admin: Admin, caller: Caller) -> JsonObject:
    """The admin tools granted to the caller (the MCP server offers only these)."""
    return await anyio.to_thread.run_sync(admin.own_grants, caller.user_id)


@router.get("/providers")
async def list_providers(admin: Admin, caller: Caller) -> JsonObject:
    return await anyio.to_thread.run_sync(
        admin.read, "list_inference_providers", caller.user_id, {}
    )


@router.post("/providers/{provider_id}/test")
async def test_provider(admin: Admin, caller: Caller, provider_id: str) -> JsonObject:
    return await admin.test_provider(caller.user_id, {"providerId": provider_id})


@router.post("/sites/{site_id}/reindex", status_code=202)
async def reindex(
    admin: Admin, caller: Caller, site_id: str, organisationId: str | None = None
) -> JSONResponse:
    args = _args(caller, {"siteId": site_id, "organisationId": organisationId})
    data = await admin.reindex(caller.user_id, args, "api")
    return JSONResponse(data, status_code=202, headers={"Cache-Control": "no-store"})


@router.post("/proposals/{operation}")
async def propose(admin: Admin, caller: Caller, operation: str, body: Args) -> JsonObject:
    name, args = operation_name(operation), _args(caller, body)
    return await anyio.to_thread.run_sync(admin.propose, name, caller.user_id, args)


@router.post("/apply/{operation}")
async def apply(admin: Admin, caller: Caller, operation: str, body: Args) -> JsonObject:
    name, args = operation_name(operation), _args(caller, body)
    return await anyio.to_thread.run_sync(admin.apply, name, caller.user_id, args)
