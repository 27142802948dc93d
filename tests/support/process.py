"""A server subprocess on a free loopback port, started, awaited on /healthz and stopped."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment without ``ASKDOCS_*`` variables, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")}
    return {**env, **(extra or {})}


@contextmanager
def running(
    command: Sequence[str], env: Mapping[str, str], port: int, log: Path, timeout: float = 60.0
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` (output to ``log``) until /healthz on ``port`` answers; stop it after."""
    with log.open("wb") as sink:
        process = subprocess.Popen(list(command), env=dict(env), stdout=sink, stderr=sink)
        try:
            _wait_for_health(process, port, log, timeout)
            yield process
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def _wait_for_health(
    process: subprocess.Popen[bytes], port: int, log: Path, timeout: float
) -> None:
    """Poll /healthz until the socket answers (uvicorn has no readiness signal to await)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = log.read_text(errors="replace")
            raise RuntimeError(f"the server exited with {process.returncode}: {output}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not answer /healthz within {timeout} s")
