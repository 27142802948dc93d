"""Hostile and malformed requests get a clear 4xx with a stable code, and nothing leaks."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from askdocs.search.query import MAX_QUERY_CHARS
from tests.llm.scripted import Reply
from tests.server.conftest import Rig, client

pytestmark = pytest.mark.anyio
QUESTION = {"token": "tok", "messages": [{"role": "user", "content": "How do I install?"}]}


def error(response: httpx.Response) -> tuple[int, str]:
    assert response.headers["content-type"].startswith("application/json")
    return response.status_code, response.json()["error"]["code"]


async def test_oversized_body_by_content_length(rig: Rig) -> None:
    async with client(rig.app()) as http:
        big = b'{"messages": "' + b"x" * 300_000 + b'"}'
        response = await http.post(
            "/api/ask", content=big, headers={"content-type": "application/json"}
        )
    assert error(response) == (413, "body_too_large")


async def test_oversized_chunked_body(rig: Rig) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(100):
            yield b"x" * 10_000

    async with client(rig.app()) as http:
        response = await http.post(
            "/api/ask", content=chunks(), headers={"content-type": "application/json"}
        )
    assert error(response) == (413, "body_too_large")


@pytest.mark.parametrize(
    ("content", "content_type", "expected"),
    [
        (json.dumps(QUESTION), "text/plain", (415, "unsupported_media_type")),
        ("token=x", "application/x-www-form-urlencoded", (415, "unsupported_media_type")),
        ('{"messages": [', "application/json", (400, "invalid_json")),
        ("[" * 60_000 + "]" * 60_000, "application/json", (400, "invalid_json")),
        ("\xff\xfe{}", "application/json", (400, "invalid_json")),
        (
            '{"messages": [{"role": "user", "content": "\\ud83d"}]}',
            "application/json",
            (400, "invalid_text"),
        ),
        (
            '{"messages": [{"role": "user", "content": "x"}], "locale": "en\\r\\nX: y"}',
            "application/json",
            (400, "invalid_locale"),
        ),
        (
            '{"messages": [{"role": "user", "content": "x"}], "stream": true}',
            "application/json",
            (400, "invalid_body"),
        ),
        (
            '{"messages": [{"role": "user", "content": "x", "name": "bob"}]}',
            "application/json",
            (400, "invalid_body"),
        ),
    ],
)
async def test_malformed_bodies(
    rig: Rig, content: str, content_type: str, expected: tuple[int, str]
) -> None:
    async with client(rig.app()) as http:
        response = await http.post(
            "/api/ask",
            content=content.encode("utf-8", "surrogatepass"),
            headers={"content-type": content_type},
        )
    assert error(response) == expected
    assert rig.siteverify.received == []  # refused before the bot check
    assert rig.model.received == []  # and before the model


async def test_unicode_questions_pass_validation(rig: Rig) -> None:
    rig.siteverify.script(Reply([b'{"success": false}'], content_type="application/json"))
    text = "Comment installer 🐍 Acme ? مرحبا — e\u0301"
    async with client(rig.app()) as http:
        body = {"token": "tok", "messages": [{"role": "user", "content": text}]}
        response = await http.post("/api/ask", json=body)
    assert error(response) == (403, "bot_check_failed")  # validation passed; the bot check ran


async def test_wrong_methods_and_unknown_routes_are_json(rig: Rig) -> None:
    async with client(rig.app()) as http:
        assert error(await http.get("/api/ask")) == (405, "method_not_allowed")
        assert error(await http.request("TRACE", "/api/ask")) == (405, "method_not_allowed")
        assert (await http.head("/api/ask")).status_code == 405
        assert error(await http.get("/api/nope")) == (404, "not_found")


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"q": ""},
        {"q": "x" * (MAX_QUERY_CHARS + 1)},
        {"q": "install", "limit": 10**9},
        {"q": "install", "limit": -1},
        {"q": "install", "audience": "admin"},
        {"q": "install", "locale": "../en"},
    ],
)
async def test_search_parameters_are_validated(rig: Rig, query: dict[str, str | int]) -> None:
    async with client(rig.app()) as http:
        response = await http.get("/api/search", params=query)
    assert error(response) == (400, "invalid_request")


async def test_search_nul_and_unknown_site(rig: Rig) -> None:
    async with client(rig.app()) as http:
        assert error(await http.get("/api/search", params={"q": "a\x00b"})) == (
            400,
            "invalid_query",
        )
        missing = await http.get("/api/search", params={"q": "install", "site": "nope"})
        assert error(missing) == (404, "site_not_found")


async def test_no_secret_in_any_error(rig: Rig) -> None:
    rig.siteverify.script(Reply([b"oops"], 500, "text/plain"))
    async with client(rig.app()) as http:
        response = await http.post("/api/ask", json=QUESTION)
    assert error(response) == (503, "bot_check_unavailable")
    assert "siteverify-secret" not in response.text
    assert "Traceback" not in response.text
