"""The tools a turn offers are the acting user's: the ungated ``search_docs`` plus each admin
tool the user holds a grant for, read from the database when the turn starts. The system
prompt of that turn lists exactly the offered tools (both directions, and the count), the
request to the model offers exactly those, and no apply tool is ever among them (AU-17)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import delete

from askdocs.admin.grants import ensure_first_admin_grant
from askdocs.admin.table import grantable_tools
from askdocs.db.admin_models import ToolGrantRow
from tests.assistant.conftest import Harness
from tests.assistant.frames import parse_frames
from tests.assistant.scripted import Call, Script

LISTED = re.compile(r"^- `([a-z_][a-z0-9_]*)`: ", re.MULTILINE)
COUNT = re.compile(r"You have (\d+) tools?[:.]")
THREADS = "/api/v1/assistant/threads"
MODEL_TOOLS = sorted(name for name in grantable_tools() if not name.startswith("apply_"))


async def _turn(harness: Harness, headers: dict[str, str], message: str = "hello") -> list[Any]:
    thread = (await harness.client.post(THREADS, json={}, headers=headers)).json()["id"]
    body = {"threadId": thread, "message": message}
    response = await harness.client.post("/api/v1/assistant/chat", json=body, headers=headers)
    assert response.status_code == 200, response.text
    await harness.wait_idle(thread)
    return parse_frames(response.text)


def _offered(request: dict[str, Any]) -> list[str]:
    return [tool["function"]["name"] for tool in request.get("tools", [])]


def _check_prompt(request: dict[str, Any]) -> list[str]:
    """The prompt lists exactly the offered tools, once each, and states their count."""
    system = request["messages"][0]
    assert system["role"] == "system"
    listed = LISTED.findall(system["content"])
    offered = _offered(request)
    assert set(listed) == set(offered)  # every offered tool listed, nothing else listed
    assert len(listed) == len(offered)  # none listed twice
    assert COUNT.findall(system["content"]) == [str(len(offered))]
    assert not [name for name in offered if name.startswith("apply")]
    return offered


@pytest.mark.anyio
async def test_a_member_without_grants_is_offered_only_search_docs(harness: Harness) -> None:
    harness.user("root@x.io", admin=True)  # the first administrator holds the full grant
    _, headers = harness.user("member@x.io")
    await _turn(harness, headers)
    assert _check_prompt(harness.models.requests[0]) == ["search_docs"]


@pytest.mark.anyio
async def test_an_admin_with_the_full_grant_is_offered_every_model_tool(harness: Harness) -> None:
    root, headers = harness.user("root@x.io", admin=True)
    await _turn(harness, headers)
    offered = _check_prompt(harness.models.requests[0])
    assert sorted(offered) == sorted(["search_docs", *MODEL_TOOLS])
    assert offered == harness.runtime.tools_for(root.id).names()
    assert len(offered) == len(harness.runtime.tools) == 19


@pytest.mark.anyio
async def test_grants_are_read_at_every_turn(harness: Harness) -> None:
    root, headers = harness.user("root@x.io", admin=True)
    ensure_first_admin_grant(harness.runtime.db, grantable_tools())
    await _turn(harness, headers)
    with harness.runtime.db.session(write=True) as session:
        keep = ("list_sites", "propose_write_page", "apply_write_page")
        session.execute(
            delete(ToolGrantRow).where(
                ToolGrantRow.user_id == root.id, ToolGrantRow.tool_name.not_in(keep)
            )
        )
    await _turn(harness, headers)
    second = _check_prompt(harness.models.requests[-1])
    assert second == ["search_docs", "list_sites", "propose_write_page"]


@pytest.mark.anyio
async def test_a_tool_not_offered_cannot_be_called(harness: Harness) -> None:
    harness.user("root@x.io", admin=True)
    _, headers = harness.user("member@x.io")
    harness.models.script(
        Script(calls=[Call("list_inference_providers", {}), Call("apply_write_page", {})]),
        Script(["Nothing to see."]),
    )
    frames = await _turn(harness, headers, "list the providers")
    tool_messages = [m for m in harness.models.requests[1]["messages"] if m["role"] == "tool"]
    contents = [m["content"].split("\n", 1)[1] for m in tool_messages]
    assert contents == [
        '{"error": "unknown tool \'list_inference_providers\'"}',
        '{"error": "unknown tool \'apply_write_page\'"}',
    ]
    captions = [f for f in frames if isinstance(f, dict) and f["type"] == "data-toolStatus"]
    assert captions == []  # nothing ran, so nothing was announced
