"""Citations a reader can open, for Ask AI and MCP (the assistant's own are in
tests/assistant/test_citations.py): every URL Ask AI or an MCP tool cites opens a reader page
for that caller (the page 200, its article 200, the anchor on it), and nothing is cited that
the caller cannot read.

The docs site has a user root and a developer root (the default site's shape). Ask AI is
public: a visitor's sources are user pages only, although a developer page matches one of
the questions (MCP local mode, the operator's, finds it under ``/docs/developer/…``). MCP in
local mode and in server mode (the real HTTP API in-process, the member's token forwarded)
cites URLs that open for a signed-in member, developer pages included.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from askdocs.auth.jwt import mint
from askdocs.core import Core
from askdocs.mcp.auth import AuthContext, stdio_auth
from askdocs.mcp.backend import DocsBackend
from askdocs.mcp.local import LocalBackend
from askdocs.mcp.operations import docs_operations
from askdocs.mcp.remote import RemoteBackend
from askdocs.mcp.server import ServerOptions, build_server
from askdocs.server.app import create_app
from askdocs.settings import load_settings
from mcp import Client
from tests.assistant.conftest import Harness, docs_root, open_harness
from tests.assistant.scripted import Script, model_server
from tests.assistant.test_citations import DEVELOPER_DOCS, QUESTIONS, _opens

__all__ = ["docs_root"]  # the fixture
pytestmark = pytest.mark.anyio
DEVELOPER = "/docs/developer/"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def reading(tmp_path: Path, docs_root: Path) -> AsyncIterator[Harness]:
    for name, text in DEVELOPER_DOCS.items():
        (docs_root / name).write_text(text, encoding="utf-8")
    roots = [
        {"path": str(docs_root / "user-guide")},
        {"path": str(docs_root), "audience": "developer", "include": ["*.md"]},
    ]
    overrides: dict[str, object] = {
        "sites": [{"id": "docs", "name": "Docs", "roots": roots}],
        "bot_check": {"provider": "off"},
        "ask": {"daily_visitor_limit": 50},
    }
    with model_server() as models:
        models.responder = lambda body: Script(["The documentation says so [1] [2]."])
        url = f"sqlite:///{tmp_path / 'cited.db'}"
        async with open_harness(tmp_path / "data", url, docs_root, models, **overrides) as h:
            report = await h.app.pool.run(lambda: h.app.engine.index("docs"))
            assert report.chunks > 0
            yield h


@asynccontextmanager
async def _mcp(backend: DocsBackend, auth: AuthContext | None) -> AsyncIterator[Client]:
    docs = docs_operations(load_settings())
    options = ServerOptions(operations=docs, timeout_seconds=60, ask_enabled=True, fixed_auth=auth)
    server = build_server(backend, options)
    await backend.start()
    try:
        async with Client(server) as client:
            yield client
    finally:
        await backend.aclose()


async def _tool(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def _cited(client: Client) -> list[str]:
    """Every URL the MCP tools cite for the questions: search hits and ask sources."""
    urls: list[str] = []
    for question in QUESTIONS:
        found = await _tool(client, "search_docs", {"query": question})
        urls += [hit["citation"]["url"] for hit in found["hits"]]
        asked = await _tool(client, "ask", {"question": question})
        urls += [source["url"] for source in asked["sources"]]
    return urls


async def _closed(harness: Harness, urls: list[str], headers: dict[str, str]) -> list[str]:
    return [url for url in dict.fromkeys(urls) if not await _opens(harness, url, headers)]


async def test_ask_ai_cites_only_pages_a_visitor_can_open(reading: Harness) -> None:
    urls: list[str] = []
    for question in QUESTIONS:
        body = {"token": "", "messages": [{"role": "user", "content": question}]}
        response = await reading.client.post("/api/ask", json=body)
        assert response.status_code == 200, response.text
        urls += [s["url"] for s in json.loads(unquote(response.headers["x-ask-sources"]))]
    assert urls
    assert [url for url in urls if url.startswith(DEVELOPER)] == []
    assert await _closed(reading, urls, {}) == []  # a visitor opens every one
    # a developer page did match one of the questions: the operator's MCP finds it
    local = LocalBackend(Core(reading.settings, engine=reading.app.engine), index_wait_seconds=30)
    async with _mcp(local, None) as client:
        found = await _tool(client, "search_docs", {"query": "how are index collections laid out"})
    assert any(hit["citation"]["url"].startswith(DEVELOPER) for hit in found["hits"])


async def test_mcp_local_mode_cites_urls_the_reader_serves(reading: Harness) -> None:
    _, headers = reading.user("member@x.io")
    local = LocalBackend(Core(reading.settings, engine=reading.app.engine), index_wait_seconds=30)
    async with _mcp(local, None) as client:
        urls = await _cited(client)
    assert any(url.startswith(DEVELOPER) for url in urls)
    assert any(not url.startswith(DEVELOPER) for url in urls)
    assert await _closed(reading, urls, headers) == []


async def test_mcp_server_mode_cites_urls_the_caller_opens(reading: Harness) -> None:
    member, headers = reading.user("member@x.io")
    token = mint(reading.settings, member.id)
    transport = httpx.ASGITransport(app=create_app(app=reading.app))
    remote = RemoteBackend("http://127.0.0.1:8000", timeout_seconds=60, transport=transport)
    async with _mcp(remote, stdio_auth(reading.settings, token)) as client:
        urls = await _cited(client)
    assert any(not url.startswith(DEVELOPER) for url in urls)
    assert await _closed(reading, urls, headers) == []
