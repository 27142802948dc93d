"""``free_port`` hands out loopback ports no one else takes before the server binds them."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from tests.support import process
from tests.support.process import ephemeral_range, free_port

ROOT = Path(__file__).resolve().parents[1]


def test_address_already_in_use_free_ports_are_outside_the_ephemeral_range() -> None:
    """The CI failure: an outgoing connection was given the port between pick and bind."""
    low, high = ephemeral_range()
    ports = [free_port() for _ in range(50)]
    assert all(not low <= port <= high for port in ports)
    assert len(set(ports)) == 50  # never twice in one process


def test_a_port_is_bindable_when_handed_out() -> None:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", free_port()))
        sock.listen(1)


def test_a_port_with_a_listener_is_not_bindable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        assert not process._bindable(sock.getsockname()[1])


def test_a_port_another_process_reserved_is_not_handed_out() -> None:
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from tests.support.process import free_port;"
            "print(free_port(), flush=True); sys.stdin.read()",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        assert not process._reserve(port)  # the child holds its lock file
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(10)
    assert process._reserve(port)  # released when the holder exited
