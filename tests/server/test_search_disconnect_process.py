"""A real ``askdocs serve`` process and a real TCP client that goes away mid-search: the
server notices the disconnect while the search's query embedding is out (a scripted
OpenAI-compatible embedding server on 127.0.0.1 holds its answer), stops the work before
the engine query, logs ``499 client_closed_request`` and counts it in ``GET /api/v1/metrics``
(seed 003: "caller cancellation ... aborts outstanding provider work")."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.assistant.scripted import EmbeddingServer, embedding_server
from tests.server.conftest import write_docs
from tests.server.process import ServeProcess, clean_env, serving
from tests.server.test_serve_process import wait_until_ready

BOUND = 120.0  # seconds a poll may wait on a loaded CI machine
KEY = "a-test-signing-key-of-at-least-thirty-two-characters"
EMAIL = "ops@example.com"
QUESTION = "how do I install acme"
STOPPED = 'askdocs_search_stopped_total{reason="client_closed_request"} 1'
CLOSED = 'askdocs_search_requests_total{status="499"} 1'


def _cli(data_dir: Path, env: dict[str, str], *args: str) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), *args]
    done = subprocess.run(
        command, env=clean_env(env), capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _env(tmp_path: Path, embeddings: EmbeddingServer) -> dict[str, str]:
    docs = write_docs(tmp_path / "docs")
    sites = [{"id": "acme", "name": "Acme", "roots": [{"path": str(docs)}]}]
    return {
        "ASKDOCS_SITES": json.dumps(sites),
        "ASKDOCS_JWT_SIGNING_KEY": KEY,
        "ASKDOCS_EMBEDDING__PROVIDER": "openai-compatible",
        "ASKDOCS_EMBEDDING__MODEL": "scripted-embed",
        "ASKDOCS_EMBEDDING__BASE_URL": embeddings.url,
        "ASKDOCS_EMBEDDING__QUERY_TIMEOUT_SECONDS": "60",
        "ASKDOCS_EMBEDDING__QUERY_CACHE_SIZE": "0",  # every search asks the embedding server
        "ASKDOCS_ASK__LIMITS_TIMEOUT_SECONDS": "10",  # a loaded machine's SQLite is not down
    }


def _hybrid(server: ServeProcess) -> bool:
    """Whether the vectors are in, so that a search embeds its query."""
    found = httpx.get(server.url + "/api/search", params={"q": "pip"}, timeout=60)
    return bool(found.json().get("mode") == "hybrid")


def _leave_mid_search(server: ServeProcess, embeddings: EmbeddingServer) -> None:
    """Send a search, wait until its query embedding is out (and held), then hang up."""
    embeddings.hang.set()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        target = "/api/search?q=" + QUESTION.replace(" ", "+")
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        _until(lambda: QUESTION in embeddings.inputs, "the query embedding")


def test_a_client_that_disconnects_mid_search_stops_its_work(tmp_path: Path) -> None:
    with embedding_server() as embeddings:
        env, data_dir = _env(tmp_path, embeddings), tmp_path / "data"
        _cli(data_dir, env, "users", "create", "--email", EMAIL, "--platform-admin")
        admin = {
            "Authorization": f"Bearer {_cli(data_dir, env, 'token', 'create', '--email', EMAIL)}"
        }
        with serving(data_dir, env) as server:

            def metrics() -> str:
                return httpx.get(server.url + "/api/v1/metrics", headers=admin, timeout=60).text

            wait_until_ready(server)
            _until(lambda: _hybrid(server), "the hybrid index")
            _leave_mid_search(server, embeddings)
            _until(lambda: CLOSED in metrics(), "the 499")  # while the embedding is still held
            assert "askdocs_search_in_flight 1" in metrics()
            embeddings.release.set()  # the embedding answers: the work must stop right there
            _until(lambda: STOPPED in metrics(), "the work to stop")
            assert "askdocs_search_in_flight 0" in metrics()
            again = httpx.get(server.url + "/api/search", params={"q": "install"}, timeout=60)
            assert again.status_code == 200  # the slot came back with the stopped work
        log = (tmp_path / f"serve-{server.port}.log").read_text(encoding="utf-8")
    assert "GET /api/search -> 499 client_closed_request" in log
    assert "search work stopped before query: client_closed_request" in log
