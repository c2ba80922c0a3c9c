"""What several workers share through Redis (`MAPROOM_REDIS_URL`): the topics of committed
changes, and the request budgets.

`RedisBus` carries every committed transaction's topics (`project:{id}`, `gone:{id}`,
`link-gone:{id}`, `key-gone:{id}`) to the other workers over one pub/sub channel; each worker
hears them as if the change had been made in it (its live streams read the new events from
the database, its key cache drops a revoked key). The event log in the database stays the
only record: Redis carries nudges, never events.

`RedisRateLimiter` keeps each key's sliding window in Redis, checked and counted in one Lua
script, so N workers together accept the per-key budget, not N times it.

The limiter's commands share a small pool of connections that a burst waits for (up to
`POOL_WAIT_SECONDS`), so a burst of requests never opens a connection per request, nor makes a
worker give up on Redis: only Redis being down does.

When Redis cannot be reached (documented in docs/deploy.md): limits fall back to the worker's
own counters (each worker then accepts up to the budget), the key cache is switched off (every
request checks the database, so a revocation is seen at once), and when the subscription comes
back every worker re-reads the log of every open stream and drops its key cache, so nothing
committed meanwhile is missed. A topic that could not be published is kept and sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from maproom.domain.ratelimit import WINDOW, MemoryRateLimiter, RateDecision, decide
from maproom.events.hub import RESYNC, on_loop

log = logging.getLogger("maproom.shared")

MAX_PENDING = 10_000
RETRY_SECONDS = 0.5
TIMEOUT_SECONDS = 0.5
POOL_SIZE = 16  # the limiter's connections per worker: one Lua call takes microseconds
POOL_WAIT_SECONDS = 2.0


def namespace(database_url: str) -> str:
    """The prefix of our Redis names: one per database, so that deployments (or test runs)
    sharing a Redis never hear each other."""
    return "maproom:" + hashlib.sha256(database_url.encode()).hexdigest()[:12]


def publish_once(url: str, space: str, topics: frozenset[str]) -> None:
    """Tell the workers about a change made outside them (the command line), blocking."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
    message = orjson.dumps({"origin": "cli", "topics": sorted(topics)})
    try:
        client.publish(f"{space}:topics", message)
    finally:
        client.close()


def _client(url: str) -> aioredis.Redis:
    return aioredis.from_url(
        url,
        socket_timeout=TIMEOUT_SECONDS,
        socket_connect_timeout=TIMEOUT_SECONDS,
        health_check_interval=5,
    )


