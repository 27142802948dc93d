"""Freeze a private PostgreSQL (SIGSTOP on the postmaster and every backend), as a hung
server looks to its clients: TCP still accepted and acknowledged, no answer ever."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

from tests.db.postgres import PostgresServer


def server_pids(server: PostgresServer) -> list[int]:
    postmaster = int((server.datadir / "postmaster.pid").read_text().split()[0])
    return [postmaster, *_children(postmaster)]


def _children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent:
                found.append(int(stat.parent.name))
    return found


@contextlib.contextmanager
def frozen(server: PostgresServer, at_most_seconds: float = 30.0) -> Iterator[None]:
    """Stop the server for the block; it resumes on leaving the block, or after
    ``at_most_seconds`` even if the block itself hangs (the test then fails, never stalls)."""
    pids = server_pids(server)
    for pid in pids:
        _signal(pid, signal.SIGSTOP)
    watchdog = threading.Timer(at_most_seconds, _resume, (server, pids))
    watchdog.daemon = True
    watchdog.start()
    try:
        yield
    finally:
        watchdog.cancel()
        _resume(server, pids)


def _resume(server: PostgresServer, stopped: list[int]) -> None:
    """SIGCONT what was stopped and whatever the postmaster forked since."""
    for pid in dict.fromkeys([*stopped, *_current(server)]):
        _signal(pid, signal.SIGCONT)


def _current(server: PostgresServer) -> list[int]:
    with contextlib.suppress(OSError, ValueError, IndexError):
        return server_pids(server)
    return []


def _signal(pid: int, signum: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signum)
