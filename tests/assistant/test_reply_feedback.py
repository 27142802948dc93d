"""Thumbs up/down on assistant replies, per user: only the reply's owner may rate it; the
rating and comment land in the reply's metadata; the gaps report lists the disliked ones
with the question they answered."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from askdocs.answer.report import gaps_report
from askdocs.assistant.feedback import disliked_replies
from askdocs.db.models import MessageRow, utcnow
from tests.assistant.conftest import Harness
from tests.assistant.scripted import Script

pytestmark = pytest.mark.anyio
CHAT = "/api/v1/assistant/chat"


async def reply_of(harness: Harness, headers: dict[str, str], question: str) -> tuple[str, str]:
    thread = (
        await harness.client.post("/api/v1/assistant/threads", json={}, headers=headers)
    ).json()["id"]
    harness.models.script(Script(["Use pip."]))
    body = {"threadId": thread, "message": question}
    response = await harness.client.post(CHAT, json=body, headers=headers)
    assert response.status_code == 200
    await harness.wait_idle(thread)
    with harness.runtime.db.session() as session:
        rows = session.scalars(
            select(MessageRow).where(MessageRow.thread_id == thread).order_by(MessageRow.sequence)
        ).all()
        return rows[0].id, rows[1].id


def url(message_id: str) -> str:
    return f"/api/v1/assistant/messages/{message_id}/feedback"


async def test_a_user_rates_their_reply_and_the_report_lists_it(harness: Harness) -> None:
    _, mine = harness.user("a@x.io")
    _, theirs = harness.user("b@x.io")
    question_id, reply_id = await reply_of(harness, mine, "How do I install it?")
    rated = await harness.client.post(
        url(reply_id), json={"rating": "down", "comment": "Wrong tool."}, headers=mine
    )
    stranger = await harness.client.post(url(reply_id), json={"rating": "up"}, headers=theirs)
    own_question = await harness.client.post(url(question_id), json={"rating": "up"}, headers=mine)
    bad = await harness.client.post(url(reply_id), json={"rating": "meh"}, headers=mine)
    extra = await harness.client.post(
        url(reply_id), json={"rating": "up", "user": "x"}, headers=mine
    )
    anonymous = await harness.client.post(url(reply_id), json={"rating": "up"})
    assert rated.status_code == 204
    for refused in (stranger, own_question):
        assert (refused.status_code, refused.json()["error"]["code"]) == (404, "message_not_found")
    for refused in (bad, extra):
        assert (refused.status_code, refused.json()["error"]["code"]) == (400, "invalid_request")
    assert anonymous.status_code == 401
    (disliked,) = disliked_replies(harness.runtime.db, utcnow() - timedelta(days=1))
    assert (disliked.question, disliked.comment, disliked.kind) == (
        "How do I install it?",
        "Wrong tool.",
        "assistant",
    )
    report = gaps_report(
        harness.runtime.db,
        harness.settings.ask,
        (timedelta(days=1), None),
        None,
        lambda since: disliked_replies(harness.runtime.db, since),
    )
    assert report.disliked_count == 1
    assert report.disliked[0].kind == "assistant"
