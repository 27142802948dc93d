"""The shared limits store: Redis, on one connection driven by one thread of its own.

One Lua script checks every counter of a check (a sliding counter adds its previous window's
weighted count) and, only if all are under their limit, increments them and sets their
expiry: atomic. Checks that arrive while others are on their way are sent together, one
pipeline and one round trip for all of them (at most ``MAX_BATCH``), so a burst of a hundred
asks costs a few round trips on one connection, not a hundred connections.

"Redis is unreachable" is measured where it happens: the thread's socket has explicit
connect and read timeouts (``ask.limits_timeout_seconds``), kept by the kernel while the
thread waits, so a busy event loop on a loaded machine never turns a healthy Redis into a
refusal. A refused connection, or a connect or reply slower than the timeout, fails the
checks on their way and every check that queued behind them (the callers answer 503, never
"allowed"); the next check reconnects. No retries: a check runs at most once (a script
Redis no longer knows, after a restart, is loaded again and only those checks resent).
"""

from __future__ import annotations

import asyncio
import hashlib
import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio.to_thread
import redis
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError
from redis.retry import Retry

from askdocs.guard.limits import Consumed, Counter

PREFIX = "askdocs:limits:"
MAX_BATCH = 256
CONSUME = """
local n = #KEYS / 2
local counts = {}
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  local weight = tonumber(ARGV[2 * n + i])
  if weight > 0 then
    local previous = tonumber(redis.call('GET', KEYS[n + i]) or '0')
    counts[i] = counts[i] + math.ceil(previous * weight - 1e-9)
  end
  if counts[i] >= tonumber(ARGV[i]) then
    local out = {0, i}
    for j = 1, i do out[#out + 1] = counts[j] end
    return out
  end
end
local out = {1, 0}
for i = 1, n do
  redis.call('INCR', KEYS[i])
  redis.call('EXPIREAT', KEYS[i], ARGV[n + i])
  out[#out + 1] = counts[i] + 1
end
return out
"""
Kind = Literal["consume", "peek", "ping"]


@dataclass
class Job:
    """One check waiting for the thread: what to send, and where its answer goes."""

    kind: Kind
    counters: Sequence[Counter] = ()
    future: Future[Any] = field(default_factory=Future)

    def command(self, sha: str) -> tuple[Any, ...]:
        if self.kind == "ping":
            return ("PING",)
        if self.kind == "peek":
            return ("MGET", *[PREFIX + c.key for c in self.counters])
        return ("EVALSHA", sha, 2 * len(self.counters), *consume_arguments(self.counters))


def consume_arguments(counters: Sequence[Counter]) -> list[str | int]:
    """The script's keys (each counter's, then its previous window's) and arguments
    (limits, expiries, previous-window weights)."""
    keys: list[str | int] = [PREFIX + c.key for c in counters]
    keys += [PREFIX + (c.previous or c.key) for c in counters]
    keys += [c.limit for c in counters]
    keys += [c.expires_at for c in counters]
    keys += [repr(c.previous_weight if c.previous else 0.0) for c in counters]
    return keys


def consumed(reply: Sequence[Any], size: int) -> Consumed:
    allowed, blocked, *counts = (int(v) for v in reply)
    if allowed:
        return Consumed(True, tuple(counts))
    counts += [0] * (size - len(counts))
    return Consumed(False, tuple(counts), blocked - 1)


class RedisLimitsStore:
    name = "redis"

    def __init__(self, url: str, timeout: float = 0.5) -> None:
        self._client = redis.Redis.from_url(
            url,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
            retry_on_timeout=False,
        )
        self._sha = hashlib.sha1(CONSUME.encode(), usedforsecurity=False).hexdigest()
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._closed = False

    async def consume(self, counters: Sequence[Counter], now: int) -> Consumed:
        return consumed(await self._submit(Job("consume", list(counters))), len(counters))

    async def peek(self, counters: Sequence[Counter], now: int) -> tuple[int, ...]:
        values = await self._submit(Job("peek", list(counters)))
        return tuple(int(v or 0) for v in values)

    async def ping(self) -> None:
        await self._submit(Job("ping"))

    async def close(self) -> None:
        with self._start:
            self._closed, thread = True, self._thread
        if thread is not None:
            self._jobs.put(None)
            await anyio.to_thread.run_sync(thread.join, 5.0)
        self._client.close()

    async def _submit(self, job: Job) -> Any:
        self._ensure_thread()
        self._jobs.put(job)
        return await asyncio.wrap_future(job.future)

    def _ensure_thread(self) -> None:
        with self._start:
            if self._closed:
                raise RuntimeError("the limits store is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="askdocs-limits")
                self._thread.daemon = True
                self._thread.start()

    def _serve(self) -> None:
        while (first := self._jobs.get()) is not None:
            batch = [first, *self._waiting()]
            jobs = [job for job in batch if job is not None]
            live = [job for job in jobs if job.future.set_running_or_notify_cancel()]
            try:
                self._send(live)
            except Exception as exc:  # refused, timed out, or a broken connection
                self._fail([*live, *self._claimed()], exc)
            if None in batch:
                return

    def _waiting(self) -> list[Job | None]:
        """The jobs queued now (a stop marker ends the batch), at most ``MAX_BATCH``."""
        found: list[Job | None] = []
        while len(found) < MAX_BATCH - 1:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            found.append(job)
            if job is None:
                break
        return found

    def _claimed(self) -> list[Job]:
        """Every job that queued while Redis was not answering: refused with the batch."""
        waiting = [job for job in self._waiting() if job is not None]
        return [job for job in waiting if job.future.set_running_or_notify_cancel()]

    def _send(self, jobs: Sequence[Job]) -> None:
        missing = _answer(jobs, self._pipeline(jobs))
        if missing:  # Redis restarted or was flushed: load the script, resend only those
            self._client.script_load(CONSUME)
            again = _answer(missing, self._pipeline(missing))
            self._fail(again, NoScriptError("the limits script could not be loaded"))

    def _pipeline(self, jobs: Sequence[Job]) -> list[Any]:
        pipe = self._client.pipeline(transaction=False)
        for job in jobs:
            pipe.execute_command(*job.command(self._sha))  # type: ignore[no-untyped-call]
        return list(pipe.execute(raise_on_error=False))

    @staticmethod
    def _fail(jobs: Sequence[Job], exc: Exception) -> None:
        for job in jobs:
            if not job.future.done():
                job.future.set_exception(exc)


def _answer(jobs: Sequence[Job], replies: Sequence[Any]) -> list[Job]:
    """Hand each job its reply; the jobs whose script Redis did not know (not run)."""
    missing = []
    for job, reply in zip(jobs, replies, strict=True):
        if isinstance(reply, NoScriptError):
            missing.append(job)
        elif isinstance(reply, Exception):
            job.future.set_exception(reply)
        else:
            job.future.set_result(reply)
    return missing
