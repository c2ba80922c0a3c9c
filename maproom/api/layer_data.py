"""Answers shared by the API's layer routes and the view pages' copies of them: a layer's
GeoJSON document and its tiles."""

from __future__ import annotations

import functools
from typing import Any, Literal

import anyio.to_thread
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import iterate_in_threadpool

from maproom import geo
from maproom.domain import layers
from maproom.domain.tiles import MEDIA_TYPES, check_request, source_of
from maproom.errors import NotFound
from maproom.runtime import Services

TileFormat = Literal["pbf", "png", "webp"]
TILE_HEADERS = {"Cache-Control": "private, max-age=86400"}


async def geojson_response(services: Services, row: Any) -> Response:
    """The layer's features as one GeoJSON FeatureCollection, streamed from the blob store
    (those its style's filter keeps)."""
    if row.layer_type != "geojson":
        raise NotFound("Only GeoJSON layers have a GeoJSON document; use the tile URL")
    blobs = services.blobs
    where = layers.filter_of(row)
    if where is not None:
        path = await anyio.to_thread.run_sync(blobs.local_path, row.data_key)
        return StreamingResponse(
            iterate_in_threadpool(geo.kept_lines(path, where)),
            media_type="application/geo+json",
        )
    size = await anyio.to_thread.run_sync(blobs.size, row.data_key)  # S3: a HEAD request
    return StreamingResponse(
        blobs.read_range(row.data_key, 0, size - 1),
        media_type="application/geo+json",
        headers={"Content-Length": str(size)},
    )


async def tile_response(services: Services, row: Any, z: int, x: int, y: int, fmt: str) -> Response:
    """One tile, from the cache or cut off the event loop; 204 outside a raster."""
    check_request(row, z, x, y, fmt)
    cache = services.tiles
    source = source_of(row)
    where = layers.filter_of(row) if fmt == "pbf" else None
    found, tile = cache.get((source, z, x, y, fmt + layers.filter_tag(where)))
    if not found:
        slots = services.tile_slots
        if fmt == "pbf":
            cut = functools.partial(cache.make_vector, where=where)
            tile = await anyio.to_thread.run_sync(cut, source, z, x, y, limiter=slots)
        else:
            settings = services.settings
            make = functools.partial(
                cache.make_raster,
                allowlist=settings.fetch_allowed,
                timeout=settings.fetch_timeout_s,
            )
            tile = await anyio.to_thread.run_sync(make, source, z, x, y, fmt, limiter=slots)
    if tile is None:
        return Response(status_code=204, headers=TILE_HEADERS)
    return Response(tile, media_type=MEDIA_TYPES[fmt], headers=TILE_HEADERS)
