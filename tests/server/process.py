"""A real ``askdocs serve`` process on a free loopback port, for tests and the bench."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.support.process import clean_env, free_port, running

START_TIMEOUT = 60.0


@dataclass
class ServeProcess:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def serve_command(data_dir: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "serve", *args]


@contextmanager
def serving(data_dir: Path, env: Mapping[str, str]) -> Iterator[ServeProcess]:
    port = free_port()
    command = serve_command(data_dir, "--host", "127.0.0.1", "--port", str(port))
    log = data_dir.parent / f"serve-{port}.log"
    with running(command, clean_env(env), port, log, START_TIMEOUT) as process:
        yield ServeProcess(process, port)
