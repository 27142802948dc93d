"""The MCP Inspector CLI (``@modelcontextprotocol/inspector``, installed in tests/node)
lists the local-mode server's tools (in ``--strict`` mode: no schema portability problem),
resources and prompts without errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mcp.conftest import FIXTURE_DOCS

pytestmark = [pytest.mark.node, pytest.mark.slow]
NODE_DIR = Path(__file__).resolve().parents[1] / "node"
INSPECTOR = NODE_DIR / "node_modules" / ".bin" / "mcp-inspector"
CONNECT_MS = "120000"  # a cold interpreter plus imports on a busy machine


def inspect(method: str, data_dir: Path, *extra: str) -> tuple[int, dict[str, object], str]:
    command = [
        str(INSPECTOR),
        "--cli",
        "--connect-timeout",
        CONNECT_MS,
        "--method",
        method,
        *extra,
        "-e",
        f"ASKDOCS_DATA_DIR={data_dir}",
        "-e",
        "ASKDOCS_EMBEDDING__PROVIDER=none",
        sys.executable,
        "-m",
        "askdocs",
        "mcp",
        "--docs",
        str(FIXTURE_DOCS),
    ]
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
    body = json.loads(done.stdout) if done.stdout.strip() else {}
    return done.returncode, body, done.stderr


def test_the_inspector_is_installed() -> None:
    assert shutil.which("node"), "run scripts/install-test-deps (node)"
    assert INSPECTOR.is_file(), "run scripts/install-test-deps (npm ci in tests/node)"


def test_tools_pass_the_strict_schema_check(tmp_path: Path) -> None:
    code, body, stderr = inspect("tools/list", tmp_path, "--strict")
    assert code == 0, stderr
    names = [tool["name"] for tool in body["tools"]]  # type: ignore[attr-defined]
    assert names == ["search_docs", "get_article", "list_catalog"]
    assert "error" not in stderr.lower()


def test_resources_and_prompts_are_listed(tmp_path: Path) -> None:
    code, resources, stderr = inspect("resources/list", tmp_path)
    assert code == 0, stderr
    uris = [r["uri"] for r in resources["resources"]]  # type: ignore[attr-defined]
    assert "askdocs://docs/guides/cors" in uris
    code, prompts, stderr = inspect("prompts/list", tmp_path)
    assert code == 0, stderr
    assert [p["name"] for p in prompts["prompts"]] == [  # type: ignore[attr-defined]
        "explain_page",
        "find_docs_for_error",
    ]
    code, read, stderr = inspect("resources/read", tmp_path, "--uri", "askdocs://docs/guides/cors")
    assert code == 0, stderr
    assert "allow_credentials" in json.dumps(read)
