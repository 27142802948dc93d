"""PostgreSQL engine options that bound every wait: pool checkout, connect, ping, statement.

``database_unavailable`` (503) arrives within ``database.timeout_seconds`` when the server
hangs, and at once for ``database.retry_seconds`` after that (``DatabaseGate``), instead of
every request queueing on a dead server until the thread pool runs dry.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from sqlalchemy import Engine, create_engine, event

from askdocs.db import deadline
from askdocs.error_codes import ErrorCode
from askdocs.errors import ServiceUnavailable
from askdocs.settings import DatabaseSettings

GUARD_KEY = "askdocs_socket_guard"


class DatabaseGate:
    """After a timeout, refuse at once for ``retry_seconds``; then let one try through."""

    def __init__(self, retry_seconds: float) -> None:
        self.retry_seconds = retry_seconds
        self._down_until = 0.0
        self._lock = threading.Lock()

    def check(self) -> None:
        with self._lock:
            down = time.monotonic() < self._down_until
        if down:
            raise ServiceUnavailable(
                "the database is unavailable", code=ErrorCode.DATABASE_UNAVAILABLE
            )

    def trip(self) -> None:
        with self._lock:
            self._down_until = time.monotonic() + self.retry_seconds

    def reset(self) -> None:
        with self._lock:
            self._down_until = 0.0


def postgres_engine(url: str, options: DatabaseSettings) -> Engine:
    engine = create_engine(
        url,
        pool_pre_ping=True,
        pool_size=options.pool_size,
        max_overflow=options.max_overflow,
        pool_timeout=options.timeout_seconds,
        connect_args={"connect_timeout": max(2, round(options.timeout_seconds))},
    )
    _bound_connect(engine, options.timeout_seconds)
    _bound_ping(engine)
    event.listen(engine, "before_cursor_execute", _arm)
    event.listen(engine, "after_cursor_execute", _disarm)
    event.listen(engine, "handle_error", _disarm_on_error)
    return engine


def _bound_connect(engine: Engine, default_seconds: float) -> None:
    @event.listens_for(engine, "do_connect")
    def connect(dialect: Any, record: Any, cargs: Any, cparams: Any) -> Any:
        left = deadline.remaining()
        try:
            return deadline.connect_within(
                lambda: dialect.connect(*cargs, **cparams),
                left if left is not None else default_seconds,
                lambda connection: connection.close(),
            )
        except TimeoutError as exc:
            import psycopg  # here, not at import: a SQLite server never loads it (10 MB)

            raise psycopg.OperationalError(str(exc)) from exc


def _bound_ping(engine: Engine) -> None:
    ping = engine.dialect.do_ping

    def guarded_ping(dbapi_connection: Any) -> bool:
        guard = deadline.guard(_fileno(dbapi_connection))
        try:
            return bool(ping(dbapi_connection))
        finally:
            if guard is not None:
                guard.disarm()

    engine.dialect.do_ping = guarded_ping  # type: ignore[method-assign]


def _fileno(dbapi_connection: Any) -> int | None:
    try:
        return int(dbapi_connection.fileno())
    except Exception:
        return None


def _arm(conn: Any, cursor: Any, statement: Any, parameters: Any, context: Any, many: Any) -> None:
    guard = deadline.guard(_fileno(conn.connection.dbapi_connection), statement=True)
    if guard is not None:
        conn.info[GUARD_KEY] = guard


def _disarm(conn: Any, *args: Any) -> None:
    guard = conn.info.pop(GUARD_KEY, None)
    if isinstance(guard, deadline.SocketGuard):
        guard.disarm()


def _disarm_on_error(context: Any) -> None:
    connection = context.connection
    if connection is not None:
        _disarm(connection)
