"""A real ``askdocs mcp`` over stdio, spawned the way an MCP host spawns it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client.stdio import StdioServerParameters, stdio_client

from mcp import Client
from tests.mcp.conftest import BAD_TOKENS, FIXTURE_DOCS, Tokens, askdocs_command, process_env
from tests.support.process import free_port


def stdio(args: list[str], env: dict[str, str]) -> Client:
    command = askdocs_command(*args)
    return Client(StdioServerParameters(command=command[0], args=command[1:], env=env))


def test_local_mode_needs_no_token_and_search_cites_the_section(tmp_path: Path) -> None:
    env = process_env(tmp_path / "data", ASKDOCS_MCP__INDEX_WAIT_SECONDS="60")

    async def run() -> tuple[list[str], dict[str, object]]:
        async with stdio(["--docs", str(FIXTURE_DOCS)], env) as session:
            names = [tool.name for tool in (await session.list_tools()).tools]
            result = await session.call_tool(
                "search_docs", {"query": "allow credentials for cross-origin requests"}
            )
            assert not result.is_error, result.content
            assert result.structured_content is not None
            return names, result.structured_content

    names, found = anyio.run(run)
    assert names == ["search_docs", "get_article", "list_catalog"]
    top = found["hits"][0]["citation"]  # type: ignore[index]
    assert (top["path"], top["heading"]) == ("guides/cors.md", "Credentials")
    assert top["file"] == str(FIXTURE_DOCS / "guides" / "cors.md")


def test_each_log_record_is_printed_once(tmp_path: Path) -> None:
    """The SDK's server puts a Rich handler on the root logger unless it has one: every
    askdocs record used to be printed twice on stderr (askdocs's line, then Rich's)."""
    env = process_env(tmp_path / "data", ASKDOCS_MCP__INDEX_WAIT_SECONDS="60")
    command = askdocs_command("--docs", str(FIXTURE_DOCS))
    stderr = tmp_path / "stderr.txt"

    async def run() -> None:
        with stderr.open("w") as errlog:
            params = StdioServerParameters(command=command[0], args=command[1:], env=env)
            async with Client(stdio_client(params, errlog=errlog)) as session:
                result = await session.call_tool("search_docs", {"query": "cookies"})
                assert not result.is_error, result.content

    anyio.run(run)
    lines = stderr.read_text().splitlines()
    answered = [line for line in lines if "first search answered" in line]
    assert len(answered) == 1, lines
    assert " INFO askdocs.mcp.local: first search answered (keyword" in answered[0]
    assert not [line for line in lines if "local.py:" in line]  # Rich's file:line column


@pytest.mark.parametrize("kind", BAD_TOKENS)
def test_server_mode_refuses_a_bad_token_with_exit_1(
    tmp_path: Path, tokens: Tokens, kind: str
) -> None:
    extra = {"ASKDOCS_MCP_TOKEN": tokens.bad(kind)} if kind != "missing" else {}
    env = process_env(tmp_path, ASKDOCS_API_URL=f"http://127.0.0.1:{free_port()}", **extra)
    done = subprocess.run(
        askdocs_command(),
        env=env,
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "ASKDOCS_MCP_TOKEN" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # nothing on the protocol stream


def test_server_mode_with_a_valid_token_serves_and_reports_the_api_down(
    tmp_path: Path, tokens: Tokens
) -> None:
    env = process_env(
        tmp_path,
        ASKDOCS_API_URL=f"http://127.0.0.1:{free_port()}",
        ASKDOCS_MCP_TOKEN=tokens.legacy_admin(),
    )

    async def run() -> tuple[list[str], bool, str]:
        async with stdio([], env) as session:
            names = [tool.name for tool in (await session.list_tools()).tools]
            result = await session.call_tool("list_catalog", {})
            return names, result.is_error, result.content[0].text  # type: ignore[union-attr]

    names, is_error, text = anyio.run(run)
    assert names == ["search_docs", "get_article", "list_catalog", "list_operation_schemas"]
    assert is_error
    assert "not reachable" in text
    assert "ASKDOCS_API_URL" in text


def test_docs_and_api_url_exclude_each_other(tmp_path: Path) -> None:
    env = process_env(tmp_path, ASKDOCS_API_URL="http://127.0.0.1:9")
    done = subprocess.run(
        [sys.executable, "-m", "askdocs", "mcp", "--docs", str(FIXTURE_DOCS)],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "exclude each other" in done.stderr
