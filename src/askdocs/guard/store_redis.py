"""The shared limits store: Redis, with explicit connect and socket timeouts and no retries.

One Lua script checks every counter (a sliding counter adds its previous window's weighted
count) and, only if all are under their limit, increments them and sets their expiry:
atomic, one round trip. A refused or hung Redis raises within the
timeout; the caller turns that into 503, never into "allowed".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from askdocs.guard.limits import Consumed, Counter

PREFIX = "askdocs:limits:"
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


class RedisLimitsStore:
    name = "redis"

    def __init__(self, url: str, timeout: float = 0.5) -> None:
        self._client: aioredis.Redis = aioredis.Redis.from_url(
            url,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
            retry_on_timeout=False,
        )
        self._script = self._client.register_script(CONSUME)

    async def consume(self, counters: Sequence[Counter], now: int) -> Consumed:
        keys = [PREFIX + c.key for c in counters]
        keys += [PREFIX + (c.previous or c.key) for c in counters]
        args: list[int | str] = [c.limit for c in counters]
        args += [c.expires_at for c in counters]
        args += [repr(c.previous_weight if c.previous else 0.0) for c in counters]
        reply: list[Any] = await self._script(keys=keys, args=args)
        allowed, blocked, *counts = (int(v) for v in reply)
        if allowed:
            return Consumed(True, tuple(counts))
        counts += [0] * (len(counters) - len(counts))
        return Consumed(False, tuple(counts), blocked - 1)

    async def peek(self, counters: Sequence[Counter], now: int) -> tuple[int, ...]:
        values: list[Any] = await self._client.mget([PREFIX + c.key for c in counters])
        return tuple(int(v or 0) for v in values)

    async def ping(self) -> None:
        await self._client.ping()

    async def close(self) -> None:
        await self._client.aclose()
