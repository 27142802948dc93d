"""A real ``askdocs mcp --transport http`` process, driven by the official MCP client."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from mcp.client.streamable_http import streamable_http_client

from askdocs.db import Database
from askdocs.users import UserService
from mcp import Client
from tests.mcp.conftest import (
    BAD_TOKENS,
    McpProcess,
    Tokens,
    process_env,
    seeded_tokens,
    start_http,
)
from tests.support.timing import bounded

API_TIMEOUT = 1.0
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def client(url: str, token: str) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    return Client(streamable_http_client(url, http_client=http))


def post(url: str, headers: dict[str, str]) -> httpx.Response:
    return httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **headers}, timeout=30)


def test_handshake_lists_the_tools_and_search_cites_the_section(
    local_http: McpProcess, local_tokens: Tokens
) -> None:
    async def run() -> tuple[list[str], dict[str, object]]:
        async with client(local_http.url, local_tokens.valid()) as session:
            names = [tool.name for tool in (await session.list_tools()).tools]
            result = await session.call_tool(
                "search_docs", {"query": "send cookies on cross-origin requests", "limit": 3}
            )
            assert not result.is_error, result.content
            assert result.structured_content is not None
            return names, result.structured_content

    names, found = anyio.run(run)
    assert names == ["search_docs", "get_article", "list_catalog"]
    top = found["hits"][0]["citation"]  # type: ignore[index]
    assert (top["path"], top["anchor"]) == ("guides/cors.md", "credentials")
    assert top["url"] == "/docs/guides/cors#credentials"


@pytest.mark.parametrize("kind", [*BAD_TOKENS, "garbage"])
def test_refused_tokens_get_401_with_www_authenticate(
    local_http: McpProcess, local_tokens: Tokens, kind: str
) -> None:
    token = "not-a-jwt" if kind == "garbage" else local_tokens.bad(kind)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = post(local_http.url, headers)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith('Bearer error="invalid_token"')


def test_token_in_the_query_string_is_not_accepted(
    local_http: McpProcess, local_tokens: Tokens
) -> None:
    response = post(f"{local_http.url}?access_token={local_tokens.valid()}", {})
    assert response.status_code == 401


def test_foreign_origin_is_refused(local_http: McpProcess, local_tokens: Tokens) -> None:
    auth = {"Authorization": f"Bearer {local_tokens.valid()}"}
    assert post(local_http.url, {**auth, "Origin": "http://evil.example"}).status_code == 403
    assert post(local_http.url, {**auth, "Host": "evil.example"}).status_code == 421
    assert post(local_http.url, {**auth, "Origin": "http://127.0.0.1:5173"}).status_code == 200


def test_listens_on_loopback_only(local_http: McpProcess) -> None:
    assert local_http.url.startswith("http://127.0.0.1:")


def _hung_listener() -> socket.socket:
    """Accepts connections (the kernel backlog) and never answers: a hung API."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("api", ["down", "hung"])
def test_server_mode_tool_error_within_its_bound_when_the_api_fails(
    tmp_path: Path, tokens: Tokens, api: str
) -> None:
    hung = _hung_listener() if api == "hung" else None
    port = hung.getsockname()[1] if hung else _closed_port()
    env = process_env(tmp_path, ASKDOCS_MCP__API_TIMEOUT_SECONDS=str(API_TIMEOUT))
    server = start_http(["--api-url", f"http://127.0.0.1:{port}"], env)

    async def call() -> tuple[bool, str, float]:
        async with client(server.url, tokens.valid()) as session:
            started = time.monotonic()
            result = await session.call_tool("search_docs", {"query": "cors"})
            text = result.content[0].text  # type: ignore[union-attr]
            return result.is_error, text, time.monotonic() - started

    try:
        is_error, text, seconds = anyio.run(call)
    finally:
        server.stop()
        if hung:
            hung.close()
    assert is_error
    assert ("not reachable" if api == "down" else "did not answer in time") in text
    assert "Traceback" not in text
    assert seconds < bounded(API_TIMEOUT)  # a hung API never answers; the tool bound is 30 s


def test_a_session_only_answers_the_credential_that_created_it(
    local_http: McpProcess, local_tokens: Tokens
) -> None:
    first = post(local_http.url, {"Authorization": f"Bearer {local_tokens.valid()}"})
    assert first.status_code == 200
    session = first.headers["mcp-session-id"]
    other = seeded_tokens(local_tokens.settings.data_dir, "other@example.com").valid()
    reuse = httpx.post(
        local_http.url,
        json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        headers={
            **MCP_HEADERS,
            "Authorization": f"Bearer {other}",
            "mcp-session-id": session,
            "mcp-protocol-version": "2025-06-18",
        },
        timeout=30,
    )
    assert reuse.status_code == 404


def test_mcp_responses_carry_nosniff(local_http: McpProcess, local_tokens: Tokens) -> None:
    ok = post(local_http.url, {"Authorization": f"Bearer {local_tokens.valid()}"})
    refused = post(local_http.url, {})
    assert ok.headers["X-Content-Type-Options"] == "nosniff"
    assert refused.headers["X-Content-Type-Options"] == "nosniff"


def test_mcp_oversized_unauthenticated_body_is_413(local_http: McpProcess) -> None:
    body = b"x" * (5 * 1024 * 1024)
    response = httpx.post(local_http.url, content=body, headers=MCP_HEADERS, timeout=30)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"


def test_local_http_refuses_the_token_of_a_deleted_user(
    local_http: McpProcess, module_data: Path
) -> None:
    """Defect 6: local mode has no API to re-check the user, so the transport does."""
    doomed = seeded_tokens(module_data, "doomed@example.com")
    auth = {"Authorization": f"Bearer {doomed.valid()}"}
    assert post(local_http.url, auth).status_code == 200
    db = Database.open(doomed.settings)
    try:
        assert UserService(db).delete(doomed.sub)
    finally:
        db.close()
    refused = post(local_http.url, auth)  # the same, unexpired token
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"].startswith('Bearer error="invalid_token"')


def test_local_http_refuses_a_token_of_a_user_it_never_had(
    local_http: McpProcess, tokens: Tokens
) -> None:
    assert post(local_http.url, {"Authorization": f"Bearer {tokens.valid()}"}).status_code == 401
