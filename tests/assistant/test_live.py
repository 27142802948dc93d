"""End to end against a real uvicorn process: the CLI makes the user and token, the real
``ai`` package (current major and the one before) parses the live stream, and a client that
disconnects mid-turn later finds the reply persisted."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.assistant.frames import parse_frames, types
from tests.assistant.live import NODE_DIR, Live, node_parse, scripted_live
from tests.assistant.scripted import Call, ModelServer, Script

pytestmark = pytest.mark.node
THREADS = "/api/v1/assistant/threads"
CHAT = "/api/v1/assistant/chat"


@pytest.fixture
def live(tmp_path: Path, docs_root: Path, models: ModelServer) -> Iterator[Live]:
    with scripted_live(tmp_path, docs_root, models.url) as server:
        yield server


def _new_thread(live: Live, token: str) -> str:
    headers = {"Authorization": f"Bearer {token}"}
    response = httpx.post(f"{live.url}{THREADS}", json={"siteId": "docs"}, headers=headers)
    assert response.status_code == 201
    return str(response.json()["id"])


def test_node_modules_are_installed() -> None:
    for sdk in ("ai7", "ai6"):
        assert (NODE_DIR / "node_modules" / sdk / "package.json").is_file(), (
            "run scripts/install-test-deps (npm install in tests/node)"
        )


@pytest.mark.parametrize("sdk", ["ai7", "ai6"])
def test_the_real_ai_sdk_parses_a_live_turn(live: Live, models: ModelServer, sdk: str) -> None:
    token = live.token_for(f"{sdk}@example.com")
    thread = _new_thread(live, token)
    models.script(
        Script(["Checking the docs."], calls=[Call("search_docs", {"query": "install"})]),
        Script(["Run ", "`pip install askdocs`", "."]),
    )
    result = node_parse(sdk, live.url, token, thread, "How do I install askdocs?")
    assert result["header"] == "v1"
    chunks = result["chunkTypes"]
    assert chunks[:2] == ["start", "text-start"]
    assert chunks[-1] == "finish"
    assert chunks.count("data-toolStatus") == 2
    assert "data-threadTitle" in chunks
    assert result["text"] == "Checking the docs.\n\nRun `pip install askdocs`."
    assert result["message"]["role"] == "assistant"
    titles = [p["data"] for p in result["dataParts"] if p["type"] == "data-threadTitle"]
    assert titles == [{"threadId": thread, "title": "Installing askdocs quickly"}]
    detail = httpx.get(
        f"{live.url}{THREADS}/{thread}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert [m["role"] for m in detail["messages"]] == ["user", "assistant"]
    assert detail["messages"][1]["content"] == result["text"]


def test_frames_stream_as_they_happen(live: Live, models: ModelServer) -> None:
    token = live.token_for("stream@example.com")
    thread = _new_thread(live, token)
    models.script(Script([f"piece {n} " for n in range(5)], delay=0.5))
    body = {"threadId": thread, "message": "stream please"}
    headers = {"Authorization": f"Bearer {token}"}
    started = time.perf_counter()
    arrivals: list[float] = []
    raw: list[str] = []
    sent_before_first: list[bytes] | None = None
    with httpx.stream("POST", f"{live.url}{CHAT}", json=body, headers=headers, timeout=30) as r:
        assert r.status_code == 200
        assert r.headers["x-vercel-ai-ui-message-stream"] == "v1"
        for chunk in r.iter_text():
            if sent_before_first is None:
                sent_before_first = list(models.text_chunks)
            arrivals.append(time.perf_counter() - started)
            raw.append(chunk)
    frames = parse_frames("".join(raw))
    assert types(frames)[:2] == ["start", "text-start"]
    assert types(frames)[-3:] == ["data-threadTitle", "finish", "[DONE]"]
    # the first frame came while the model was still writing its reply (2.5 s in all)
    assert sent_before_first is not None
    assert not any(b"piece 4" in chunk for chunk in sent_before_first)
    assert arrivals[-1] - arrivals[0] > 0.5  # spread over the reply, not sent at its end


def test_a_turn_outlives_the_browser(live: Live, models: ModelServer) -> None:
    token = live.token_for("leaver@example.com")
    thread = _new_thread(live, token)
    pieces = [f"part {n}. " for n in range(12)]
    models.script(Script(pieces, delay=0.1))
    body = {"threadId": thread, "message": "a long answer please"}
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.stream("POST", f"{live.url}{CHAT}", json=body, headers=headers, timeout=30) as r:
        for line in r.iter_lines():
            if '"text-delta"' in line:
                break  # the browser goes away mid-reply
    summary = httpx.get(f"{live.url}{THREADS}", headers=headers).json()["threads"][0]
    assert summary["replyInProgress"] is True
    assert summary["awaitingReply"] is False
    deadline = time.monotonic() + 20
    messages: list[dict[str, object]] = []
    while time.monotonic() < deadline and len(messages) < 2:
        detail = httpx.get(f"{live.url}{THREADS}/{thread}", headers=headers).json()
        messages = detail["messages"]
        time.sleep(0.1)  # polling another process's database state over HTTP
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[1]["content"] == "".join(pieces)
    after = httpx.get(f"{live.url}{THREADS}", headers=headers).json()["threads"][0]
    assert after["replyInProgress"] is False
    assert after["awaitingReply"] is False


@pytest.mark.parametrize("sdk", ["ai7", "ai6"])
def test_the_real_ai_sdk_accepts_a_proposal_frame(
    live: Live, models: ModelServer, sdk: str
) -> None:
    """A propose tool's ``data-proposal`` frame is a valid transient data part for the real
    SDK; the token in it applies the change once, over the person's REST endpoint."""
    email = f"root-{sdk}@example.com"
    live.cli("users", "create", "--email", email, "--platform-admin")
    token = live.cli("token", "create", "--email", email, "--ttl", "900").strip().splitlines()[-1]
    thread = _new_thread(live, token)
    provider = {"name": "Spare", "capability": "chat", "kind": "anthropic", "model": "m"}
    models.script(
        Script(calls=[Call("propose_create_inference_provider", provider)]),
        Script(["It waits for your decision."]),
    )
    result = node_parse(sdk, live.url, token, thread, "Add a spare chat provider.")
    found = [p for p in result["dataParts"] if p["type"] == "data-proposal"]
    assert len(found) == 1
    part = found[0]
    assert part["transient"] is True
    assert part["id"] == part["data"]["id"]
    assert part["data"]["operation"] == "CreateInferenceProvider"
    assert "Spare" in part["data"]["summary"]
    assert part["data"]["arguments"] == provider
    confirmation = part["data"]["token"]
    assert len(confirmation) == 64
    assert all(part["type"] != "data-proposal" for part in result["message"]["parts"])
    assert confirmation not in str(models.requests)  # the model never saw it
    headers = {"Authorization": f"Bearer {token}"}
    url = f"{live.url}/api/v1/admin/apply/create-inference-provider"
    body = {**part["data"]["arguments"], "confirmationToken": confirmation}
    applied = httpx.post(url, json=body, headers=headers)
    assert applied.status_code == 200, applied.text
    assert applied.json()["applied"] == "CreateInferenceProvider"
    again = httpx.post(url, json=body, headers=headers)
    assert again.status_code in (400, 403)  # the replay finds the provider already there
