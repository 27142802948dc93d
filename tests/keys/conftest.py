from collections.abc import Iterator

import pytest

from askdocs.db import Database
from tests.db.fixtures import migrated_database_url, postgres_server

__all__ = ["migrated_database_url", "postgres_server"]


@pytest.fixture
def db(migrated_database_url: str) -> Iterator[Database]:
    database = Database.from_url(migrated_database_url)
    try:
        yield database
    finally:
        database.close()
