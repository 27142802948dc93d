"""The assistant on Anthropic's Messages API (tool use), through the real client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.assistant.conftest import Harness, open_harness
from tests.assistant.frames import captions, parse_frames, text_of, types
from tests.assistant.scripted import Call, ModelServer, Script


@pytest.fixture
async def claude(tmp_path: Path, docs_root: Path, models: ModelServer) -> AsyncIterator[Harness]:
    chat = {
        "provider": "anthropic",
        "model": "claude-scripted",
        "base_url": models.url,
        "api_key": "sk-ant-test",
    }
    url = f"sqlite:///{tmp_path / 'askdocs.db'}"
    async with open_harness(tmp_path / "data", url, docs_root, models, chat=chat) as opened:
        yield opened


@pytest.mark.anyio
async def test_tool_use_round_trip_on_anthropic(claude: Harness) -> None:
    user, headers = claude.user("a@x.io")
    created = await claude.client.post("/api/v1/assistant/threads", json={}, headers=headers)
    thread = created.json()["id"]
    claude.models.script(
        Script(["Let me look."], calls=[Call("search_docs", {"query": "hybrid search"})]),
        Script(["It fuses BM25 and vectors."], usage=(55, 11)),
    )
    response = await claude.client.post(
        "/api/v1/assistant/chat",
        json={"threadId": thread, "message": "How does search rank?"},
        headers=headers,
    )
    assert response.status_code == 200
    await claude.wait_idle(thread)
    frames = parse_frames(response.text)
    assert types(frames)[:2] == ["start", "text-start"]
    assert types(frames)[-2:] == ["finish", "[DONE]"]
    assert captions(frames)[0] == "Searching the documentation"
    assert text_of(frames) == "Let me look.\n\nIt fuses BM25 and vectors."
    assert frames[-2]["finishReason"] == "stop"
    first, second = claude.models.requests[:2]
    assert first["max_tokens"] == 16384 + 8192  # answer allowance plus reasoning headroom
    offered = [t["name"] for t in first["tools"]]
    assert offered == claude.runtime.tools_for(user.id).names() == ["search_docs"]  # no grants
    results = [
        block
        for message in second["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert len(results) == 1
    assert results[0]["tool_use_id"] == "toolu_0"
    assert "DATA returned by the tool search_docs" in str(results[0]["content"])
