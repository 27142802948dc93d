"""A real ``askdocs serve`` process on a free loopback port, its log kept in a file."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.support.process import clean_env, free_port, running

START_TIMEOUT = 90.0


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def toml_config(base: Path, *, extra: str = "", index: bool = False, site_extra: str = "") -> Path:
    """The fixture site as a TOML config file (see tests/reader/fixtures.py); ``extra`` is
    appended TOML (more tables), ``site_extra`` more keys of the site."""
    text = f"""
[server]
index_in_background = {str(index).lower()}

[[sites]]
id = "fx"
name = "Fixture"
{site_extra}

[[sites.roots]]
path = "{base / "docs"}"
audience = "user"

[[sites.roots]]
path = "{base / "dev"}"
audience = "developer"
{extra}
"""
    path = base / "askdocs.toml"
    path.write_text(text, encoding="utf-8")
    return path


@contextmanager
def serving(data_dir: Path, config: Path, env: Mapping[str, str] | None = None) -> Iterator[Served]:
    port = free_port()
    log = data_dir.parent / f"serve-{port}.log"
    data_dir.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "askdocs",
        "--data-dir",
        str(data_dir),
        "--config",
        str(config),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    with running(command, clean_env(env), port, log, START_TIMEOUT) as process:
        yield Served(process, port, log)


def raw_get(port: int, target: bytes) -> tuple[int, bytes]:
    """Send ``target`` byte for byte as the request target; return status and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    response = b"".join(chunks)
    head, _, body = response.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, body
