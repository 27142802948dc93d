"""The same assertions against both limits stores: a real Redis and the SQLite file."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest

from askdocs.guard.limits import Counter, RateLimitStore
from askdocs.guard.store_redis import RedisLimitsStore
from askdocs.guard.store_sqlite import SQLiteLimitsStore
from tests.guard.redis_server import RedisProcess

pytestmark = pytest.mark.anyio


def counter(key: str, limit: int, expires_in: int = 3600) -> Counter:
    return Counter(key, limit, int(time.time()) + expires_in, f"{key}_limit", key)


@pytest.fixture(params=["sqlite", "redis"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path, redis_server: RedisProcess
) -> AsyncIterator[RateLimitStore]:
    made: RateLimitStore
    if request.param == "sqlite":
        made = SQLiteLimitsStore(tmp_path / "limits.sqlite3", timeout=5)
    else:  # generous timeouts: these tests are about counting, not failing closed
        made = RedisLimitsStore(redis_server.url, timeout=5)
    yield made
    await made.close()


def unique(name: str) -> str:
    return f"{name}:{time.monotonic_ns()}"


async def test_counts_up_to_the_limit_then_blocks(store: RateLimitStore) -> None:
    key = unique("a")
    now = int(time.time())
    results = [await store.consume([counter(key, 3)], now) for _ in range(4)]
    assert [r.allowed for r in results] == [True, True, True, False]
    assert [r.counts for r in results] == [(1,), (2,), (3,), (3,)]
    assert results[-1].blocked == 0


async def test_peek_reads_without_counting(store: RateLimitStore) -> None:
    a, b = unique("p"), unique("q")
    now = int(time.time())
    assert await store.peek([counter(a, 3), counter(b, 3)], now) == (0, 0)
    await store.consume([counter(a, 3)], now)
    assert await store.peek([counter(a, 3), counter(b, 3)], now) == (1, 0)
    assert await store.peek([counter(a, 3)], now) == (1,)  # peeking counted nothing


async def test_all_or_nothing(store: RateLimitStore) -> None:
    a, b, c = unique("a"), unique("b"), unique("c")
    now = int(time.time())
    await store.consume([counter(b, 1)], now)
    blocked = await store.consume([counter(a, 5), counter(b, 1), counter(c, 5)], now)
    assert (blocked.allowed, blocked.blocked) == (False, 1)
    after = await store.consume([counter(a, 5), counter(c, 5)], now)
    assert after.counts == (1, 1)  # the refused request counted nowhere


async def test_an_expired_window_starts_again(store: RateLimitStore) -> None:
    key = unique("w")
    now = int(time.time())
    await store.consume([counter(key, 1, expires_in=-1)], now)
    again = await store.consume([counter(key, 1)], now)
    assert (again.allowed, again.counts) == (True, (1,))


async def test_exact_under_concurrency(store: RateLimitStore) -> None:
    key = unique("race")
    now = int(time.time())
    allowed = 0

    async def one() -> None:
        nonlocal allowed
        if (await store.consume([counter(key, 5)], now)).allowed:
            allowed += 1

    async with anyio.create_task_group() as group:
        for _ in range(100):
            group.start_soon(one)
    assert allowed == 5


def test_sqlite_counts_survive_a_restart_and_are_shared(tmp_path: Path) -> None:
    path = tmp_path / "limits.sqlite3"
    now = int(time.time())
    first = SQLiteLimitsStore(path)
    for _ in range(2):
        first.consume_sync([counter("day", 3)], now)
    second = SQLiteLimitsStore(path)  # a new process on the same data dir
    assert second.consume_sync([counter("day", 3)], now).counts == (3,)
    assert first.consume_sync([counter("day", 3)], now).allowed is False


def test_sqlite_two_instances_never_over_admit(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    path = tmp_path / "limits.sqlite3"
    stores = [SQLiteLimitsStore(path, timeout=5), SQLiteLimitsStore(path, timeout=5)]
    now = int(time.time())
    with ThreadPoolExecutor(8) as pool:
        results = list(
            pool.map(lambda i: stores[i % 2].consume_sync([counter("k", 7)], now), range(60))
        )
    assert sum(r.allowed for r in results) == 7
