"""Freeze a private PostgreSQL (SIGSTOP on the postmaster and every backend), as a hung
server looks to its clients: TCP still accepted and acknowledged, no answer ever."""

from __future__ import annotations

import contextlib
import os
import signal
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
def frozen(server: PostgresServer) -> Iterator[None]:
    pids = server_pids(server)
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
