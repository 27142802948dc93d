"""One way to run a scripted HTTP server on 127.0.0.1 for a test (a real socket, a thread)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class QuietServer(ThreadingHTTPServer):
    """Daemon handler threads; a client that hangs up mid-answer is not an error here."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        return


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[QuietServer]:
    """Serve ``handler`` on a free loopback port until the block ends."""
    server = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
