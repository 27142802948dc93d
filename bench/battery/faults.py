"""Battery categories that inject process faults without the shared server: kill -9 during
index rebuilds, a Redis limits store that is paused (SIGSTOP) or killed, and SIGTERM to a
server whose indexer waits on a hung embedder."""

from __future__ import annotations

import json
import random
import signal
import tempfile
import time
from pathlib import Path

import anyio
from bench.battery.categories import Mode, Result, p95
from tests.embeddings.scripted_server import Reply, ScriptedServer
from tests.guard.redis_server import RedisProcess, running_redis
from tests.index.durability_worker import variants
from tests.index.test_durability import Worker, check
from tests.server.conftest import write_docs
from tests.server.process import serving

from askdocs.embeddings.local import LocalEmbedder
from askdocs.errors import RateLimited, ServiceUnavailable
from askdocs.guard.limiter import Limiter
from askdocs.guard.store_redis import RedisLimitsStore
from askdocs.settings import AskSettings, Settings

LIMITS_TIMEOUT = AskSettings().limits_timeout_seconds  # the production default, 0.5 s


def kill9_rebuild(mode: Mode) -> Result:
    """SIGKILL an indexer process at random moments of rebuilds (K = 50 in full mode, 5 in
    short) on Qdrant Edge: after every kill a fresh process must read one whole collection,
    never a blind (none), partial or mixed one; the next run repairs."""
    result = Result("kill9_rebuild")
    kills_wanted = 50 if mode.full else 5
    LocalEmbedder().load()  # the compiled model is cached before the first build is timed
    rng = random.Random(20261)
    outcomes = {"blind": 0, "partial": 0, "mixed": 0}
    with tempfile.TemporaryDirectory(prefix="battery-kill9-") as tmp:
        data_dir = Path(tmp)
        first = Worker(data_dir, "A")
        first.start()
        started = time.monotonic()
        first.run_or_kill(300)
        full_build = time.monotonic() - started
        served, kills, order = "A", 0, ["B", "C", "A"]
        upcoming = Worker(data_dir, order[0])
        cycle = 0
        while kills < kills_wanted:
            worker, cycle = upcoming, cycle + 1
            worker.start()
            killed = worker.run_or_kill(rng.uniform(0.0, full_build * 1.2))
            upcoming = Worker(data_dir, order[cycle % len(order)])  # loads while we check
            state = check(data_dir)
            verdict = _whole(state, {served, worker.variant})
            result.probes += 1
            if verdict != "whole":
                outcomes[verdict] += 1
                result.fail(f"after kill {kills}: {verdict}")
            else:
                served = str(state["variant"])
            kills += killed
        upcoming.start()
        upcoming.run_or_kill(300)
        repaired = _whole(check(data_dir), {upcoming.variant})
        result.probes += 1
        if repaired != "whole":
            result.fail(f"the run after the kills left {repaired}")
        leftovers = list((data_dir / "index" / "collections").iterdir())
        if len(leftovers) != 1:
            result.fail(f"{len(leftovers)} collections left after the repair")
    blind, partial, mixed = outcomes.values()
    result.figure = f"kills={kills} blind={blind} partial={partial} mixed={mixed}"
    return result


def _whole(state: dict[str, object], allowed: set[str]) -> str:
    """ "whole", or how a reader's view of the index is broken."""
    variant = state.get("variant")
    if variant is None or not state.get("manifest_points"):
        return "blind"
    counts = [state.get(k) for k in ("manifest_points", "counted", "dense_points", "scrolled")]
    if variant not in allowed:
        return "partial" if len(set(counts)) > 1 else "mixed"
    size = len(variants()[str(variant)])
    whole = all(c == size for c in counts) and state.get("self_match") and state.get("keyword_hits")
    return "whole" if whole else "partial"


def redis_faults(mode: Mode) -> Result:
    """The Ask AI limits on a private Redis: paused (SIGSTOP) and killed, every check is
    ``503 limits_unavailable`` (fail closed, never unlimited) within p99 1.0 s (the 0.5 s
    limits timeout plus scheduling); with Redis healthy, 100 concurrent checks at limit 5
    admit exactly 5."""
    result = Result("redis")
    rounds = 100 if mode.full else 20
    with (
        tempfile.TemporaryDirectory(prefix="battery-redis-") as tmp,
        running_redis(Path(tmp) / "redis") as redis,
    ):
        admitted, paused, killed = anyio.run(_redis_scenario, redis, Path(tmp), rounds, result)
    result.probes += 100
    if admitted != 5:
        result.fail(f"{admitted} of 100 concurrent checks admitted at limit 5")
    worst = max(paused + killed)
    if worst > 1.0:  # anchors FT-01/02: p99 <= 1.0 s
        result.fail(f"slowest refusal {worst:.2f} s")
    result.figure = (
        f"paused_p95_s={p95(paused):.2f} killed_p95_s={p95(killed):.2f} "
        f"max_s={worst:.2f} over_admitted={max(0, admitted - 5)}"
    )
    return result


