"""Run the packaged Alembic migrations programmatically (no ``alembic.ini`` needed)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return _revision(connection)


MIGRATION_LOCK = 0x61736B64  # "askd": PostgreSQL advisory lock id for migrations


def migrate(engine: Engine, target: str = "head") -> None:
    """Upgrade the database to ``target``; idempotent, and safe when two processes start.

    Migrators serialise on a lock (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: an advisory
    transaction lock) and re-read the revision once they hold it.
    """
    head = head_revision()
    if target == "head" and current_revision(engine) == head:
        return
    config = alembic_config()
    locked = engine.execution_options(sqlite_begin="IMMEDIATE")
    with locked.begin() as connection:
        _lock(connection)
        if target == "head" and _revision(connection) == head:
            return
        config.attributes["connection"] = connection
        command.upgrade(config, target)


def _lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})


def _revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()
