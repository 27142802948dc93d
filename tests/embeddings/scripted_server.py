"""A real HTTP server on 127.0.0.1 whose answers a test scripts, recording what it received.

It speaks plain HTTP/1.1 through the standard library, so the provider code runs its real
httpx client end to end. Modes besides a normal reply: ``hang`` (read the request, never
answer) and ``trickle`` (send headers, then one body byte at a time). Both end when the
server stops, or after ``HANG_LIMIT_SECONDS``: a client that never gives up then fails its
test instead of stalling it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HANG_LIMIT_SECONDS = 60.0


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: object  # parsed JSON


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: object = None  # JSON-encoded unless bytes
    headers: dict[str, str] = field(default_factory=dict)
    mode: str = "normal"  # "normal" | "hang" | "trickle"

    def payload(self) -> bytes:
        return self.body if isinstance(self.body, bytes) else json.dumps(self.body).encode()


Script = Callable[[Received], Reply]


class ScriptedServer:
    """Start with ``start()``; ``script`` decides each reply; ``received`` records requests."""

    def __init__(self, script: Script | None = None) -> None:
        self.script: Script = script or (lambda _: Reply(500, {"error": "no script"}))
        self.received: list[Received] = []
        self.released = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> ScriptedServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.released.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def _handler_for(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            request = Received(
                method="POST",
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=json.loads(raw) if raw else None,
            )
            server.received.append(request)
            self._answer(server.script(request))

        def _answer(self, reply: Reply) -> None:
            if reply.mode == "hang":
                server.released.wait(HANG_LIMIT_SECONDS)
                return
            self.send_response(reply.status)
            self.send_header("content-type", "application/json")
            for name, value in reply.headers.items():
                self.send_header(name, value)
            if reply.mode == "trickle":
                self._trickle()
                return
            payload = reply.payload()
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _trickle(self) -> None:
            self.send_header("content-length", "1000000")
            self.end_headers()
            self.wfile.flush()
            until = time.monotonic() + HANG_LIMIT_SECONDS
            while not server.released.wait(0.05) and time.monotonic() < until:  # pacing
                try:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                except OSError:  # the client gave up, as it should
                    return

        def log_message(self, format: str, *args: object) -> None:  # silence stderr
            return

    return Handler
