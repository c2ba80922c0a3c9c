"""Map tiles from layer files: Mapbox Vector Tiles from GeoJSON, PNG/WebP tiles from a COG.

    is_streaming(features, bytes)  a layer too large for one GeoJSON document (CONTRACT.md 4)
    VectorIndex.build(path)        reads a layer's GeoJSON once; .tile(z, x, y) cuts an MVT
    raster_tile(path, z, x, y)     one web-mercator tile of a COG (rio-tiler), or None outside

A `VectorIndex` keeps points as numpy arrays of web-mercator coordinates (unit square, y down),
so picking a tile's points is one vectorised comparison, and other geometries as shapely
objects in the same space with their bounding boxes in arrays. A tile is cut in tile pixels
(extent 4096, 64-pixel buffer): lines and polygons are clipped to the buffered tile. At low
zoom many points fall on the same screen pixel (8 tile units, one pixel of a 512-pixel tile); only
the first of each is kept (it draws the same), and a tile never holds more than
`MAX_TILE_FEATURES` features (the first ones in file order), so the widest tiles of a huge layer
stay small and fast. Everything here is read-only
after `build`, so one index serves many threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mapbox_vector_tile
import numpy as np
import orjson
import shapely
from numpy.typing import NDArray

STREAMING_FEATURES = 50_000
STREAMING_BYTES = 20 * 1024 * 1024
EXTENT = 4096
BUFFER = 64
MAX_ZOOM = 24
MAX_TILE_FEATURES = 50_000
POINT_CELL = 8  # tile units: one screen pixel of a 512-pixel tile
MAX_LAT = 85.0511287798066


def is_streaming(feature_count: int, size_bytes: int) -> bool:
    """More than 50,000 features or 20 MB: viewers get the layer as vector tiles."""
    return feature_count > STREAMING_FEATURES or size_bytes > STREAMING_BYTES


def check_tile(z: int, x: int, y: int) -> None:
    """ValueError unless z/x/y names a web-mercator tile."""
    if not (0 <= z <= MAX_ZOOM and 0 <= x < 2**z and 0 <= y < 2**z):
        raise ValueError(f"no tile {z}/{x}/{y}: zoom 0..{MAX_ZOOM}, x and y 0..2^zoom-1")


def _mercator(lng: NDArray[np.float64], lat: NDArray[np.float64]) -> tuple[Any, Any]:
    """Longitude/latitude to the web-mercator unit square (x right, y down)."""
    lat = np.clip(lat, -MAX_LAT, MAX_LAT)
    x = (lng + 180.0) / 360.0
    y = 0.5 - np.log(np.tan(np.pi / 4 + np.radians(lat) / 2)) / (2 * np.pi)
    return x, y


def _scalar(value: Any) -> Any:
    """A property value as MVT can hold it: scalars as they are, the rest as JSON text."""
    if isinstance(value, str | bool | int | float):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**63:
            return str(value)
        return value
    return orjson.dumps(value).decode()


def _properties(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        return {}
    return {str(k): _scalar(v) for k, v in raw.items() if v is not None}


def _features(path: Path) -> list[dict[str, Any]]:
    """The features of a layer file: one per line (maproom's layout), else the whole document."""
    features: list[dict[str, Any]] = []
    with path.open("rb") as stream:
        for line in stream:
            text = line.strip().rstrip(b",")
            if not text.startswith(b'{"type":"Feature"'):
                continue
            features.append(orjson.loads(text))
    if features:
        return features
    document = orjson.loads(path.read_bytes())
    if document.get("type") == "FeatureCollection":
        return list(document.get("features") or [])
    if document.get("type") == "Feature":
        return [document]
    return [{"type": "Feature", "geometry": document, "properties": {}}]


@dataclass(frozen=True)
class VectorIndex:
    """A layer's features, ready to be cut into tiles."""

    point_x: NDArray[np.float64]
    point_y: NDArray[np.float64]
    point_props: list[dict[str, Any]]
    shapes: list[Any]
    shape_bounds: NDArray[np.float64]  # (n, 4): minx, miny, maxx, maxy in the unit square
    shape_props: list[dict[str, Any]]

    @classmethod
    def build(cls, path: Path) -> VectorIndex:
        """Read a GeoJSON layer file."""
        lngs: list[float] = []
        lats: list[float] = []
        point_props: list[dict[str, Any]] = []
        geoms: list[Any] = []
        shape_props: list[dict[str, Any]] = []
        for feature in _features(Path(path)):
            geometry = feature.get("geometry")
            if not geometry:
                continue
            props = _properties(feature.get("properties"))
            if geometry.get("type") == "Point":
                lng, lat = geometry["coordinates"][:2]
                lngs.append(lng)
                lats.append(lat)
                point_props.append(props)
            else:
                geoms.append(shapely.geometry.shape(geometry))
                shape_props.append(props)
        px, py = _mercator(np.asarray(lngs, dtype=np.float64), np.asarray(lats, dtype=np.float64))
        shapes = [shapely.transform(g, _to_unit) for g in geoms]
        bounds = (
            shapely.bounds(np.asarray(shapes, dtype=object))
            if shapes
            else np.empty((0, 4), dtype=np.float64)
        )
        return cls(px, py, point_props, shapes, bounds, shape_props)

    @property
    def feature_count(self) -> int:
        """How many features the index holds."""
        return len(self.point_props) + len(self.shape_props)

    def tile(self, z: int, x: int, y: int, layer_name: str = "layer") -> bytes:
        """The features of tile z/x/y as an (uncompressed) Mapbox Vector Tile."""
        check_tile(z, x, y)
        scale = float(2**z) * EXTENT  # unit square -> this zoom's tile pixels
        pad = BUFFER / scale
        x0, y0 = x / 2**z, y / 2**z
        x1, y1 = (x + 1) / 2**z, (y + 1) / 2**z
        features: list[dict[str, Any]] = []

        inside = (
            (self.point_x >= x0 - pad)
            & (self.point_x < x1 + pad)
            & (self.point_y >= y0 - pad)
            & (self.point_y < y1 + pad)
        )
        picked = np.flatnonzero(inside)
        if picked.size:
            col = np.floor((self.point_x[picked] - x0) * scale).astype(np.int64)
            row = np.floor((self.point_y[picked] - y0) * scale).astype(np.int64)
            cells = (row + BUFFER) // POINT_CELL * EXTENT + (col + BUFFER) // POINT_CELL
            _, first = np.unique(cells, return_index=True)
            first.sort()
            first = first[:MAX_TILE_FEATURES]
            for i, c, r in zip(picked[first], col[first], row[first], strict=True):
                features.append(
                    {
                        "geometry": f"POINT ({int(c)} {int(r)})",
                        "properties": self.point_props[int(i)],
                    }
                )

        if len(self.shapes) and len(features) < MAX_TILE_FEATURES:
            b = self.shape_bounds
            hits = np.flatnonzero(
                (b[:, 2] >= x0 - pad)
                & (b[:, 0] <= x1 + pad)
                & (b[:, 3] >= y0 - pad)
                & (b[:, 1] <= y1 + pad)
            )
            for i in hits[: MAX_TILE_FEATURES - len(features)]:
                local = shapely.transform(
                    self.shapes[int(i)], lambda c, ox=x0, oy=y0: (c - (ox, oy)) * scale
                )
                clipped = shapely.clip_by_rect(
                    local, -BUFFER, -BUFFER, EXTENT + BUFFER, EXTENT + BUFFER
                )
                if clipped.is_empty:
                    continue
                features.append({"geometry": clipped, "properties": self.shape_props[int(i)]})

        layer = {"name": layer_name, "features": features}
        encoded: bytes = mapbox_vector_tile.encode(
            [layer], default_options={"extents": EXTENT, "y_coord_down": True}
        )
        return encoded


def _to_unit(coords: NDArray[np.float64]) -> NDArray[np.float64]:
    x, y = _mercator(coords[:, 0], coords[:, 1])
    return np.column_stack([x, y])


def raster_tile(
    path: Path | str, z: int, x: int, y: int, fmt: str = "png", tilesize: int = 256
) -> bytes | None:
    """Tile z/x/y of a COG as PNG or WebP, transparent where there is no data; None outside."""
    from rio_tiler.errors import TileOutsideBounds
    from rio_tiler.io import Reader

    check_tile(z, x, y)
    if fmt not in ("png", "webp"):
        raise ValueError(f"unsupported tile format {fmt!r}: png or webp")
    with Reader(str(path)) as cog:
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
