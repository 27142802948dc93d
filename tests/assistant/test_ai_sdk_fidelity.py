"""AI SDK fidelity against a real server, through the real ``ai`` packages (7 and 6) the way
``useChat`` uses them (``AbstractChat`` + ``DefaultChatTransport`` with its default body):
a model failure reaches ``onError`` through the protocol's ``error`` chunk, and a reloaded
thread's assistant message id equals the streamed ``start.messageId``."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from askdocs.assistant.turn import MODEL_FAILED
from tests.assistant.live import NODE_DIR, Live, scripted_live
from tests.assistant.scripted import ModelServer, Script

pytestmark = pytest.mark.node
THREADS = "/api/v1/assistant/threads"
CHAT = "/api/v1/assistant/chat"


@pytest.fixture
def live(tmp_path: Path, docs_root: Path, models: ModelServer) -> Iterator[Live]:
    with scripted_live(tmp_path, docs_root, models.url) as server:
        yield server


def use_chat(sdk: str, live: Live, token: str, thread: str, message: str) -> dict[str, Any]:
    command = [
        "node",
        str(NODE_DIR / "use-chat.mjs"),
        *("--sdk", sdk, "--url", f"{live.url}{CHAT}", "--token", token),
        *("--thread", thread, "--message", message),
    ]
    done = subprocess.run(command, cwd=NODE_DIR, capture_output=True, text=True, timeout=120)
    lines = done.stdout.strip().splitlines()
    assert lines, f"node printed nothing; stderr: {done.stderr}"
    result: dict[str, Any] = json.loads(lines[-1])
    assert done.returncode == 0, result
    return result


def new_thread(live: Live, token: str) -> str:
    headers = {"Authorization": f"Bearer {token}"}
    response = httpx.post(f"{live.url}{THREADS}", json={"siteId": "docs"}, headers=headers)
    assert response.status_code == 201
    return str(response.json()["id"])


def messages(live: Live, token: str, thread: str) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"}
    detail = httpx.get(f"{live.url}{THREADS}/{thread}", headers=headers).json()
    found: list[dict[str, Any]] = detail["messages"]
    return found


@pytest.mark.parametrize("sdk", ["ai7", "ai6"])
def test_use_chat_default_body_and_the_reloaded_message_id(
    live: Live, models: ModelServer, sdk: str
) -> None:
    token = live.token_for(f"id-{sdk}@example.com")
    thread = new_thread(live, token)
    models.script(Script(["Run ", "`pip install askdocs`", "."]))
    result = use_chat(sdk, live, token, thread, "How do I install askdocs?")
    assert (result["status"], result["error"]) == ("ready", None)
    streamed = result["assistant"]
    stored = messages(live, token, thread)
    assert [m["role"] for m in stored] == ["user", "assistant"]
    assert stored[0]["content"] == "How do I install askdocs?"  # from useChat's messages
    assert stored[1]["id"] == streamed["id"]  # the start chunk's messageId
    assert stored[1]["content"] == "Run `pip install askdocs`."


@pytest.mark.parametrize("sdk", ["ai7", "ai6"])
def test_a_model_failure_reaches_use_chat_on_error(
    live: Live, models: ModelServer, sdk: str
) -> None:
    token = live.token_for(f"fail-{sdk}@example.com")
    thread = new_thread(live, token)
    models.script(Script(status=500))
    result = use_chat(sdk, live, token, thread, "anyone?")
    assert result["status"] == "error"
    assert result["error"] == MODEL_FAILED
    assert "500" not in json.dumps(result)  # no provider text
    assert [m["role"] for m in messages(live, token, thread)] == ["user"]
