"""A server subprocess on a free loopback port, started, awaited on /healthz and stopped."""

from __future__ import annotations

import errno
import fcntl
import os
import random
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

PORT_LOCKS = Path(tempfile.gettempdir()) / "askdocs-test-ports"
_HELD: dict[int, int] = {}  # port -> descriptor of its lock file, held until this process exits


def free_port() -> int:
    """A loopback TCP port nothing listens on, that no one else will be handed before the
    caller's server binds it (which may be many seconds later).

    ``bind(0)`` and release is not enough: the port comes from the kernel's ephemeral range,
    so any outgoing connection (of this process or another) may be given it in between (CI saw
    "Address already in use"), and a second call may return it again. So the port is drawn
    outside the ephemeral range, never twice in this process, and reserved against other
    processes by a lock file held until this process exits.
    """
    low, high = ephemeral_range()
    candidates = [p for p in range(10_000, 65_536) if not low <= p <= high] or list(
        range(10_000, 65_536)
    )
    draw = random.SystemRandom()
    for _ in range(500):
        port = draw.choice(candidates)
        if port not in _HELD and _reserve(port) and _bindable(port):
            return port
    raise RuntimeError("no free loopback port outside the ephemeral range after 500 draws")


def ephemeral_range() -> tuple[int, int]:
    """The kernel's range for outgoing connections' local ports (Linux's default if unknown)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def _reserve(port: int) -> bool:
    PORT_LOCKS.mkdir(parents=True, exist_ok=True)
    fd = os.open(PORT_LOCKS / f"{port}.lock", os.O_CREAT | os.O_RDWR, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EAGAIN, errno.EACCES):
            return False  # another process holds it
        raise
    _HELD[port] = fd  # kept even if the port is busy now: this process never draws it again
    return True


def _bindable(port: int) -> bool:
    """Whether a listener could bind it now (SO_REUSEADDR, as uvicorn, Redis and PostgreSQL
    set: a connection in TIME_WAIT does not block it, a listener does)."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment without ``ASKDOCS_*`` variables, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")}
    return {**env, **(extra or {})}


@contextmanager
def running(
    command: Sequence[str], env: Mapping[str, str], port: int, log: Path, timeout: float = 180.0
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` (output to ``log``) until /healthz on ``port`` answers; stop it after.

    ``timeout`` bounds the wait, it is no verdict: a start that took over 60 s at load 18
    (the whole suite and six sessions on 2 cores) failed the short battery's shutdown check."""
    with log.open("wb") as sink:
        process = subprocess.Popen(list(command), env=dict(env), stdout=sink, stderr=sink)
        try:
            wait_for_health(process, port, log, timeout)
            yield process
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def wait_for_health(process: subprocess.Popen[bytes], port: int, log: Path, timeout: float) -> None:
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
