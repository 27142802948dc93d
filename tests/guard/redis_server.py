"""A real redis-server for tests: own port, own folder, no persistence; ready when it says so."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.support.process import free_port

READY = b"Ready to accept connections"


@dataclass
class RedisProcess:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def pause(self) -> None:
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """SIGSTOP the server (it keeps accepting TCP but never answers); SIGCONT after."""
        os.kill(self.process.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(self.process.pid, signal.SIGCONT)


@contextmanager
def running_redis(folder: Path) -> Iterator[RedisProcess]:
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [
        "redis-server",
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(folder),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        _wait_ready(process)
        yield RedisProcess(process, port)
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout:
            process.stdout.close()


def _wait_ready(process: subprocess.Popen[bytes]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        if READY in line:
            return
    raise RuntimeError(f"redis-server exited with {process.wait()} before it was ready")


def closed_port_url() -> str:
    """A Redis URL on a port where nothing listens (connections are refused)."""
    return f"redis://127.0.0.1:{free_port()}/0"
