"""``askdocs serve`` as a real uvicorn process on a free loopback port."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest

from tests.llm.scripted import Reply, ScriptedServer, openai_text, scripted_server
from tests.server.conftest import write_docs
from tests.server.process import ServeProcess, clean_env, serve_command, serving

READY_TIMEOUT = 120.0


def site_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    docs = write_docs(tmp_path / "docs")
    sites = [{"id": "acme", "name": "Acme", "roots": [{"path": str(docs)}]}]
    return {"ASKDOCS_SITES": json.dumps(sites), **extra}


@pytest.fixture(scope="module")
def model() -> Iterator[ScriptedServer]:
    with scripted_server() as server:
        yield server


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, model: ScriptedServer
) -> Iterator[ServeProcess]:
    tmp = tmp_path_factory.mktemp("serve")
    chat = {
        "ASKDOCS_CHAT__PROVIDER": "openai-compatible",
        "ASKDOCS_CHAT__MODEL": "scripted",
        "ASKDOCS_CHAT__BASE_URL": model.url + "/v1",
    }
    with serving(tmp / "data", site_env(tmp, **chat)) as process:
        yield process


def test_public_binding_without_a_bot_check_is_refused(tmp_path: Path) -> None:
    """With the bot check turned off by hand (the default, auto, picks ALTCHA there)."""
    command = serve_command(tmp_path / "data", "--host", "0.0.0.0", "--port", "1")
    env = site_env(tmp_path, ASKDOCS_BOT_CHECK__PROVIDER="off")
    result = subprocess.run(
        command, env=clean_env(env), capture_output=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert b"without a bot check" in result.stderr


def test_healthz(server: ServeProcess) -> None:
    response = httpx.get(server.url + "/healthz")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


def test_huge_headers_are_refused(server: ServeProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 200_000
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(request + b"\r\n\r\n")
        reply = sock.recv(200)
    assert reply == b"" or reply.startswith((b"HTTP/1.1 4", b"HTTP/1.0 4"))
    assert httpx.get(server.url + "/healthz").status_code == 200  # still serving others


def wait_until_ready(server: ServeProcess) -> None:
    """Poll /readyz while the background index builds (it has no event to await)."""
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if httpx.get(server.url + "/readyz").status_code == 200:
            return
        time.sleep(0.2)
    raise AssertionError("the background index did not become ready")


def test_readiness_follows_the_background_index(server: ServeProcess) -> None:
    wait_until_ready(server)
    body = httpx.get(server.url + "/readyz").json()
    assert body["ready"] is True
    assert body["sites"][0]["chunks"] > 0
    assert body["model_loading"] is False


def test_the_model_was_compiled_once_into_the_data_dir(server: ServeProcess) -> None:
    wait_until_ready(server)
    args = [str(arg) for arg in server.process.args]  # type: ignore[union-attr]
    data_dir = Path(args[args.index("--data-dir") + 1])
    compiled = [tuple(p.name.split("-")[:3]) for p in (data_dir / "models").glob("*.onnx")]
    # queries run on the int8 graph by default (the float32 one only embeds documents)
    assert ("minilm", "int8", "fused") in compiled
    assert len(compiled) == len(set(compiled))  # each form compiled once


def test_headers_arrive_before_the_body_and_text_streams(
    server: ServeProcess, model: ScriptedServer
) -> None:
    wait_until_ready(server)
    model.release.clear()
    model.script(Reply(openai_text(["First words", " and the rest."]), hang_after=2))
    body = {"token": "", "messages": [{"role": "user", "content": "How do I install Acme?"}]}
    with httpx.stream("POST", server.url + "/api/ask", json=body, timeout=10) as response:
        assert response.status_code == 200
        sources = json.loads(unquote(response.headers["x-ask-sources"]))
        assert sources[0]["title"] == "Installing Acme"
        assert response.headers["x-ask-remaining"] == "14"
        pieces = response.iter_text()
        assert next(pieces) == "First words"  # while the model still holds the rest
        model.release.set()
        assert "".join(pieces) == " and the rest."
