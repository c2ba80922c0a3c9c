"""Map tiles from layer files: Mapbox Vector Tiles from GeoJSON, PNG/WebP tiles from a COG.

    is_streaming(features, bytes)  a layer too large for one GeoJSON document (api-decisions.md)
    check_tile(z, x, y)            whether z/x/y names a tile
    raster_tile(path, z, x, y)     one web-mercator tile of a COG (rio-tiler), or None outside

Vector tiles are cut by `maproom.geo.tilestore`, from a layer's tile index.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Any

import numpy as np

from maproom.limits import MAX_ZOOM

STREAMING_FEATURES = 50_000
STREAMING_BYTES = 20 * 1024 * 1024


def is_streaming(feature_count: int, size_bytes: int) -> bool:
    """More than 50,000 features or 20 MB: viewers get the layer as vector tiles."""
    return feature_count > STREAMING_FEATURES or size_bytes > STREAMING_BYTES


def check_tile(z: int, x: int, y: int) -> None:
    """ValueError unless z/x/y names a web-mercator tile."""
    if not (0 <= z <= MAX_ZOOM and 0 <= x < 2**z and 0 <= y < 2**z):
        raise ValueError(f"no tile {z}/{x}/{y}: zoom 0..{MAX_ZOOM}, x and y 0..2^zoom-1")


_IMPORTING = threading.Lock()


def _raster_stack() -> tuple[Any, Any, Any]:
    """rasterio and rio-tiler, imported on the first raster tile (a server that never draws
    one does not load them), by one thread at a time: rio-tiler's modules import each other,
    and a second thread importing meanwhile would see a half-made `rio_tiler.io`."""
    with _IMPORTING:
        import rasterio
        from rio_tiler.errors import TileOutsideBounds
        from rio_tiler.io import Reader
    return rasterio, TileOutsideBounds, Reader


def raster_tile(
    path: Path | str,
    z: int,
    x: int,
    y: int,
    fmt: str = "png",
    tilesize: int = 256,
    opener: Any = None,
) -> bytes | None:
    """Tile z/x/y of a COG as PNG or WebP, transparent where there is no data; None outside.
    `opener`: how rasterio reads the file (a remote one, through maproom's own reader)."""
    rasterio, TileOutsideBounds, Reader = _raster_stack()
    check_tile(z, x, y)
    if fmt not in ("png", "webp"):
        raise ValueError(f"unsupported tile format {fmt!r}: png or webp")
    with (
        rasterio.open(str(path), opener=opener) as dataset,
        Reader(str(path), dataset=dataset) as cog,
    ):
        if not cog.tile_exists(x, y, z):
            return None
        try:
            image = cog.tile(x, y, z, tilesize=tilesize, indexes=_bands(cog.dataset.count))
        except TileOutsideBounds:
            return None
        if image.data.dtype != np.uint8:
            image.rescale(in_range=_ranges(cog))
    rendered: bytes = image.render(img_format="PNG" if fmt == "png" else "WEBP")
    return rendered


def _bands(count: int) -> tuple[int, ...]:
    """Grey for one band, RGB for three or more (a fourth band is the alpha mask's business)."""
    return (1,) if count < 3 else (1, 2, 3)


def _ranges(cog: Any) -> list[tuple[float, float]]:
    """Per-band value ranges to stretch to 0..255: the dataset's statistics (overview-based)."""
    ranges = []
    for stats in cog.dataset.stats(indexes=list(_bands(cog.dataset.count)), approx=True):
        low, high = float(stats.min), float(stats.max)
        if not math.isfinite(low) or not math.isfinite(high) or high <= low:
            low, high = 0.0, max(1.0, high)
        ranges.append((low, high))
    return ranges
