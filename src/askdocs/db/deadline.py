"""Client-side deadlines for a PostgreSQL that stops answering (hung, SIGSTOP, network gone).

A hung server still accepts TCP and acknowledges packets, so neither a server-side
``statement_timeout`` nor TCP timeouts fire; a blocked ``recv`` waits forever. Each
``Database.session()`` therefore sets a per-thread budget (``database.timeout_seconds``):

* getting a connection (the pool's liveness ping, and connecting when the pool has none)
  ends by the budget's deadline; the driver's connect runs in a helper thread that is
  abandoned at the deadline (libpq's own ``connect_timeout`` cannot go below 2 s);
* each statement gets the budget's length again;
* a timer shuts an overrunning connection's socket down, so the blocked read returns at
  once with an error and SQLAlchemy throws the connection away.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

_local = threading.local()


@contextlib.contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Everything this thread does with the database in the block ends by the deadline."""
    previous = getattr(_local, "deadline", None), getattr(_local, "step", None)
    _local.deadline, _local.step = time.monotonic() + seconds, seconds
    try:
        yield
    finally:
        _local.deadline, _local.step = previous


def remaining() -> float | None:
    """Seconds left of this thread's budget; None outside ``budget``."""
    deadline: float | None = getattr(_local, "deadline", None)
    return None if deadline is None else max(0.0, deadline - time.monotonic())


class SocketGuard:
    """Shuts ``fd`` down when ``disarm`` has not been called within ``seconds``."""

    def __init__(self, fd: int, seconds: float) -> None:
        self._fd = fd
        self._lock = threading.Lock()
        self._done = False
        self.fired = False
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def disarm(self) -> None:
        with self._lock:
            self._done = True
        self._timer.cancel()

    def _fire(self) -> None:
        with self._lock:
            if self._done:
                return
            self._done = self.fired = True
            shutdown_socket(self._fd)


def shutdown_socket(fd: int) -> None:
    """Shut down (not close: the driver owns the descriptor) the socket behind ``fd``."""
    with contextlib.suppress(OSError):
        sock = socket.socket(fileno=os.dup(fd))
        try:
            sock.shutdown(socket.SHUT_RDWR)
        finally:
            sock.close()


def guard(fd: int | None, *, statement: bool = False) -> SocketGuard | None:
    """A guard for ``fd`` when this thread has a budget, else None: until the budget's
    deadline, or for a whole budget's length for a ``statement``."""
    step: float | None = getattr(_local, "step", None)
    seconds = step if statement else remaining()
    if fd is None or seconds is None:
        return None
    return SocketGuard(fd, seconds)


def connect_within(
    connect: Callable[[], Any], seconds: float | None, close: Callable[[Any], None]
) -> Any:
    """``connect()`` in a helper thread, waiting at most ``seconds``; a connection that
    arrives after the caller gave up is closed. Raises ``TimeoutError`` at the deadline."""
    if seconds is None:
        return connect()
    outcome: dict[str, Any] = {}
    lock = threading.Lock()
    finished = threading.Event()

    def run() -> None:
        try:
            value, error = connect(), None
        except BaseException as exc:  # handed to the waiting thread
            value, error = None, exc
        with lock:
            outcome.update(value=value, error=error)
            finished.set()
            late = outcome.get("abandoned", False)
        if late and value is not None:
            with contextlib.suppress(Exception):
                close(value)

    threading.Thread(target=run, name="askdocs-db-connect", daemon=True).start()
    finished.wait(seconds)
    with lock:
        if not finished.is_set():
            outcome["abandoned"] = True
            raise TimeoutError(f"connecting to the database took over {seconds:.1f} s")
    if outcome["error"] is not None:
        raise outcome["error"]
    return outcome["value"]