async def _redis_scenario(
    redis: RedisProcess, data_dir: Path, rounds: int, result: Result
) -> tuple[int, list[float], list[float]]:
    counting = _limiter(data_dir, redis.url, 10.0)  # exactness: no timeout may cut it short
    try:
        admitted = await _concurrent_bursts(counting, 100)
    finally:
        await counting.close()
    limiter = _limiter(data_dir, redis.url, LIMITS_TIMEOUT)
    try:
        with redis.paused(at_most_seconds=30 + rounds * 2 * LIMITS_TIMEOUT) as pause:
            paused = await _refusals(limiter, rounds, result, "paused")
            if pause.resumed.is_set():  # the watchdog ended the pause before the last check
                result.fail("Redis was resumed by the watchdog during the paused checks")
        redis.process.kill()
        redis.process.wait()
        killed = await _refusals(limiter, rounds, result, "killed")
    finally:
        await limiter.close()
    return admitted, paused, killed


def _limiter(data_dir: Path, url: str, timeout: float) -> Limiter:
    ask = AskSettings(burst_per_minute=5, daily_visitor_limit=10**6, limits_timeout_seconds=timeout)
    settings = Settings(data_dir=data_dir, redis_url=url, ask=ask)
    return Limiter(RedisLimitsStore(url, timeout), settings)


async def _concurrent_bursts(limiter: Limiter, count: int) -> int:
    admitted = 0
    now = int(time.time())

    async def one() -> None:
        nonlocal admitted
        try:
            await limiter.burst("battery-visitor", now)
            admitted += 1
        except RateLimited:
            pass

    async with anyio.create_task_group() as group:
        for _ in range(count):
            group.start_soon(one)
    return admitted


async def _refusals(limiter: Limiter, rounds: int, result: Result, fault: str) -> list[float]:
    times: list[float] = []
    for n in range(rounds):
        started = time.monotonic()
        outcome = await _check(limiter, f"{fault}-{n}")
        times.append(time.monotonic() - started)
        result.probes += 1
        if outcome != "limits_unavailable":
            result.fail(f"redis {fault}: {outcome}")
    return times


async def _check(limiter: Limiter, visitor: str) -> str:
    try:
        await limiter.burst(visitor)
    except ServiceUnavailable as exc:
        return exc.code
    except RateLimited:
        return "rate limited (a counter answered)"
    return "admitted (fail open)"


def shutdown(mode: Mode) -> Result:
    """SIGTERM to ``askdocs serve`` while its background indexer waits on a hosted embedder
    that does not answer (a batch in flight): the process is gone within 3 s (rounds: 5
    full, 2 short)."""
    result = Result("shutdown")
    times: list[float] = []
    for _ in range(5 if mode.full else 2):
        times.append(_one_shutdown(result))
    worst = max(times)
    if worst > 3.0:
        result.fail(f"serve took {worst:.1f} s to stop")
    result.figure = f"stop_max_s={worst:.2f} stop_p50_s={sorted(times)[len(times) // 2]:.2f}"
    return result


def _one_shutdown(result: Result) -> float:
    embedder = ScriptedServer(lambda _: Reply(mode="hang")).start()
    with tempfile.TemporaryDirectory(prefix="battery-shutdown-") as tmp:
        docs = write_docs(Path(tmp) / "docs")
        env = {
            "ASKDOCS_SITES": json.dumps([{"id": "acme", "roots": [{"path": str(docs)}]}]),
            "ASKDOCS_EMBEDDING__PROVIDER": "openai-compatible",
            "ASKDOCS_EMBEDDING__MODEL": "m",
            "ASKDOCS_EMBEDDING__BASE_URL": f"{embedder.url}/v1",
            "ASKDOCS_EMBEDDING__DIMENSION": "8",
            "ASKDOCS_EMBEDDING__TIMEOUT_SECONDS": "120",
            "ASKDOCS_INDEX__FIRST_RUN_DELAY_SECONDS": "0",
        }
        try:
            with serving(Path(tmp) / "data", env) as server:
                deadline = time.monotonic() + 60
                while not embedder.received and time.monotonic() < deadline:
                    time.sleep(0.05)  # polling for the batch to be in flight
                result.probes += 1
                if not embedder.received:
                    result.fail("the indexer never sent a batch")
                started = time.monotonic()
                server.process.send_signal(signal.SIGTERM)
                server.process.wait(timeout=60)
                return time.monotonic() - started
        finally:
            embedder.stop()