class RedisBus:
    """Topics of committed changes, to and from the other workers."""

    def __init__(
        self,
        url: str,
        space: str,
        heard: Callable[[frozenset[str]], None],
        connected: Callable[[bool], None],
    ) -> None:
        self.url = url
        self.channel = f"{space}:topics"
        self.origin = uuid.uuid4().hex  # our own messages come back: they are skipped
        self._heard = heard  # topics committed by another worker
        self._connected = connected  # the subscription came up (True) or went down (False)
        self._pending: set[str] = set()
        self._added = 0  # batches of topics handed to the bus so far
        self._settled = 0  # of those, the batches published (or given up while Redis is away)
        self._settle: asyncio.Event | None = None  # set (and replaced) when `_settled` grows
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.subscribed = False

    def publish(self, topics: frozenset[str]) -> None:
        """Commit listener (any thread): send these topics to the other workers."""
        on_loop(self._loop, self._add, topics)

    async def sent(self, timeout: float = TIMEOUT_SECONDS) -> None:
        """Return once every topic handed to the bus so far has been published (or could not
        be, Redis being away): a change's answer then reaches its client only after the other
        workers' subscriptions were sent its topics, so the client's next request, on any
        worker, finds their caches already told."""
        if not self.subscribed:  # Redis is away: the others resync when it is back
            return
        target = self._added
        deadline = asyncio.get_running_loop().time() + timeout
        while self._settled < target and self._settle is not None:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._settle.wait(), remaining)

    def _settled_up_to(self, batch: int) -> None:
        self._settled = max(self._settled, batch)
        if self._settle is not None:
            self._settle.set()
            self._settle = asyncio.Event()

    def _add(self, topics: frozenset[str]) -> None:
        self._added += 1
        self._pending |= topics
        if len(self._pending) > MAX_PENDING:
            self._pending = {RESYNC}
        if self._wake is not None:
            self._wake.set()

    async def run(self) -> None:
        """Publish and listen until cancelled (a task of the app's lifespan)."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._settle = asyncio.Event()
        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(self._publishing())
            tasks.create_task(self._listening())

    async def _publishing(self) -> None:
        assert self._wake is not None
        client = _client(self.url)
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                topics, self._pending = self._pending, set()
                batch = self._added
                if not topics:
                    self._settled_up_to(batch)
                    continue
                message = orjson.dumps({"origin": self.origin, "topics": sorted(topics)})
                try:
                    await client.publish(self.channel, message)
                except (RedisError, OSError) as exc:
                    log.warning("could not publish to Redis (%s); will retry", exc)
                    self._settled_up_to(batch)  # no answer waits through an outage
                    self._add(frozenset(topics))
                    await asyncio.sleep(RETRY_SECONDS)
                else:
                    self._settled_up_to(batch)
        finally:
            await client.aclose()

    async def _listening(self) -> None:
        while True:
            client = _client(self.url)
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._up(True)
                    while True:
                        message = await pubsub.get_message(timeout=None)
                        if message is not None:
                            self._receive(message["data"])
            except (RedisError, OSError) as exc:
                if self.subscribed:
                    log.warning("lost the Redis subscription (%s); reconnecting", exc)
                self._up(False)
            finally:
                await client.aclose()
            await asyncio.sleep(RETRY_SECONDS)

    def _up(self, subscribed: bool) -> None:
        changed = subscribed != self.subscribed
        self.subscribed = subscribed
        if changed or subscribed:
            self._connected(subscribed)

    def _receive(self, data: Any) -> None:
        try:
            message = orjson.loads(data)
            origin, topics = message["origin"], frozenset(message["topics"])
        except (orjson.JSONDecodeError, KeyError, TypeError):
            log.warning("ignored a malformed message on %s", self.channel)
            return
        if origin != self.origin:
            self._heard(topics)


# The sliding window of `decide`, atomically: read both windows, count the hit when the
# estimate leaves room for it (the same test as `decide`'s first branch), return the counts so
# that `decide` computes the headers from exactly what the script saw.
_HIT = """
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
local window = tonumber(ARGV[3])
local estimate = prev * (window - tonumber(ARGV[2])) / window + cur
if estimate + 1 <= tonumber(ARGV[1]) then
  redis.call('INCR', KEYS[1])
  redis.call('EXPIRE', KEYS[1], math.ceil(window * 2))
end
return {cur, prev}
"""


def _pooled_client(url: str) -> aioredis.Redis:
    """A client whose commands wait for one of `POOL_SIZE` connections instead of opening
    more (redis-py's default pool opens one per concurrent command, without bound)."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=POOL_SIZE,
        timeout=POOL_WAIT_SECONDS,
        socket_timeout=POOL_WAIT_SECONDS,
        socket_connect_timeout=POOL_WAIT_SECONDS,
        health_check_interval=5,
    )
    return aioredis.Redis(connection_pool=pool)


class RedisRateLimiter:
    """The per-key sliding window in Redis: one budget across workers. While Redis cannot be
    reached, this worker's own counters decide (and say so in the log)."""

    def __init__(
        self, url: str, space: str, limit: int, name: str, clock: Callable[[], float] = time.time
    ) -> None:
        self.limit = limit
        self.name = f"{space}:rl:{name}"
        self.clock = clock
        self._client = _pooled_client(url)
        self._script = self._client.register_script(_HIT)
        self._fallback = MemoryRateLimiter(limit, clock)
        self._down_until = 0.0

    async def hit(self, key: str) -> RateDecision:
        """Count one request for `key` if the shared budget allows it."""
        now = self.clock()
        if now < self._down_until:
            return self._fallback.hit_now(key)
        window = int(now // WINDOW)
        elapsed = now - window * WINDOW
        keys = [
            f"{self.name}:{key}:{window}",
            f"{self.name}:{key}:{window - 1}",
        ]
        try:
            cur, prev = await self._script(keys=keys, args=[self.limit, elapsed, WINDOW])
        except (RedisError, OSError) as exc:
            log.warning("rate limits: Redis unreachable (%s); counting in this worker", exc)
            self._down_until = now + RETRY_SECONDS * 2
            return self._fallback.hit_now(key)
        return decide(self.limit, int(prev), int(cur), elapsed)

    async def close(self) -> None:
        await self._client.aclose()
        await self._client.connection_pool.disconnect()
