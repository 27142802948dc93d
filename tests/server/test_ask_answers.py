"""Ask AI end to end in-process: the real AskDocs (local embedder, Qdrant Edge on disk) over
the fixture docs, the real limits store, and a scripted chat model on 127.0.0.1."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from urllib.parse import unquote

import httpx
import pytest
from fastapi import FastAPI

from askdocs.answer.citations import DROPPED_NOTE
from askdocs.answer.extractive import INTRO
from askdocs.answer.flow import INTERRUPTED_MARKER, NO_MATCH_MESSAGE
from askdocs.server.app import create_app
from askdocs.server.routes.ask import UNAVAILABLE_MESSAGE
from askdocs.service import AskDocs
from askdocs.settings import BotCheckSettings, ChatSettings
from tests.llm.scripted import Reply, openai_text, sse
from tests.server.conftest import QUIET_HOST, Rig, client, indexed_service

pytestmark = pytest.mark.anyio
INSTALL = "How do I install Acme with pip?"


def ask_body(*questions: str) -> dict[str, object]:
    messages: list[dict[str, str]] = []
    for question in questions:
        if messages:
            messages.append({"role": "assistant", "content": "An earlier answer."})
        messages.append({"role": "user", "content": question})
    return {"token": "", "messages": messages}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AskDocs]:
    """One real service over the fixture docs, indexed once for the module."""
    service = indexed_service(tmp_path_factory.mktemp("indexed"))
    yield service
    service.close()


@pytest.fixture
def answering(rig: Rig, indexed: AskDocs) -> Callable[..., FastAPI]:
    def make(**changes: object) -> FastAPI:
        update = {"bot_check": BotCheckSettings(provider="off"), **changes}
        return create_app(rig.settings.model_copy(update=update), indexed)

    return make


def sources_of(response: httpx.Response) -> list[dict[str, str]]:
    value: list[dict[str, str]] = json.loads(unquote(response.headers["x-ask-sources"]))
    return value


async def test_a_cited_answer_streams_from_the_model(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    rig.model.script(Reply(openai_text(["Run ", "`pip install acme`."])))
    async with client(answering()) as http:
        response = await http.post("/api/ask", json=ask_body(INSTALL))
    assert response.status_code == 200
    assert response.text == "Run `pip install acme`."
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-ask-remaining"] == "1"
    assert sources_of(response)[0]["title"] == "Installing Acme"
    assert sources_of(response)[0]["url"].startswith("/docs/install#")
    sent = rig.model.received[0].body
    system = sent["messages"][0]
    assert system["role"] == "system"
    assert '<excerpt n="1"' in system["content"]
    assert "pip install acme" in system["content"]
    assert sent["messages"][-1] == {"role": "user", "content": INSTALL}
    assert "tools" not in sent


async def test_citation_markers_are_checked_against_the_sources(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    said = ["Run pip install acme in a virtual environment [1]. ", "Penguins fly south [1]. [7]"]
    rig.model.script(Reply(openai_text(said)))
    async with client(answering()) as http:
        response = await http.post("/api/ask", json=ask_body(INSTALL))
    assert response.text == (
        "Run pip install acme in a virtual environment [1]. Penguins fly south." + DROPPED_NOTE
    )
    system = rig.model.received[0].body["messages"][0]["content"]
    assert "Cite the documentation" in system
    assert 'End with a line "Follow-up questions:"' in system
    numbers = re.findall(r'<excerpt n="(\d+)" page="([^"]*)"', system)
    pages = [title for _, title in numbers]
    for n, title in numbers:  # an excerpt's number is its page's place in X-Ask-Sources
        assert sources_of(response)[int(n) - 1]["title"] == title
    assert len(set(pages)) == len(sources_of(response))


async def test_no_match_is_the_fixed_message_and_no_model_call(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    async with client(answering()) as http:
        response = await http.post(
            "/api/ask", json=ask_body("What is the airspeed velocity of an unladen swallow?")
        )
    assert response.status_code == 200
    assert response.text == NO_MATCH_MESSAGE
    assert sources_of(response) == []
    assert rig.model.received == []


async def test_a_short_follow_up_searches_with_the_earlier_question(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    rig.model.script(Reply(openai_text(["Clone it."])))
    async with client(answering()) as http:
        response = await http.post("/api/ask", json=ask_body(INSTALL, "and from source?"))
    assert response.status_code == 200
    assert "pip install -e ." in rig.model.received[0].body["messages"][0]["content"]


async def test_model_error_before_the_reply_is_503_with_the_sources(
    rig: Rig, answering: Callable[..., FastAPI], caplog: pytest.LogCaptureFixture
) -> None:
    rig.model.script(Reply([b'{"error": {"message": "bad key sk-123"}}'], 401, "application/json"))
    async with client(answering()) as http:
        response = await http.post("/api/ask", json=ask_body(INSTALL))
    body = response.json()
    assert (response.status_code, body["error"]["code"]) == (503, "model_unavailable")
    assert body["error"]["message"] == UNAVAILABLE_MESSAGE
    assert body["sources"][0]["title"] == "Installing Acme"
    assert sources_of(response) == body["sources"]
    assert response.headers["x-ask-remaining"] == "1"
    assert "sk-123" not in response.text
    assert "401" not in response.text
    assert "401" in caplog.text  # the provider's error is in the log


async def test_a_model_that_cannot_be_reached_is_503_without_provider_text(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    down = ChatSettings(provider="openai-compatible", model="m", base_url="http://127.0.0.1:9/v1")
    async with client(answering(chat=down)) as http:
        response = await http.post("/api/ask", json=ask_body(INSTALL))
    assert (response.status_code, response.json()["error"]["code"]) == (503, "model_unavailable")
    assert "connect" not in response.text.lower()
    assert "openai" not in response.text.lower()
    assert response.json()["sources"]


async def test_model_error_mid_stream_ends_with_a_marker(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    chunks = openai_text(["Run ", "pip", " now"])
    rig.model.script(Reply([*chunks[:3], sse({"error": {"message": "overloaded"}})]))
    async with client(answering()) as http:
        response = await http.post("/api/ask", json=ask_body(INSTALL))
    assert response.status_code == 200
    assert response.text == "Run pip" + INTERRUPTED_MARKER


async def test_extractive_answer_without_a_model(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    app = answering(chat=ChatSettings(provider="none"))
    async with client(app) as http:
        response = await http.post("/api/ask", json=ask_body(INSTALL))
    assert response.status_code == 200
    assert response.text.startswith(INTRO)
    assert "pip install acme" in response.text
    assert "](/docs/install#" in response.text


async def test_remaining_counts_down_then_429(rig: Rig, answering: Callable[..., FastAPI]) -> None:
    rig.model.script(Reply(openai_text(["a"])), Reply(openai_text(["b"])))
    async with client(answering()) as http:
        before = await http.get("/api/ask/limits")
        first = await http.post("/api/ask", json=ask_body(INSTALL))
        second = await http.post("/api/ask", json=ask_body(INSTALL))
        third = await http.post("/api/ask", json=ask_body(INSTALL))
        after = await http.get("/api/ask/limits")
    assert before.json()["remaining"] == 2
    assert before.json()["limit"] == 2
    assert before.headers["cache-control"] == "no-store"
    assert [first.headers["x-ask-remaining"], second.headers["x-ask-remaining"]] == ["1", "0"]
    assert third.status_code == 429
    assert third.json()["error"]["code"] == "visitor_daily_limit"
    resets_at = after.json()["resetsAt"]
    assert after.json()["remaining"] == 0
    assert resets_at % 86400 == 0
    assert 0 < resets_at - time.time() <= 86400
    assert abs(int(third.headers["retry-after"]) - (resets_at - time.time())) < 5
    assert len(rig.model.received) == 2


async def test_limits_of_a_site_without_ask_ai_are_404(
    rig: Rig, answering: Callable[..., FastAPI]
) -> None:
    async with client(answering(), host=QUIET_HOST) as http:
        response = await http.get("/api/ask/limits")
    assert (response.status_code, response.json()["error"]["code"]) == (404, "ask_unavailable")


async def test_before_the_first_index_ask_and_search_are_503(rig: Rig) -> None:
    app = rig.app(bot_check=BotCheckSettings(provider="off"))
    async with client(app) as http:
        asked = await http.post("/api/ask", json=ask_body(INSTALL))
        searched = await http.get("/api/search", params={"q": "install"})
        ready = await http.get("/readyz")
    for response in (asked, searched):
        assert (response.status_code, response.json()["error"]["code"]) == (503, "index_building")
    assert ready.status_code == 503
    assert ready.json()["ready"] is False
    assert rig.model.received == []


async def test_search_api_and_readiness(rig: Rig, answering: Callable[..., FastAPI]) -> None:
    async with client(answering()) as http:
        response = await http.get("/api/search", params={"q": "install from source", "limit": 3})
        ready = await http.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["site"] == "acme"
    assert 1 <= len(body["hits"]) <= 3
    best = body["hits"][0]
    assert best["title"] == "Installing Acme"
    assert best["url"].startswith("/docs/install#")
    assert {"heading", "text", "locale", "translated"} <= set(best)
    assert best["freshness"]["indexedAt"].endswith("Z")
    assert best["freshness"]["modifiedAt"].endswith("Z")
    assert set(best["freshness"]) == {"indexedAt", "modifiedAt", "commit"}
    assert response.headers["cache-control"] == "no-store"
    assert ready.status_code == 200
    assert {s["site"] for s in ready.json()["sites"]} == {"acme", "quiet"}


async def test_an_unrelated_section_never_reaches_the_model_or_the_sources(
    rig: Rig, indexed: AskDocs, answering: Callable[..., FastAPI]
) -> None:
    found = indexed.search(INSTALL, site="acme", audience="user", limit=8)
    unrelated = [hit for hit in found.hits if hit.path == "sites.md"]
    assert found.match
    assert found.threshold is not None
    assert unrelated
    assert all(hit.cosine is not None and hit.cosine < found.threshold for hit in unrelated)
    rig.model.script(Reply(openai_text(["Run `pip install acme`."])))
    async with client(answering()) as http:
        response = await http.post("/api/ask", json=ask_body(INSTALL))
    assert response.status_code == 200
    system = rig.model.received[0].body["messages"][0]["content"]
    assert "pip install acme" in system
    assert "[[sites]]" not in system
    assert "Add a second documentation site" not in system
    assert [source["title"] for source in sources_of(response)] == ["Installing Acme"]
