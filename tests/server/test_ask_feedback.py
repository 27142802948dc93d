"""Ask AI's records and feedback in-process: every answer has an id (``X-Ask-Id``); the
visitor who asked may rate it (thumbs up/down, optional comment); anyone else, a bad body
or too many ratings is refused with a documented code. The records hold the question, the
sources, the match decision and the citation flag, and only the visitor hash as identity."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from askdocs.db import Database
from askdocs.db.ask_models import AskRecordRow
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import BotCheckSettings
from tests.llm.scripted import Reply, openai_text
from tests.server.conftest import Rig, client, indexed_service

pytestmark = pytest.mark.anyio
INSTALL = "How do I install Acme with pip?"
FEEDBACK = "/api/ask/feedback"


def ask_body(question: str) -> dict[str, object]:
    return {"token": "", "messages": [{"role": "user", "content": question}]}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AskDocs]:
    service = indexed_service(tmp_path_factory.mktemp("indexed"))
    yield service
    service.close()


@pytest.fixture
def answering(rig: Rig, indexed: AskDocs) -> Callable[..., FastAPI]:
    def make(**ask: object) -> FastAPI:
        update: dict[str, object] = {
            "bot_check": BotCheckSettings(provider="off", allow_public_ask_without_bot_check=True),
            "server": rig.settings.server.model_copy(update={"trusted_proxies": ["127.0.0.1"]}),
            "ask": rig.settings.ask.model_copy(update={"daily_visitor_limit": 50, **ask}),
        }
        return create_app(rig.settings.model_copy(update=update), indexed)

    return make


def rows(rig: Rig) -> list[AskRecordRow]:
    db = Database.open(rig.settings)
    try:
        with db.session() as session:
            return list(session.scalars(select(AskRecordRow)))
    finally:
        db.close()


def who(n: int) -> dict[str, str]:
    return {"x-forwarded-for": f"198.51.100.{n}"}


async def test_a_visitor_rates_their_answer_and_the_record_keeps_it(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    rig.model.script(Reply(openai_text(["Run pip install acme in a virtual environment [1]."])))
    async with client(answering()) as http:
        asked = await http.post("/api/ask", json=ask_body(INSTALL), headers=who(1))
        answer_id = asked.headers["x-ask-id"]
        rated = await http.post(
            FEEDBACK,
            json={"answerId": answer_id, "rating": "down", "comment": "Too short."},
            headers=who(1),
        )
        stranger = await http.post(
            FEEDBACK, json={"answerId": answer_id, "rating": "up"}, headers=who(2)
        )
    assert rated.status_code == 204
    assert (stranger.status_code, stranger.json()["error"]["code"]) == (404, "answer_not_found")
    (row,) = rows(rig)
    assert (row.question, row.kind, row.matched, row.flagged) == (INSTALL, "model", True, False)
    assert row.sources[0]["title"] == "Installing Acme"
    assert (row.rating, row.comment) == (-1, "Too short.")
    assert "198.51.100" not in row.visitor  # a keyed hash, never the address


async def test_no_match_and_dropped_citations_are_recorded(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    rig.model.script(Reply(openai_text(["Penguins fly south [1]."])))
    async with client(answering()) as http:
        await http.post("/api/ask", json=ask_body("What do swallows eat in winter?"))
        flagged = await http.post("/api/ask", json=ask_body(INSTALL))
    assert flagged.text.startswith("Penguins fly south.")
    by_question = {row.question: row for row in rows(rig)}
    assert by_question["What do swallows eat in winter?"].matched is False
    assert by_question["What do swallows eat in winter?"].kind == "no_match"
    assert by_question[INSTALL].flagged is True


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"answerId": "x", "rating": "meh"}, "invalid_feedback"),
        ({"answerId": "x"}, "invalid_feedback"),
        ({"answerId": "", "rating": "up"}, "invalid_feedback"),
        ({"answerId": "x", "rating": "up", "comment": "c" * 501}, "invalid_feedback"),
        ({"answerId": "x", "rating": "up", "comment": "bad\u0000"}, "invalid_feedback"),
        ({"answerId": "x", "rating": "up", "visitor": "someone"}, "invalid_feedback"),
        ([1, 2], "invalid_feedback"),
        ({"answerId": "no-such-answer", "rating": "up"}, "answer_not_found"),
    ],
)
async def test_bad_feedback_is_refused_with_a_code(
    answering: Callable[..., FastAPI], body: object, code: str
) -> None:
    async with client(answering()) as http:
        response = await http.post(FEEDBACK, json=body)
    assert response.json()["error"]["code"] == code
    assert response.status_code == (404 if code == "answer_not_found" else 400)


async def test_feedback_framing_errors(answering: Callable[..., FastAPI]) -> None:
    async with client(answering()) as http:
        text = await http.post(FEEDBACK, content=b"x", headers={"content-type": "text/plain"})
        big = await http.post(
            FEEDBACK,
            content=b"{" + b" " * 5000 + b"}",
            headers={"content-type": "application/json"},
        )
        broken = await http.post(
            FEEDBACK, content=b"{not json", headers={"content-type": "application/json"}
        )
    assert (text.status_code, text.json()["error"]["code"]) == (415, "unsupported_media_type")
    assert (big.status_code, big.json()["error"]["code"]) == (413, "body_too_large")
    assert (broken.status_code, broken.json()["error"]["code"]) == (400, "invalid_feedback")


async def test_feedback_is_rate_limited(answering: Callable[..., FastAPI]) -> None:
    app = answering(feedback_per_minute=2)
    async with client(app) as http:
        codes = [
            (await http.post(FEEDBACK, json={"answerId": "x", "rating": "up"})).status_code
            for _ in range(3)
        ]
        limited = await http.post(FEEDBACK, json={"answerId": "x", "rating": "up"})
    assert codes == [404, 404, 429]
    assert limited.json()["error"]["code"] == "feedback_limit"
    assert int(limited.headers["retry-after"]) >= 1


async def test_with_recording_off_nothing_is_stored(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    rig.model.script(Reply(openai_text(["Run pip install acme [1]."])))
    async with client(answering(record_questions=False)) as http:
        asked = await http.post("/api/ask", json=ask_body(INSTALL))
        rated = await http.post(FEEDBACK, json={"answerId": "x", "rating": "up"})
    assert asked.status_code == 200
    assert "x-ask-id" not in asked.headers
    assert (rated.status_code, rated.json()["error"]["code"]) == (503, "feedback_unavailable")
    assert rows(rig) == []
