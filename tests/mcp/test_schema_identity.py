"""One schema per operation on every surface: for every row of the operation table, the MCP
tool's input schema (the official SDK client, server mode against the real API in-process),
the assistant's tool spec (the App's own registry), the OpenAPI request body and the
``GET /api/v1/admin/schemas`` entry are the same JSON schema, the argument model's. The
documentation operations' MCP tools and entries are one schema too, with the bounds the
server's ``Settings`` give (``ask`` takes ``ask.max_question_chars``)."""

from __future__ import annotations

from typing import Any

import pytest

from askdocs.admin.table import TABLE, Change, Read
from askdocs.mcp.operations import docs_operations
from askdocs.mcp.remote import RemoteBackend
from askdocs.mcp.server import ServerOptions, build_server
from askdocs.operation import Operation
from askdocs.settings import Settings
from mcp import Client
from tests.mcp.conftest import BOUND
from tests.mcp.test_admin_tools import Rig, docs_root, rig

__all__ = ["docs_root", "rig"]
pytestmark = pytest.mark.anyio
ADMIN = "/api/v1/admin"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _kind(op: Operation[Any, Any]) -> str:
    if isinstance(op, Change):
        return "proposals"
    return "reads" if isinstance(op, Read) else "actions"


def _body(spec: dict[str, Any], path: str) -> dict[str, Any]:
    content = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return {key: value for key, value in content["schema"].items() if key != "title"}


def _client(rig: Rig, user_id: str, settings: Settings | None = None) -> Client:
    """The official client over a server-mode MCP server with ``ask`` on."""
    backend = RemoteBackend("http://askdocs.test", timeout_seconds=15, transport=rig.transport)
    options = ServerOptions(
        operations=docs_operations(settings or rig.harness.settings),
        timeout_seconds=BOUND,
        ask_enabled=True,
        fixed_auth=rig.caller(user_id, None),
    )
    return Client(build_server(backend, options))  # type: ignore[arg-type]


async def _mcp_schemas(rig: Rig, user_id: str) -> dict[str, dict[str, Any]]:
    async with _client(rig, user_id) as client:
        return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}


async def _entries(rig: Rig, headers: dict[str, str]) -> dict[str, dict[str, Any]]:
    listed = await rig.harness.client.get(f"{ADMIN}/schemas", headers=headers)
    assert listed.status_code == 200, listed.text
    return {entry["operation"]: entry["schema"] for entry in listed.json()["operations"]}


async def test_every_operation_has_one_schema_on_every_surface(rig: Rig) -> None:
    root, headers = rig.people["root"]
    entries = await _entries(rig, headers)
    spec = (await rig.harness.client.get("/openapi.json")).json()
    assistant = {tool.name: tool.parameters for tool in rig.harness.runtime.tools.specs()}
    mcp = await _mcp_schemas(rig, root.id)
    checked = 0
    for op in TABLE:
        schema, tool = op.schema(), op.tools[0]
        assert schema["type"] == "object", op.name
        assert mcp[tool] == schema, f"MCP {tool}"
        assert assistant[tool] == schema, f"assistant {tool}"
        assert _body(spec, f"{ADMIN}/{_kind(op)}/{op.slug}") == schema, f"OpenAPI {op.name}"
        assert entries[op.name] == schema, f"/schemas {op.name}"
        checked += 1
    assert checked == len(TABLE) == 18


async def test_apply_bodies_are_the_arguments_and_the_token(rig: Rig) -> None:
    spec = (await rig.harness.client.get("/openapi.json")).json()
    for op in TABLE:
        if isinstance(op, Change):
            body = _body(spec, f"{ADMIN}/apply/{op.slug}")
            assert body["properties"].pop("confirmationToken")["type"] == "string"
            assert body["required"].pop() == "confirmationToken"
            assert body == op.schema(), op.name


async def test_documentation_tools_have_one_schema_with_the_settings_bounds(rig: Rig) -> None:
    root, headers = rig.people["root"]
    entries = await _entries(rig, headers)
    mcp = await _mcp_schemas(rig, root.id)
    operations = docs_operations(rig.harness.settings)
    for op in operations:
        assert mcp[op.name] == op.schema() == entries[op.name], op.name
    question = mcp["ask"]["properties"]["question"]
    assert question["maxLength"] == rig.harness.settings.ask.max_question_chars
    assert mcp["search_docs"]["properties"]["limit"]["maximum"] == 20


async def test_the_mcp_tools_refuse_what_their_schema_refuses(rig: Rig) -> None:
    owner, _ = rig.people["owner"]
    runs = "list_index_runs"
    async with rig.client(rig.caller(owner.id, None)) as client:
        schema = {t.name: t.input_schema for t in (await client.list_tools()).tools}[runs]
        limit = schema["properties"]["limit"]["anyOf"][0]  # nullable: anyOf [integer, null]
        assert (limit["type"], limit["maximum"]) == ("integer", 50)  # as the model refuses
        refused = await client.call_tool(runs, {"limit": 51})
        allowed = await client.call_tool(runs, {"limit": 50})
    assert refused.is_error
    assert "[invalid_argument]" in refused.content[0].text  # type: ignore[union-attr]
    assert not allowed.is_error, allowed.content
    assert "runs" in (allowed.structured_content or {})


async def test_ask_refuses_a_question_over_the_settings_bound(rig: Rig) -> None:
    base = rig.harness.settings
    settings = base.model_copy(
        update={"ask": base.ask.model_copy(update={"max_question_chars": 40})}
    )
    owner, _ = rig.people["owner"]
    async with _client(rig, owner.id, settings) as client:
        tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        refused = await client.call_tool("ask", {"question": "x" * 41})
    assert tools["ask"]["properties"]["question"]["maxLength"] == 40
    assert refused.is_error
    assert "`question`" in refused.content[0].text  # type: ignore[union-attr]
    assert "[invalid_argument]" in refused.content[0].text  # type: ignore[union-attr]
