"""The long-lived parts of a running maproom, built once from settings, shared by entry points."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Any

import anyio

from maproom.adapters import remote
from maproom.domain import history, links, projects, usage
from maproom.domain.analysis import Analysis
from maproom.domain.basemaps import Basemaps
from maproom.domain.chat.builtin import BuiltinAgent
from maproom.domain.chat.llm import LLMAgent
from maproom.domain.chat.turn import Agent
from maproom.domain.heard import HeardCache
from maproom.domain.keys import Authenticator
from maproom.domain.ratelimit import MemoryRateLimiter, RateLimiter
from maproom.domain.tiles import TileCache
from maproom.domain.usage import UsageMeter
from maproom.events.bus import Bus, LocalBus
from maproom.events.hub import RESYNC, LiveHub
from maproom.geo.base import Limits
from maproom.settings import MB, Settings
from maproom.storage import scratch
from maproom.storage.blobs import BlobStore, open_store
from maproom.storage.db import Database

STYLE_WAIT_S = 3.0  # the longest a compiled style waits on a networked basemap's style


@dataclass
class Services:
    """Database, authenticator, rate limiter and usage meter of one process; with
    `MAPROOM_REDIS_URL`, the bus and limits it shares with the other workers."""

    settings: Settings
    db: Database
    authenticator: Authenticator
    limiter: RateLimiter
    public_limiter: RateLimiter  # keyless pages, per link and client address
    meter: UsageMeter
    blobs: BlobStore
    tiles: TileCache
    analysis: Analysis
    hub: LiveHub
    agent: Agent
    bodies: HeardCache[projects.Encoded]  # project bodies as JSON, on while every change is heard
    basemaps: Basemaps  # the basemaps compiled styles are drawn on (networked ones kept)

    # Several workers: what they share goes through Redis (`adapters.redis`); alone, nothing.
    bus: Bus = field(default_factory=LocalBus)
    # The threads that may cut tiles at once: one per core. Cutting is CPU work partly holding
    # the interpreter lock; more threads would not cut faster, and each one competing for the
    # lock delays the event loop (health checks, reads) behind it (docs/tiles.md).
    tile_slots: anyio.CapacityLimiter = field(
        default_factory=lambda: anyio.CapacityLimiter(max(1, os.cpu_count() or 1))
    )

    @classmethod
    def build(cls, settings: Settings) -> Services:
        """Wire the adapters the settings choose."""
        scratch.use(settings.data_dir / "tmp")
        db = Database(settings.resolved_database_url, settings.database_pool_size)
        blobs = open_store(settings.resolved_storage_url, settings.blob_cache_mb * MB)
        db.write_context.update(blobs=blobs, retention=retention_of(settings))
        redis_url = settings.redis_url
        # One process on its own hears every change; with Redis the caches are on while the bus
        # is subscribed (`HeardCache.share`).
        alone = settings.workers == 1 and not redis_url
        services = cls(
            settings=settings,
            db=db,
            authenticator=Authenticator(db, cache=alone),
            limiter=_limiter(settings, settings.rate_limit_per_minute, "key"),
            public_limiter=_limiter(settings, settings.public_rate_limit_per_minute, "public"),
            meter=UsageMeter(),
            blobs=blobs,
            tiles=TileCache(
                blobs, remote=remote.RemoteOpener, on_built=functools.partial(_count_tiles, db)
            ),
            analysis=Analysis(
                blobs,
                memory_mb=settings.analysis_memory_mb,
                timeout_s=settings.analysis_timeout_s,
                limits=conversion_limits(settings),
                on_built=functools.partial(_count_tiles, db),
            ),
            hub=_live_hub(db),
            agent=agent_for(settings),
            bodies=projects.body_cache(enabled=alone, bound_bytes=settings.body_cache_mb * MB),
            basemaps=Basemaps(
                remote.fetcher(settings.fetch_allowed, min(settings.fetch_timeout_s, STYLE_WAIT_S))
            ),
        )
        db.commit_listeners.append(services.heard)
        if redis_url:
            from maproom.adapters import redis  # imported only when it is used

            space = redis.namespace(settings.resolved_database_url)
            services.bus = redis.RedisBus(redis_url, space, services.heard, services._bus_up)
            db.commit_listeners.append(services.bus.publish)
        return services

    def prepare_later(self, data_key: str, fields: list[dict[str, Any]] | None) -> None:
        """After a GeoJSON layer's upload answered: build its tile index (its table for the
        analysis engine is built on the first question, within the engine's memory)."""
        self.tiles.index_later(data_key)

    @property
    def retention(self) -> history.Retention:
        """How much history each project keeps."""
        return retention_of(self.settings)

    def heard(self, topics: frozenset[str]) -> None:
        """Topics of a committed change, made in this worker or (through the bus) another."""
        self.hub.heard(topics)
        if RESYNC in topics:
            self._share(self.bus.subscribed)
        else:
            self.authenticator.heard(topics)
            projects.forget(self.bodies, topics)

    def _bus_up(self, subscribed: bool) -> None:
        self._share(subscribed)
        if subscribed:  # commits of other workers may have gone unheard meanwhile
            self.hub.heard(frozenset({RESYNC}))

    def _share(self, reachable: bool) -> None:
        """The caches are right only while every worker's changes reach this one."""
        self.authenticator.cache.share(reachable)
        self.bodies.share(reachable)

    async def close(self) -> None:
        """Close the connections to what workers share."""
        for limiter in (self.limiter, self.public_limiter):
            await limiter.close()


CONVERTED_TIMES = 10  # a converted layer may take 10 times the upload ceiling in bytes


def conversion_limits(settings: Settings) -> Limits:
    """How big a layer made from an upload, inline data or an analysis may get (docs/api-
    decisions.md, bounded work): 10 times the upload ceiling in bytes, 10 M features."""
    return Limits(max_bytes=CONVERTED_TIMES * settings.upload_max_bytes)


def retention_of(settings: Settings) -> history.Retention:
    """The history's retention the settings choose."""
    return history.Retention(versions=settings.history_versions, days=settings.history_days)


def _limiter(settings: Settings, limit: int, name: str) -> RateLimiter:
    if settings.redis_url:
        from maproom.adapters import redis

        space = redis.namespace(settings.resolved_database_url)
        return redis.RedisRateLimiter(settings.redis_url, space, limit, name)
    return MemoryRateLimiter(limit)


def _count_tiles(db: Database, data_key: str, size: int) -> bool:
    """Count the bytes of a file a layer's data gets later (its tile index, its table; its
    data is `p/{project}/{file}/...`); False when the file is gone (deleted while built)."""
    file_id = data_key.split("/")[2]
    with db.write() as tx:
        return usage.add_stored(tx, file_id, size)


def agent_for(settings: Settings) -> Agent:
    """The built-in chat agent, or the OpenAI-compatible one when `MAPROOM_LLM_BASE_URL` is set."""
    if settings.llm_base_url:
        return LLMAgent(
            base_url=settings.llm_base_url,
            model=settings.llm_model or "default",
            api_key=settings.llm_api_key,
            timeout=settings.llm_timeout_s,
            max_steps=settings.llm_max_steps,
        )
    return BuiltinAgent()


def _live_hub(db: Database) -> LiveHub:
    """The in-process hub, fed by the event log and told of every commit that grew it."""

    async def fetch(project_id: str, after: int) -> list[tuple[int, str, Any]]:
        return links.log_since(db, project_id, after, links.HISTORY)  # a read: inline

    return LiveHub(fetch)
