from collections.abc import Iterator

import pytest

from askdocs.db import Database
from askdocs.settings import DatabaseSettings
from tests.db.fixtures import migrated_database_url, postgres_server

LOADED = DatabaseSettings(timeout_seconds=10)  # a loaded CI machine: tests/conftest.py


__all__ = ["migrated_database_url", "postgres_server"]


@pytest.fixture
def db(migrated_database_url: str) -> Iterator[Database]:
    database = Database.from_url(migrated_database_url, LOADED)
    try:
        yield database
    finally:
        database.close()
