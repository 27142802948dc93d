"""Answers match ``/openapi.json`` (issue #27, defect 11): what the document allows, the
server accepts, and the other way round (schemathesis ``--checks all`` in the battery runs
the whole API; these pin the cases it found): OPTIONS 405 with an ``Allow`` naming every
method of the path, ``/docs/{slug}.md`` as ``text/markdown``, and request schemas exact
where the server refused schema-valid requests with 400."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import jsonschema_rs
import pytest
from fastapi import FastAPI

from askdocs.errors import InvalidInput
from askdocs.guard.validation import parse_ask_body
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import AskSettings, Settings
from askdocs.users.service import normalise_email

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    tmp_path = tmp_path_factory.mktemp("conformance")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nWelcome.\n")
    settings = Settings.model_validate(
        {
            "data_dir": tmp_path / "data",
            "sites": [{"id": "s", "roots": [{"path": str(docs)}]}],
            "embedding": {"provider": "none"},
            "server": {"index_in_background": False},
        }
    )
    built = create_app(settings, AskDocs(settings))
    yield built
    built.state.askdocs.reader.close()


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        yield http


@pytest.fixture(scope="module")
def spec(app: FastAPI) -> dict[str, Any]:
    return app.openapi()


async def test_options_405_names_every_method_of_the_path(client: httpx.AsyncClient) -> None:
    for path, methods in (
        ("/api/v1/assistant/threads", "GET, POST"),
        ("/api/v1/orgs", "GET, POST"),
        ("/api/v1/auth/invitations/accept", "POST"),
        ("/readyz", "GET"),
    ):
        answer = await client.options(path)
        assert (answer.status_code, answer.headers.get("allow")) == (405, methods), path


async def test_docs_md_is_the_markdown_the_document_says(
    client: httpx.AsyncClient, spec: dict[str, Any]
) -> None:
    documented = spec["paths"]["/docs/{slug}.md"]["get"]["responses"]["200"]["content"]
    answer = await client.get("/docs/index.md")
    assert answer.status_code == 200
    assert list(documented) == ["text/markdown"]
    assert answer.headers["content-type"].split(";")[0] == "text/markdown"


def _body_schema(spec: dict[str, Any], path: str, method: str = "post") -> Any:
    content = spec["paths"][path][method]["requestBody"]["content"]["application/json"]
    schema = content["schema"]
    if "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return jsonschema_rs.validator_for({**schema, "components": spec["components"]})


ASK_BODIES: list[dict[str, Any]] = [
    {"messages": [{"role": "user", "content": "How?"}]},
    {"messages": [{"role": "user", "content": ""}]},
    {"messages": [{"role": "user", "content": " \u3000"}]},
    {"messages": [{"role": "assistant", "content": "x"}]},
    {"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": ""}]},
    {"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]},
    {"messages": [{"role": "user", "content": "a" * 1001}]},
    {"messages": [{"role": "user", "content": "a\x00"}]},
    {"messages": [{"role": "user", "content": "a"}] * 9},
    {"messages": [{"role": "user", "content": "a"}], "locale": ""},
    {"messages": [{"role": "user", "content": "a"}], "locale": "pt-BR"},
    {"messages": [{"role": "user", "content": "a"}], "locale": "en\n"},
    {"messages": [{"role": "user", "content": "a"}], "locale": None, "token": None},
    {"messages": [{"role": "user", "content": "a"}], "token": "t" * 2049},
    {"messages": [{"role": "user", "content": "a"}], "extra": 1},
]


@pytest.mark.parametrize("body", ASK_BODIES, ids=range(len(ASK_BODIES)))
def test_ask_bodies_the_document_allows_are_the_ones_the_server_accepts(
    spec: dict[str, Any], body: dict[str, Any]
) -> None:
    allowed = _body_schema(spec, "/api/ask").is_valid(body)
    try:
        parse_ask_body(json.dumps(body).encode(), AskSettings())
        accepted = True
    except InvalidInput:
        accepted = False
    assert allowed == accepted


TITLES = ["Notes", " x ", "", " ", "\u3000\t", "\x1c", "a\x00b", "\u2028a"]


@pytest.mark.parametrize("title", TITLES, ids=range(len(TITLES)))
async def test_thread_titles_the_document_allows_are_the_ones_the_server_accepts(
    spec: dict[str, Any], title: str
) -> None:
    allowed = _body_schema(spec, "/api/v1/assistant/threads").is_valid({"title": title})
    accepted = "\x00" not in title and bool(title.split())  # the route's own rule
    assert allowed == accepted


EMAILS = ["ann@example.com", " Ann@Example.com ", "000", "a@b@c", "a b@c", "a\x00@b", "@b", "a@"]


@pytest.mark.parametrize("email", EMAILS, ids=range(len(EMAILS)))
def test_emails_the_document_allows_are_the_ones_the_server_accepts(
    spec: dict[str, Any], email: str
) -> None:
    allowed = _body_schema(spec, "/api/v1/orgs/{org_id}/members").is_valid(
        {"email": email, "role": "member"}
    )
    try:
        normalise_email(email)
        accepted = True
    except InvalidInput:
        accepted = False
    assert allowed == accepted


async def test_reader_locales_are_documented_as_required_and_enumerated(
    client: httpx.AsyncClient, spec: dict[str, Any]
) -> None:
    for path in ("/api/docs/catalog", "/api/docs/articles/{slug}"):
        (locale,) = [p for p in spec["paths"][path]["get"]["parameters"] if p["name"] == "locale"]
        assert locale["required"] is True
        assert locale["schema"]["enum"] == ["en", "cs", "sk"]
    assert (await client.get("/api/docs/catalog", params={"locale": "cs"})).status_code == 200
    empty = await client.get("/api/v1/admin/sites", params={"organisationId": ""})
    assert empty.status_code in (400, 401)  # the document's minLength 1, never a 200


async def test_an_optional_locale_may_be_sent_empty_as_documented(
    client: httpx.AsyncClient, spec: dict[str, Any]
) -> None:
    """``?locale=`` is the default locale, as when it is left out; the document says so."""
    (locale,) = [
        p for p in spec["paths"]["/llms.txt"]["get"]["parameters"] if p["name"] == "locale"
    ]
    assert locale["required"] is False
    assert locale["schema"]["enum"] == ["en", "cs", "sk", ""]
    assert (await client.get("/llms.txt", params={"locale": ""})).status_code == 200


def test_a_blank_query_is_documented_as_refused(spec: dict[str, Any]) -> None:
    (q,) = [p for p in spec["paths"]["/api/search"]["get"]["parameters"] if p["name"] == "q"]
    assert re.fullmatch(q["schema"]["pattern"].strip("^$"), "\x1c") is None
    assert re.fullmatch(q["schema"]["pattern"].strip("^$"), "install") is not None
