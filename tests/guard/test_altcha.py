"""ALTCHA proof of work (``askdocs.guard.altcha``): a real challenge, solved by the PyPI
``altcha`` solver, accepted once; replays refused across processes sharing the limits store
(SQLite and Redis), expired, tampered, foreign and other-action solutions refused."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import altcha
import pytest

from askdocs.errors import Forbidden
from askdocs.guard.altcha import AltchaCheck, AltchaKeys, AltchaPolicy
from askdocs.guard.limits import RateLimitStore
from askdocs.guard.store_redis import RedisLimitsStore
from askdocs.guard.store_sqlite import SQLiteLimitsStore
from tests.guard.redis_server import RedisProcess

pytestmark = pytest.mark.anyio
KEYS = AltchaKeys(b"c" * 32, b"s" * 32)
POLICY = AltchaPolicy(cost=10, max_number=50, expire_seconds=300, store_timeout=2.0)
HOSTS = {"docs.example.com"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def solved(challenge: dict[str, Any]) -> str:
    """What the widget sends: the challenge and its solution, base64 JSON."""
    parsed = altcha.Challenge.from_dict(challenge)
    solution = altcha.solve_challenge(parsed)
    assert solution is not None
    return altcha.Payload(parsed, solution).to_base64()


@pytest.fixture(params=["sqlite", "redis"])
async def stores(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[RateLimitStore, RateLimitStore]]:
    """Two stores over one backing store: two replicas."""
    if request.param == "sqlite":
        pair: tuple[RateLimitStore, RateLimitStore] = (
            SQLiteLimitsStore(tmp_path / "limits.sqlite3"),
            SQLiteLimitsStore(tmp_path / "limits.sqlite3"),
        )
    else:
        redis: RedisProcess = request.getfixturevalue("redis_server")
        pair = (RedisLimitsStore(redis.url, 2.0), RedisLimitsStore(redis.url, 2.0))
    yield pair
    for store in pair:
        await store.close()


async def test_a_solution_is_accepted_once_across_replicas(
    stores: tuple[RateLimitStore, RateLimitStore],
) -> None:
    first, second = AltchaCheck(KEYS, POLICY, stores[0]), AltchaCheck(KEYS, POLICY, stores[1])
    token = solved(first.challenge("ask"))
    await first.verify(token, action="ask", hostnames=HOSTS, remote_ip=None)
    for replica in (second, first):
        with pytest.raises(Forbidden) as replayed:
            await replica.verify(token, action="ask", hostnames=HOSTS, remote_ip=None)
        assert replayed.value.code == "bot_check_failed"
        assert "already used" in replayed.value.message


def tampered(token: str, change: dict[str, Any]) -> str:
    data = json.loads(base64.b64decode(token))
    data["challenge"]["parameters"].update(change)
    return base64.b64encode(json.dumps(data).encode()).decode()


async def test_wrong_foreign_expired_and_malformed_solutions_are_refused(tmp_path: Path) -> None:
    check = AltchaCheck(KEYS, POLICY, SQLiteLimitsStore(tmp_path / "limits.sqlite3"))
    good = solved(check.challenge("ask"))
    foreign = AltchaCheck(AltchaKeys(b"x" * 32, b"y" * 32), POLICY, check._store)
    expired = solved(check.challenge("ask", now=1_000_000))
    wrong = json.loads(base64.b64decode(good))
    wrong["solution"]["derivedKey"] = "00" * 32
    cases = [
        "",
        "not base64 at all",
        "x" * 5000,
        tampered(good, {"keyPrefix": "00"}),
        tampered(good, {"expiresAt": 9_999_999_999}),
        base64.b64encode(json.dumps(wrong).encode()).decode(),
        solved(foreign.challenge("ask")),
        expired,
        solved(check.challenge("feedback")),
        base64.b64encode(b"[1, 2]").decode(),
    ]
    for token in cases:
        with pytest.raises(Forbidden) as refused:
            await check.verify(token, action="ask", hostnames=HOSTS, remote_ip=None)
        assert refused.value.code == "bot_check_failed", token[:80]
    await check.verify(good, action="ask", hostnames=HOSTS, remote_ip=None)  # still unused


def test_a_challenge_carries_the_policy() -> None:
    store = SQLiteLimitsStore(Path("/nonexistent/never-opened.sqlite3"))
    made = AltchaCheck(KEYS, POLICY, store).challenge("ask", now=1000)
    params = made["parameters"]
    assert params["algorithm"] == "PBKDF2/SHA-256"
    assert params["cost"] == POLICY.cost
    assert params["expiresAt"] == 1000 + POLICY.expire_seconds
    assert params["data"] == {"action": "ask"}
    assert made["signature"]
