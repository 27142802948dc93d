"""A scripted OpenAI-compatible server on 127.0.0.1 that refuses every request with a 401
whose error text quotes the presented API key back (as some vendors do)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.http_server import serving


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen: list[str]

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        presented = self.headers.get("Authorization", "")
        self.seen.append(presented)
        key = presented.removeprefix("Bearer ")
        body = json.dumps(
            {"error": {"message": f"Incorrect API key provided: {key}", "type": "auth"}}
        ).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return


@contextmanager
def echo_server() -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []
    handler = type("Handler", (_Handler,), {"seen": seen})
    with serving(handler) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
