"""Typed operations: one model per operation is the tool schema, the documented REST body,
the schema endpoints' answer and the arguments a token binds; unknown fields are 400."""

from __future__ import annotations

from typing import Any

import pytest

from askdocs.admin.table import TABLE, Change
from askdocs.assistant.admin_tools.tools import propose_spec, single_spec
from askdocs.errors import InvalidInput
from askdocs.mcp.operations import docs_operations
from askdocs.settings import load_settings
from askdocs.wire import json_schema
from tests.admin.test_rest import ADMIN, rest
from tests.admin.world import World, db_state

__all__ = ["rest"]


CHANGES = [op for op in TABLE if isinstance(op, Change)]


def test_tool_schemas_are_the_models_schemas() -> None:
    for op in TABLE:
        spec = propose_spec(op) if isinstance(op, Change) else single_spec(op)
        assert spec.name == op.tools[0]
        assert spec.parameters == json_schema(op.args)
        assert spec.parameters["additionalProperties"] is False
    create_site = next(op for op in CHANGES if op.name == "CreateSite")
    assert create_site.schema()["required"] == ["name", "id"]


@pytest.mark.anyio
async def test_openapi_describes_every_admin_body_with_its_fields(rest: Any) -> None:
    harness, _ = rest
    spec = (await harness.client.get("/openapi.json")).json()
    for op in CHANGES:
        fields = set(op.args.model_json_schema(by_alias=True)["properties"])
        for kind, extra in (("proposals", set()), ("apply", {"confirmationToken"})):
            post = spec["paths"][f"{ADMIN}/{kind}/{op.slug}"]["post"]
            schema = post["requestBody"]["content"]["application/json"]["schema"]
            assert set(schema["properties"]) == fields | extra, (kind, op.name)
            assert schema["additionalProperties"] is False
    assert f"{ADMIN}/proposals/{{operation}}" not in spec["paths"]


@pytest.mark.anyio
async def test_openapi_describes_every_admin_read_result_with_its_fields(rest: Any) -> None:
    harness, people = rest
    spec = (await harness.client.get("/openapi.json")).json()
    components = spec["components"]["schemas"]
    reads = {"/sites": "sites", "/sites/{siteId}": "lastRun", "/runs": "runs"}
    reads |= {"/sites/{siteId}/pages": "pages", "/sites/{siteId}/pages/{path}": "sha256"}
    reads |= {"/grants": "members", "/providers": "providers"}
    for path, field in reads.items():
        ok = spec["paths"][f"{ADMIN}{path}"]["get"]["responses"]["200"]
        ref = ok["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert field in components[ref]["properties"], path
    _, headers = people["owner"]
    listed = (await harness.client.get(f"{ADMIN}/sites", headers=headers)).json()
    assert set(listed) == {"sites"}
    assert {"askEnabled", "defaultLocale", "organisationId"} <= set(listed["sites"][0])


@pytest.mark.anyio
async def test_schema_endpoints_list_every_operation_from_the_models(rest: Any) -> None:
    harness, people = rest
    _, headers = people["owner"]
    listed = await harness.client.get(f"{ADMIN}/schemas", headers=headers)
    assert listed.status_code == 200
    entries = {e["operation"]: e for e in listed.json()["operations"]}
    docs = docs_operations(load_settings())
    assert set(entries) == {op.name for op in TABLE} | {op.name for op in docs}
    write_page = next(op for op in CHANGES if op.name == "WritePage")
    assert entries["WritePage"]["schema"] == write_page.schema()
    assert entries["WritePage"]["kind"] == "proposal"
    assert entries["WritePage"]["label"] == "Write a page"
    assert entries["WritePage"]["tools"] == ["propose_write_page", "apply_write_page"]
    one = await harness.client.get(f"{ADMIN}/schemas/create-site", headers=headers)
    assert one.json() == entries["CreateSite"]
    tool = await harness.client.get(f"{ADMIN}/schemas/list_sites", headers=headers)
    assert tool.json()["kind"] == "read"
    action = await harness.client.get(f"{ADMIN}/schemas/reindex-site", headers=headers)
    assert action.json()["kind"] == "action"
    missing = await harness.client.get(f"{ADMIN}/schemas/drop-database", headers=headers)
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "unknown_operation")
    anonymous = await harness.client.get(f"{ADMIN}/schemas")
    assert anonymous.status_code == 401


@pytest.mark.anyio
async def test_unknown_fields_are_400_on_propose_and_apply(rest: Any) -> None:
    harness, people = rest
    _, headers = people["owner"]
    before = db_state(harness.runtime.db)
    body = {"siteId": "alpha", "path": "x.md", "content": "# X\n", "overwrite": True}
    for kind in ("proposals", "apply"):
        answer = await harness.client.post(
            f"{ADMIN}/{kind}/write-page", json={**body, "confirmationToken": "0" * 64}
            if kind == "apply" else body, headers=headers,
        )  # fmt: skip
        assert answer.status_code == 400, kind
        assert answer.json()["error"] == {
            "code": "invalid_argument",
            "message": "overwrite: unknown field",
        }
    assert db_state(harness.runtime.db) == before


def test_unknown_fields_are_refused_for_tools_too(world: World) -> None:
    with pytest.raises(InvalidInput) as refused:
        world.api.propose("DeleteSite", world.owner.id, {"siteId": "alpha", "force": True})
    assert refused.value.code == "invalid_argument"
    with pytest.raises(InvalidInput):
        world.api.read("list_sites", world.owner.id, {"everything": True})


def test_a_token_binds_the_arguments_as_given(world: World) -> None:
    args = {"siteId": "alpha", "name": "Alpha docs"}
    proposed = world.api.propose("UpdateSite", world.owner.id, args)
    token = proposed["confirmationToken"]
    with pytest.raises(Exception) as refused:  # same change, other arguments: refused
        world.api.apply(
            "UpdateSite", world.owner.id, {**args, "public": None, "confirmationToken": token}
        )
    assert getattr(refused.value, "code", None) == "confirmation_invalid"
    done = world.api.apply("UpdateSite", world.owner.id, {**args, "confirmationToken": token})
    assert done["updated"]["name"] == "Alpha docs"
