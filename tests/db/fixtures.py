"""Storage fixtures shared by tests/db and tests/assistant (imported by their conftests)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from askdocs.db import Database
from tests.db.postgres import PostgresServer, shared_postgres

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session")
def postgres_server() -> PostgresServer:
    return shared_postgres()


def _database(request: pytest.FixtureRequest, tmp_path: Path, migrated: bool) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'askdocs.db'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    template = server.migrated_template() if migrated else "template0"
    name = server.create_database(template)
    try:
        yield server.url(name)
    finally:
        server.drop_database(name)


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database URL of each backend."""
    yield from _database(request, tmp_path, migrated=False)


@pytest.fixture(params=BACKENDS)
def migrated_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each backend (PostgreSQL: cloned from a migrated template)."""
    yield from _database(request, tmp_path, migrated=True)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database.from_url(database_url)
    try:
        yield database
    finally:
        database.close()
