"""The long-lived parts of a running maproom, built once from settings, shared by entry points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from maproom.domain import views
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
    meter: UsageMeter
    blobs: BlobStore
    tiles: TileCache
    hub: LiveHub

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
            meter=UsageMeter(),
            blobs=blobs,
            tiles=TileCache(blobs),
            hub=_live_hub(db),
        )


def _live_hub(db: Database) -> LiveHub:
    """The in-process hub, fed by the event log and told of every commit that grew it."""

    async def fetch(project_id: str, after: int) -> list[tuple[int, str, Any]]:
        if db.is_sqlite:
            return views.log_since(db, project_id, after, views.HISTORY)
        return await anyio.to_thread.run_sync(views.log_since, db, project_id, after, views.HISTORY)

    hub = LiveHub(fetch)
    db.commit_listeners.append(hub.heard)
    return hub
