"""Threads over HTTP: caller scoping (404, never 403), PATCH semantics, DELETE, summaries."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import func, select

from askdocs.db.models import MessageRow, ThreadRow
from tests.assistant.conftest import Harness

THREADS = "/api/v1/assistant/threads"


async def _thread(harness: Harness, headers: dict[str, str], **body: object) -> str:
    response = await harness.client.post(THREADS, json=body, headers=headers)
    assert response.status_code == 201
    return str(response.json()["id"])


def _row(harness: Harness, thread_id: str) -> ThreadRow | None:
    with harness.runtime.db.session() as session:
        return session.get(ThreadRow, thread_id)


@pytest.mark.anyio
async def test_create_keeps_a_known_site_and_drops_a_foreign_one(harness: Harness) -> None:
    _, headers = harness.user("a@x.io")
    known = await _thread(harness, headers, siteId="docs", title="Mine")
    foreign = await _thread(harness, headers, siteId="someone-elses-site")
    known_row, foreign_row = _row(harness, known), _row(harness, foreign)
    assert known_row is not None
    assert known_row.site_id == "docs"
    assert known_row.title == "Mine"
    assert foreign_row is not None
    assert foreign_row.site_id is None


@pytest.mark.anyio
async def test_another_users_thread_is_404_everywhere(harness: Harness) -> None:
    _, mine = harness.user("a@x.io")
    _, theirs = harness.user("b@x.io")
    thread = await _thread(harness, mine, title="secret")
    client = harness.client
    for response in (
        await client.get(f"{THREADS}/{thread}", headers=theirs),
        await client.patch(f"{THREADS}/{thread}", json={"title": "pwned"}, headers=theirs),
        await client.delete(f"{THREADS}/{thread}", headers=theirs),
        await client.post(
            "/api/v1/assistant/chat", json={"threadId": thread, "message": "hi"}, headers=theirs
        ),
    ):
        assert response.status_code == 404
        assert response.json()["error"]["message"] == "Thread not found"
    unknown = await client.get(f"{THREADS}/{uuid.uuid4()}", headers=theirs)
    assert unknown.status_code == 404
    assert unknown.json() == response.json()
    row = _row(harness, thread)
    assert row is not None
    assert row.title == "secret"
    assert (await client.get(THREADS, headers=theirs)).json() == {"threads": []}


@pytest.mark.anyio
async def test_patch_null_fields_are_unchanged(harness: Harness) -> None:
    _, headers = harness.user("a@x.io")
    thread = await _thread(harness, headers, title="first")
    url = f"{THREADS}/{thread}"
    archived = await harness.client.patch(url, json={"archived": True}, headers=headers)
    assert archived.json()["archived"] is True
    renamed = await harness.client.patch(
        url, json={"title": "second", "archived": None}, headers=headers
    )
    assert renamed.status_code == 200
    row = _row(harness, thread)
    assert row is not None
    assert row.title == "second"
    assert row.archived_at is not None
    listed = (await harness.client.get(THREADS, headers=headers)).json()["threads"]
    assert listed == []
    shelf = await harness.client.get(f"{THREADS}?archived=true", headers=headers)
    assert [t["id"] for t in shelf.json()["threads"]] == [thread]
    restored = await harness.client.patch(url, json={"archived": False}, headers=headers)
    assert restored.json()["archived"] is False
    listed = (await harness.client.get(THREADS, headers=headers)).json()["threads"]
    assert [t["id"] for t in listed] == [thread]
    bad = await harness.client.get(f"{THREADS}?archived=maybe", headers=headers)
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "invalid_request"
    empty = await harness.client.patch(url, json={"title": "   "}, headers=headers)
    assert empty.status_code == 400


@pytest.mark.anyio
async def test_delete_removes_thread_and_messages(harness: Harness) -> None:
    _, headers = harness.user("a@x.io")
    thread = await _thread(harness, headers)
    chat = await harness.client.post(
        "/api/v1/assistant/chat", json={"threadId": thread, "message": "hello"}, headers=headers
    )
    assert chat.status_code == 200
    await harness.wait_idle(thread)
    response = await harness.client.delete(f"{THREADS}/{thread}", headers=headers)
    assert response.status_code == 204
    with harness.runtime.db.session() as session:
        count = select(func.count()).select_from(MessageRow).where(MessageRow.thread_id == thread)
        assert session.scalar(count) == 0
    assert _row(harness, thread) is None
    again = await harness.client.delete(f"{THREADS}/{thread}", headers=headers)
    assert again.status_code == 404


@pytest.mark.anyio
async def test_summaries_say_awaiting_reply(harness: Harness) -> None:
    user, headers = harness.user("a@x.io")
    thread = await _thread(harness, headers)
    harness.runtime.threads.append_user(user.id, thread, "lost question", reuse_unanswered=True)
    listed = (await harness.client.get(THREADS, headers=headers)).json()["threads"]
    assert listed[0]["awaitingReply"] is True
    assert listed[0]["replyInProgress"] is False
    detail = (await harness.client.get(f"{THREADS}/{thread}", headers=headers)).json()
    assert [m["role"] for m in detail["messages"]] == ["user"]
    assert detail["replyInProgress"] is False
