"""``askdocs serve`` and ``askdocs mcp --transport http`` bind their own sockets; the
connections they accept must have Nagle off, or every response waits for the client's
delayed ACK (issue #20: /healthz took 45 ms)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable

import pytest

from askdocs.cli.serve import listen
from askdocs.mcp.transports import bind


@pytest.mark.parametrize("opener", [listen, bind], ids=["serve", "mcp-http"])
def test_accepted_connections_send_without_delay(
    opener: Callable[[str, int], socket.socket],
) -> None:
    async def check() -> int:
        sock = opener("127.0.0.1", 0)
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            raw = writer.get_extra_info("socket")
            seen.set_result(raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(accepted, sock=sock)
        _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
        try:
            return await asyncio.wait_for(seen, 10)
        finally:
            writer.close()
            server.close()
            await server.wait_closed()

    assert asyncio.run(check()) != 0
