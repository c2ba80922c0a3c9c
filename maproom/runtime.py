"""The long-lived parts of a running maproom, built once from settings, shared by entry points."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from maproom.domain import links, usage
from maproom.domain.chat.builtin import BuiltinAgent
from maproom.domain.chat.llm import LLMAgent
from maproom.domain.chat.turn import Agent
from maproom.domain.keys import Authenticator
from maproom.domain.ratelimit import MemoryRateLimiter, RateLimiter
from maproom.domain.tiles import TileCache
from maproom.domain.usage import UsageMeter
from maproom.events.hub import LiveHub
from maproom.settings import Settings
from maproom.storage.blobs import BlobStore, open_store
from maproom.storage.db import Database


@dataclass
class Services:
    """Database, authenticator, rate limiter and usage meter of one process."""

    settings: Settings
    db: Database
    authenticator: Authenticator
    limiter: RateLimiter
    public_limiter: RateLimiter  # keyless pages, per link and client address
    meter: UsageMeter
    blobs: BlobStore
    tiles: TileCache
    hub: LiveHub
    agent: Agent

    @classmethod
    def build(cls, settings: Settings) -> Services:
        """Wire the adapters the settings choose."""
        db = Database(settings.resolved_database_url)
        blobs = open_store(settings.resolved_storage_url)
        return cls(
            settings=settings,
            db=db,
            authenticator=Authenticator(db, cache=settings.workers == 1),
            limiter=MemoryRateLimiter(settings.rate_limit_per_minute),
            public_limiter=MemoryRateLimiter(settings.public_rate_limit_per_minute),
            meter=UsageMeter(),
            blobs=blobs,
            tiles=TileCache(blobs, on_built=functools.partial(_count_tiles, db)),
            hub=_live_hub(db),
            agent=agent_for(settings),
        )


def _count_tiles(db: Database, data_key: str, size: int) -> bool:
    """Count the bytes of a layer's tile index (its data is `p/{project}/{file}/...`); False
    when the file is gone (deleted while its index was built)."""
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
        if db.is_sqlite:
            return links.log_since(db, project_id, after, links.HISTORY)
        return await anyio.to_thread.run_sync(links.log_since, db, project_id, after, links.HISTORY)

    hub = LiveHub(fetch)
    db.commit_listeners.append(hub.heard)
    return hub
