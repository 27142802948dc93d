"""Tool logic through the SDK's in-memory client, over the real engine (local mode)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from askdocs.mcp.app import McpRun, assemble
from askdocs.mcp.backend import DocsBackend
from askdocs.settings import Settings, load_settings
from mcp import Client
from tests.llm.scripted import Reply, ScriptedServer, openai_text, scripted_server
from tests.mcp.conftest import FIXTURE_DOCS, KEY

TOOLS = ["search_docs", "get_article", "list_catalog"]


def local_settings(data_dir: Path, **overrides: Any) -> Settings:
    return load_settings(
        data_dir=data_dir,
        auth={"jwt_signing_key": KEY},
        embedding={"threads": 1},
        mcp={"index_wait_seconds": 120},
        **overrides,
    )


@asynccontextmanager
async def local_client(settings: Settings) -> AsyncIterator[tuple[Client, DocsBackend]]:
    server, backend = assemble(settings, McpRun("stdio", FIXTURE_DOCS, None), env={})
    await backend.start()
    try:
        async with Client(server) as client:
            yield client, backend
    finally:
        await backend.aclose()


@pytest.fixture(scope="module")
def indexed_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir whose fixture-docs index is complete (built once for the module)."""
    data = tmp_path_factory.mktemp("mcp-tools")

    async def build() -> None:
        async with local_client(local_settings(data)) as (client, _):
            result = await client.call_tool("search_docs", {"query": "routing"})
            assert not result.is_error, result.content

    anyio.run(build)
    return data


def call(settings: Settings, tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    async def run() -> tuple[bool, Any]:
        async with local_client(settings) as (client, _):
            result = await client.call_tool(tool, arguments)
            if result.is_error:
                return True, result.content[0].text  # type: ignore[union-attr]
            return False, result.structured_content

    return anyio.run(run)


def test_tools_have_descriptions_and_schemas(tmp_path: Path) -> None:
    async def run() -> list[Any]:
        async with local_client(local_settings(tmp_path)) as (client, _):
            return (await client.list_tools()).tools

    tools = anyio.run(run)
    assert [tool.name for tool in tools] == TOOLS
    for tool in tools:
        assert tool.description
        assert tool.output_schema is not None
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
    search = tools[0].input_schema
    assert search["required"] == ["query"]
    assert search["properties"]["limit"]["maximum"] == 20
    assert "token" not in str(search).lower()


def test_search_cites_the_section(indexed_data: Path) -> None:
    failed, found = call(
        local_settings(indexed_data),
        "search_docs",
        {"query": "how do I let browsers send cookies to my API from another origin"},
    )
    assert not failed, found
    top = found["hits"][0]
    assert top["citation"]["path"] == "guides/cors.md"
    assert top["citation"]["anchor"] == "credentials"
    assert top["citation"]["url"] == "/docs/guides/cors#credentials"
    assert top["citation"]["locale"] == "en"
    assert "allow_credentials=True" in top["text"]
    assert found["match"] is True


def test_get_article_by_citation_url_returns_that_section(indexed_data: Path) -> None:
    failed, article = call(
        local_settings(indexed_data),
        "get_article",
        {"slug_or_path": "/docs/guides/cors#credentials"},
    )
    assert not failed, article
    assert article["markdown"].startswith("## Credentials")
    assert article["citation"]["heading"] == "Credentials"


def test_list_catalog(indexed_data: Path) -> None:
    failed, catalog = call(local_settings(indexed_data), "list_catalog", {})
    assert not failed, catalog
    assert catalog["site"] == "docs"
    assert [page["slug"] for page in catalog["pages"]] == [
        "index",
        "guides/routing",
        "guides/testing",
        "guides/cors",
    ]


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("get_article", {"slug_or_path": "guides/nope"}, "[page_not_found]"),
        ("get_article", {"slug_or_path": "guides/cors", "section": "nope"}, "credentials"),
        ("search_docs", {"query": "cors", "site": "other"}, "[site_not_found]"),
        ("search_docs", {"query": ""}, "query"),
        ("search_docs", {"query": "cors", "limit": 0}, "limit"),
        ("list_catalog", {"site": "../etc"}, "site"),
    ],
)
def test_errors_are_tool_errors_with_actionable_text(
    indexed_data: Path, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    failed, text = call(local_settings(indexed_data), tool, arguments)
    assert failed
    assert expected in text
    assert "Traceback" not in text


def test_cold_search_returns_index_building_within_its_bound(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=tmp_path, auth={"jwt_signing_key": KEY}, mcp={"index_wait_seconds": 0}
    )
    failed, text = call(settings, "search_docs", {"query": "cors"})
    assert failed
    assert "still indexing docs" in text
    assert "[index_building]" in text


@pytest.fixture
def chat() -> Iterator[ScriptedServer]:
    with scripted_server() as server:
        yield server


def test_ask_is_listed_with_a_chat_model_and_answers_with_sources(
    indexed_data: Path, chat: ScriptedServer
) -> None:
    chat.script(Reply(openai_text(["Set ", "`allow_credentials=True` [1]."])))
    settings = local_settings(
        indexed_data,
        chat={"provider": "openai-compatible", "model": "scripted", "base_url": chat.url},
    )

    async def run() -> tuple[list[str], Any]:
        async with local_client(settings) as (client, _):
            names = [tool.name for tool in (await client.list_tools()).tools]
            result = await client.call_tool(
                "ask", {"question": "How do I allow credentialed cross-origin requests?"}
            )
            assert not result.is_error, result.content
            return names, result.structured_content

    names, answer = anyio.run(run)
    assert names == [*TOOLS, "ask"]
    assert answer["kind"] == "model"
    assert answer["answer"] == "Set `allow_credentials=True` [1]."
    assert answer["sources"][0]["url"] == "/docs/guides/cors#credentials"
    prompt = chat.received[0].body["messages"][0]["content"]
    assert "allow_credentials=True" in prompt
