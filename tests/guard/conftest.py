from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.guard.redis_server import RedisProcess, running_redis


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProcess]:
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisProcess]:
    """A private server for tests that pause or stop it."""
    with running_redis(tmp_path / "redis") as server:
        yield server
