"""A real ``askdocs serve`` process on a free loopback port, for tests and the bench."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.guard.redis_server import free_port

START_TIMEOUT = 60.0


@dataclass
class ServeProcess:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def clean_env(extra: Mapping[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")}
    return {**env, **extra}


def serve_command(data_dir: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "serve", *args]


@contextmanager
def serving(data_dir: Path, env: Mapping[str, str]) -> Iterator[ServeProcess]:
    port = free_port()
    command = serve_command(data_dir, "--host", "127.0.0.1", "--port", str(port))
    process = subprocess.Popen(
        command, env=clean_env(env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        _wait_for_health(process, port)
        yield ServeProcess(process, port)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        if process.stderr:
            process.stderr.close()


def _wait_for_health(process: subprocess.Popen[bytes], port: int) -> None:
    """Poll /healthz until the socket answers (uvicorn has no readiness signal to await)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            errors = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"askdocs serve exited with {process.returncode}: {errors}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError("askdocs serve did not start in time")
