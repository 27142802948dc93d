"""Defect 8 of the hardening battery, assistant side: a lone surrogate or a NUL in a chat
message or a thread title is a 400 on every database (PostgreSQL cannot store a NUL),
never a 500."""

from __future__ import annotations

import pytest

from tests.assistant.conftest import Harness

pytestmark = pytest.mark.anyio
BAD = ['"\\ud83d"', '"a\\u0000b"']


async def _post(harness: Harness, path: str, raw: str, headers: dict[str, str]) -> tuple[int, str]:
    headers = {**headers, "content-type": "application/json"}
    response = await harness.client.post(path, content=raw, headers=headers)
    return response.status_code, response.json()["error"]["code"]


@pytest.mark.parametrize("bad", BAD)
async def test_lone_surrogate_or_nul_in_chat_message_is_400(harness: Harness, bad: str) -> None:
    _, headers = harness.user("a@x.io")
    created = await harness.client.post("/api/v1/assistant/threads", json={}, headers=headers)
    thread = created.json()["id"]
    raw = f'{{"threadId": "{thread}", "message": {bad}}}'
    assert await _post(harness, "/api/v1/assistant/chat", raw, headers) == (400, "invalid_request")


@pytest.mark.parametrize("bad", BAD)
async def test_lone_surrogate_or_nul_in_thread_title_is_400(harness: Harness, bad: str) -> None:
    _, headers = harness.user("a@x.io")
    raw = f'{{"title": {bad}}}'
    status = await _post(harness, "/api/v1/assistant/threads", raw, headers)
    assert status == (400, "invalid_request")


@pytest.mark.parametrize(
    ("path", "raw"),
    [
        ("/api/v1/assistant/chat", '{{"threadId": "{thread}", "message": "hi", "mode": "fast"}}'),
        (
            "/api/v1/assistant/chat",
            '{{"threadId": "{thread}", "message": "hi", "pageContext": {{"lang": "en"}}}}',
        ),
        ("/api/v1/assistant/threads", '{{"title": "t", "colour": "red"}}'),
    ],
)
async def test_unknown_fields_are_400(harness: Harness, path: str, raw: str) -> None:
    _, headers = harness.user("a@x.io")
    created = await harness.client.post("/api/v1/assistant/threads", json={}, headers=headers)
    body = raw.format(thread=created.json()["id"])
    assert await _post(harness, path, body, headers) == (400, "invalid_request")
