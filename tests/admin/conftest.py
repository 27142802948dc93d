from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.admin.world import World, build_world
from tests.assistant.conftest import docs_root
from tests.db.fixtures import database_url, postgres_server

__all__ = ["database_url", "docs_root", "postgres_server"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    """The world on SQLite (most tests); backend-sensitive tests use ``any_world``."""
    built = build_world(tmp_path, f"sqlite:///{tmp_path / 'admin.db'}")
    try:
        yield built
    finally:
        built.db.close()


@pytest.fixture
def any_world(tmp_path: Path, database_url: str) -> Iterator[World]:
    """The world on each backend (SQLite and PostgreSQL)."""
    built = build_world(tmp_path, database_url)
    try:
        yield built
    finally:
        built.db.close()
