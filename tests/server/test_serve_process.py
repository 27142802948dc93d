"""``askdocs serve`` as a real uvicorn process on a free loopback port."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import write_docs
from tests.server.process import ServeProcess, clean_env, serve_command, serving


def site_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    docs = write_docs(tmp_path / "docs")
    sites = [{"id": "acme", "name": "Acme", "roots": [{"path": str(docs)}]}]
    return {"ASKDOCS_SITES": json.dumps(sites), **extra}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    tmp = tmp_path_factory.mktemp("serve")
    with serving(tmp / "data", site_env(tmp)) as process:
        yield process


def test_public_binding_without_a_bot_check_is_refused(tmp_path: Path) -> None:
    command = serve_command(tmp_path / "data", "--host", "0.0.0.0", "--port", "1")
    result = subprocess.run(
        command, env=clean_env(site_env(tmp_path)), capture_output=True, timeout=60, check=False
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
