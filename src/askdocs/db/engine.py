"""The database: one engine and session factory per process, migrated at start-up.

SQLite (a file in the data dir) by default, PostgreSQL when ``ASKDOCS_DATABASE_URL`` names
one (``postgresql://`` URLs are driven by psycopg 3). SQLite runs in WAL mode with
``synchronous=FULL`` and foreign keys on, so an acknowledged message survives a crash.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from askdocs.db import deadline
from askdocs.db.migrate import migrate
from askdocs.db.timeouts import DatabaseGate, postgres_engine
from askdocs.error_codes import ErrorCode
from askdocs.errors import ServiceUnavailable
from askdocs.settings import DatabaseSettings, Settings
from askdocs.sqlite_wal import enable_wal

SQLITE_FILE = "askdocs.db"
SQLITE_BUSY_MS = 10_000
BEGIN_OPTION = "sqlite_begin"


def database_url(settings: Settings) -> str:
    """The configured URL, normalised to an installed driver; else the data-dir SQLite file."""
    url = settings.database_url
    if not url:
        return f"sqlite:///{settings.data_dir / SQLITE_FILE}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str, options: DatabaseSettings | None = None) -> Engine:
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    return postgres_engine(url, options or DatabaseSettings())


def _sqlite_engine(url: str) -> Engine:
    path = url.removeprefix("sqlite:///")
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
    event.listen(engine, "connect", _sqlite_pragmas)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_begin(connection: Connection) -> None:
    """Real transactions on SQLite (the driver's own BEGIN skips DDL); writers take IMMEDIATE."""
    mode = connection.get_execution_options().get(BEGIN_OPTION, "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" event issues BEGIN
    enable_wal(dbapi_connection)
    cursor = dbapi_connection.cursor()
    for pragma in (
        "synchronous=FULL",
        "foreign_keys=ON",
        f"busy_timeout={SQLITE_BUSY_MS}",
    ):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


class Database:
    """An engine plus a session factory. ``Database.open(settings)`` migrates to head."""

    def __init__(self, engine: Engine, options: DatabaseSettings | None = None) -> None:
        self.engine = engine
        self.options = options or DatabaseSettings()
        self._bounded = engine.dialect.name != "sqlite"
        self.gate = DatabaseGate(self.options.retry_seconds)
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        writer = engine.execution_options(**{BEGIN_OPTION: "IMMEDIATE"})
        self._writers = sessionmaker(writer, expire_on_commit=False)

    @classmethod
    def open(cls, settings: Settings) -> Database:
        return cls.from_url(database_url(settings), settings.database)

    @classmethod
    def from_url(cls, url: str, options: DatabaseSettings | None = None) -> Database:
        engine = make_engine(url, options)
        try:
            migrate(engine)
        except OperationalError as exc:
            engine.dispose()
            raise ServiceUnavailable(f"the database is unavailable: {exc.orig}") from exc
        return cls(engine, options)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def session(self, *, write: bool = False) -> Iterator[Session]:
        """One transaction: committed on success, rolled back on error.

        ``write=True`` takes SQLite's write lock at BEGIN, so read-then-write sequences
        (``max(sequence) + 1``) cannot interleave; on PostgreSQL it changes nothing.
        """
        factory = self._writers if write else self._sessions
        if not self._bounded:
            with _unavailable_as_503(None), factory.begin() as session:
                yield session
            return
        self.gate.check()
        budget = deadline.budget(self.options.timeout_seconds)
        with _unavailable_as_503(self.gate), budget, factory.begin() as session:
            yield session

    def ping(self) -> None:
        """One ``SELECT 1`` within the usual bounds (503 ``database_unavailable`` otherwise)."""
        with self.session() as session:
            session.execute(text("SELECT 1"))

    def close(self) -> None:
        self.engine.dispose()


@contextmanager
def _unavailable_as_503(gate: DatabaseGate | None) -> Iterator[None]:
    """A lost, hung or exhausted database is 503 ``database_unavailable``, never a 500;
    with a gate, the next ``retry_seconds`` of requests are refused at once."""
    try:
        yield
    except (OperationalError, PoolTimeout) as exc:
        if gate is not None:
            gate.trip()
        raise ServiceUnavailable(
            "the database is unavailable", code=ErrorCode.DATABASE_UNAVAILABLE
        ) from exc
