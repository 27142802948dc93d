"""Bind a listening socket before any set-up, for ``askdocs serve`` and ``askdocs mcp``.

A taken port or an address that is not this machine's fails at once, each as one clear
``ConfigError`` (exit 2 on the command line): ``port_unavailable`` or ``host_unavailable``.
"""

from __future__ import annotations

import errno
import socket

from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError


def listen(host: str, port: int, *, backlog: int = 2048, option: str = "--port") -> socket.socket:
    """A socket bound to ``host:port`` and listening (``[::1]`` and ``::1`` both work)."""
    bare = host.strip("[]")
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio turns Nagle off (TCP_NODELAY) only on accepted sockets whose
    # proto says TCP; with proto 0 every response waited ~40 ms for the delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((bare, port))
        sock.listen(backlog)
    except (OSError, OverflowError, UnicodeError) as exc:
        sock.close()
        raise bind_error(host, port, exc, option) from None
    return sock


def bind_error(host: str, port: int, exc: BaseException, option: str = "--port") -> ConfigError:
    """The one-line error for a failed bind: the port (taken, privileged) or the address."""
    if isinstance(exc, OSError) and exc.errno in (errno.EADDRINUSE, errno.EACCES):
        return ConfigError(
            f"cannot listen on {url_host(host)}:{port}: {exc.strerror}; "
            f"choose another port with {option}",
            code=ErrorCode.PORT_UNAVAILABLE,
        )
    return ConfigError(
        f"cannot listen on {host}: not an address of this machine; "
        "choose another with --host (127.0.0.1: this machine only)",
        code=ErrorCode.HOST_UNAVAILABLE,
    )


def url_host(host: str) -> str:
    """``::1`` -> ``[::1]``, as it stands in a URL."""
    bare = host.strip("[]")
    return f"[{bare}]" if ":" in bare else bare
