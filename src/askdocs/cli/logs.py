"""One-line log records on stderr for the command line, at the level -v/-q choose.

Default: ``askdocs`` records at INFO and above (progress of long work when stderr is not a
terminal); ``-q``: warnings and errors only; ``-v``: debug records too. stdout stays for
the command's output (and for the MCP stdio transport).
"""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%dT%H:%M:%S"


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at the time (test runners swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


_HANDLER = _StderrHandler()
_HANDLER.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))


def configure_logging(verbosity: int) -> None:
    """Route ``askdocs`` records to stderr at the level ``verbosity`` asks for (idempotent)."""
    logger = logging.getLogger("askdocs")
    if _HANDLER not in logger.handlers and _HANDLER not in logging.getLogger().handlers:
        logger.addHandler(_HANDLER)
    logger.setLevel(level_for(verbosity))


def log_through_root() -> None:
    """Move the handler to the root logger (``askdocs mcp``, before the server is built).

    The MCP SDK's server configures logging when it is built: ``logging.basicConfig`` puts
    a Rich handler on the root logger unless that has a handler already, and every
    ``askdocs`` record then printed twice (ours, then the SDK's). With the handler on the
    root, each record prints once, in this format; the SDK's own records follow the root
    logger's level (warnings and errors)."""
    logging.getLogger("askdocs").removeHandler(_HANDLER)
    root = logging.getLogger()
    if _HANDLER not in root.handlers:
        root.addHandler(_HANDLER)


def level_for(verbosity: int) -> int:
    if verbosity < 0:
        return logging.WARNING
    return logging.DEBUG if verbosity > 0 else logging.INFO
