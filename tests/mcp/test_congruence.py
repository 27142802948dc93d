"""The same tool assertions against both backends: local (in-process) and server mode (the real
askdocs HTTP API app, reached in-process through httpx's ASGI transport)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import pytest

from askdocs.auth.jwt import mint
from askdocs.core import Core
from askdocs.corpus.freshness import git_dir, head_commit, iso
from askdocs.mcp.auth import AuthContext, stdio_auth
from askdocs.mcp.backend import DocsBackend
from askdocs.mcp.local import LocalBackend
from askdocs.mcp.operations import docs_operations
from askdocs.mcp.remote import RemoteBackend
from askdocs.mcp.server import ServerOptions, build_server
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import Settings, load_settings
from askdocs.sites import folder_site
from mcp import Client
from tests.mcp.conftest import BOUND, FIXTURE_DOCS, KEY

BackendFactory = Callable[[], DocsBackend]


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return load_settings(
        data_dir=tmp_path_factory.mktemp("mcp-congruence"),
        auth={"jwt_signing_key": KEY},
        embedding={"threads": 1},
        server={"index_in_background": False},
    )


@pytest.fixture(scope="module")
def service(settings: Settings) -> Iterator[AskDocs]:
    service = AskDocs(settings, [folder_site(FIXTURE_DOCS)])
    service.index("docs")
    yield service
    service.close()


@pytest.fixture(params=["local", "server"])
def backend(request: pytest.FixtureRequest, settings: Settings, service: AskDocs) -> BackendFactory:
    if request.param == "local":
        return lambda: LocalBackend(Core(settings, engine=service), index_wait_seconds=30)
    app = create_app(settings, service)
    return lambda: RemoteBackend(
        "http://127.0.0.1:8000", timeout_seconds=30, transport=httpx.ASGITransport(app=app)
    )


@asynccontextmanager
async def session(factory: BackendFactory, auth: AuthContext | None) -> AsyncIterator[Client]:
    backend = factory()
    server = build_server(
        backend,
        ServerOptions(
            operations=docs_operations(load_settings()),
            timeout_seconds=BOUND,
            ask_enabled=False,
            fixed_auth=auth,
        ),
    )
    await backend.start()
    try:
        async with Client(server) as client:
            yield client
    finally:
        await backend.aclose()


def call(factory: BackendFactory, settings: Settings, tool: str, arguments: dict[str, Any]) -> Any:
    auth = stdio_auth(settings, mint(settings, "user-1", mcp=True))

    async def run() -> Any:
        async with session(factory, auth) as client:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, result.content
            return result.structured_content

    return anyio.run(run)


def test_search_cites_the_credentials_section(backend: BackendFactory, settings: Settings) -> None:
    found = call(
        backend, settings, "search_docs", {"query": "allow credentialed cross-origin requests"}
    )
    top = found["hits"][0]["citation"]
    assert (top["path"], top["anchor"], top["url"]) == (
        "guides/cors.md",
        "credentials",
        "/docs/guides/cors#credentials",
    )
    assert found["site"] == "docs"


def test_get_article_returns_the_section_as_markdown(
    backend: BackendFactory, settings: Settings
) -> None:
    article = call(
        backend, settings, "get_article", {"slug_or_path": "/docs/guides/cors#credentials"}
    )
    assert article["markdown"].startswith("## Credentials\n\nTo let browsers send cookies")
    assert "### Preflight caching" in article["markdown"]
    assert "## Allowed origins" not in article["markdown"]
    assert article["citation"]["url"] == "/docs/guides/cors#credentials"
    assert [s["anchor"] for s in article["sections"]][-2:] == ["credentials", "preflight-caching"]


def test_hits_and_articles_say_how_fresh_they_are(
    backend: BackendFactory, settings: Settings, service: AskDocs
) -> None:
    found = call(backend, settings, "search_docs", {"query": "allow_credentials"})
    article = call(backend, settings, "get_article", {"slug_or_path": "guides/cors"})
    source = FIXTURE_DOCS / "guides" / "cors.md"
    gitdir = git_dir(FIXTURE_DOCS)
    commit = head_commit(gitdir) if gitdir is not None else None
    built = iso(service.indexed_at(service.status("docs").collection))
    assert built is not None
    expected = {"indexedAt": built, "modifiedAt": iso(source.stat().st_mtime), "commit": commit}
    assert found["hits"][0]["citation"]["path"] == "guides/cors.md"
    assert found["hits"][0]["freshness"] == expected
    assert article["freshness"] == expected


def test_list_catalog_in_reading_order(backend: BackendFactory, settings: Settings) -> None:
    catalog = call(backend, settings, "list_catalog", {})
    assert [page["slug"] for page in catalog["pages"]] == [
        "index",
        "guides/routing",
        "guides/testing",
        "guides/cors",
    ]


def test_server_mode_forwards_the_callers_token_unchanged(
    settings: Settings, service: AskDocs
) -> None:
    app = create_app(settings, service)
    seen: list[str | None] = []

    async def recording(scope: Any, receive: Any, send: Any) -> None:
        headers = dict(scope.get("headers") or [])
        seen.append(headers.get(b"authorization", b"").decode() or None)
        await app(scope, receive, send)

    token = mint(settings, "user-7", org="org-2", org_role="member", mcp=True)

    def factory() -> DocsBackend:
        transport = httpx.ASGITransport(app=recording)
        return RemoteBackend("http://127.0.0.1:8000", timeout_seconds=30, transport=transport)

    async def run() -> None:
        async with session(factory, stdio_auth(settings, token)) as client:
            await client.call_tool("search_docs", {"query": "routing"})
            await client.call_tool("list_catalog", {})

    anyio.run(run)
    # the two tool calls, plus the caller's admin grants when the client lists the tools
    assert len(seen) >= 2
    assert set(seen) == {f"Bearer {token}"}
