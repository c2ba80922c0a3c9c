"""The long-lived parts of a running maproom, built once from settings, shared by entry points."""

from __future__ import annotations

from dataclasses import dataclass

from maproom.domain.keys import Authenticator
from maproom.domain.ratelimit import MemoryRateLimiter, RateLimiter
from maproom.domain.tiles import TileCache
from maproom.domain.usage import UsageMeter
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
        )
