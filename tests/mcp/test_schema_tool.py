"""``list_operation_schemas`` (server mode), askdocs's analogue of seed 002's
``ListStepSchemas``: the official SDK client against the real API in-process; the tool
returns what ``GET /api/v1/admin/schemas`` returns, for every caller, and refuses an
unknown operation with the API's code."""

from __future__ import annotations

import pytest

from askdocs.mcp.schemas import NAME
from tests.assistant.conftest import docs_root
from tests.mcp.test_admin_tools import Rig, owner, rig

__all__ = ["docs_root", "rig"]
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_every_operation_schema_as_the_api_gives_it(rig: Rig) -> None:
    caller = owner(rig)
    async with rig.client(caller) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        result = await client.call_tool(NAME, {})
    assert tools[NAME].annotations is not None
    assert tools[NAME].annotations.read_only_hint is True
    assert not result.is_error, result.content
    listed = result.structured_content["operations"]
    api = await rig.harness.client.get(
        "/api/v1/admin/schemas", headers={"Authorization": f"Bearer {caller.token}"}
    )
    expected = api.json()["operations"]
    assert [entry["operation"] for entry in listed] == [e["operation"] for e in expected]
    assert [entry["arguments"] for entry in listed] == [e["schema"] for e in expected]
    names = {entry["operation"] for entry in listed}
    assert {"CreateSite", "WritePage", "list_sites"} <= names
    create = next(entry for entry in listed if entry["operation"] == "CreateSite")
    assert create["kind"] == "proposal"
    assert create["arguments"]["type"] == "object"
    assert "id" in create["arguments"]["properties"]


async def test_one_operation_by_slug_and_an_unknown_one(rig: Rig) -> None:
    async with rig.client(owner(rig)) as client:
        one = await client.call_tool(NAME, {"operation": "create-site"})
        unknown = await client.call_tool(NAME, {"operation": "launch-rockets"})
        bad = await client.call_tool(NAME, {"operation": "../admin"})
    assert [e["operation"] for e in one.structured_content["operations"]] == ["CreateSite"]
    assert unknown.is_error
    assert "[unknown_operation]" in unknown.content[0].text
    assert bad.is_error
    assert "[invalid_argument]" in bad.content[0].text
