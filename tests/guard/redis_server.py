"""A real redis-server for tests: own port, own folder, no persistence; ready when it says so."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.process import free_port

READY = b"Ready to accept connections"
PAUSE_LIMIT_SECONDS = 30.0


@dataclass
class RedisProcess:
    process: subprocess.Popen[bytes]
    port: int
    _pauses: list[Pause] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def pause(self, at_most_seconds: float = PAUSE_LIMIT_SECONDS) -> Pause:
        """SIGSTOP the server (it keeps accepting TCP but never answers) until ``resume``,
        or until a watchdog resumes it after ``at_most_seconds``: a test that hangs on the
        paused server then fails, never stalls."""
        pause = Pause(threading.Timer(at_most_seconds, self.resume))
        pause.watchdog.daemon = True
        os.kill(self.process.pid, signal.SIGSTOP)
        self._pauses.append(pause)
        pause.watchdog.start()
        return pause

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)
        for pause in self._pauses:
            pause.watchdog.cancel()
            pause.resumed.set()
        self._pauses.clear()

    @contextmanager
    def paused(self, at_most_seconds: float = PAUSE_LIMIT_SECONDS) -> Iterator[Pause]:
        """The server paused for the block (see ``pause``); resumed on leaving it."""
        pause = self.pause(at_most_seconds)
        try:
            yield pause
        finally:
            self.resume()


@dataclass
class Pause:
    """One pause; ``resumed`` is set once the server runs again (the test's order check:
    a refusal that came while it is unset did not wait for Redis)."""

    watchdog: threading.Timer
    resumed: threading.Event = field(default_factory=threading.Event)


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
