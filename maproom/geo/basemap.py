"""maproom's own basemap (`offline`): land and country borders as vector tiles, from the
Natural Earth 1:10m countries that maproom ships (`maproom.geo.countries`), no internet needed.

Tiles hold one layer, `countries` (polygons with `name` and `code`); the page draws water as
the background, the polygons as land and their outlines as borders. Outlines are simplified
per zoom band to about half a pixel of the band's deepest zoom, so a tile stays small at every
zoom and keeps the full 1:10m detail from zoom 9 on. Why vector tiles rather than one GeoJSON
per zoom band: a GeoJSON source is downloaded whole when the style loads (2.9 MB for the world
at full detail), while a tile carries only what its view shows (docs/live-page.md, "What
the offline basemap holds").
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import numpy as np
import shapely

from maproom.geo import mvt
from maproom.geo.countries import all_countries
from maproom.geo.tiles import check_tile
from maproom.geo.tilestore import EXTENT, in_tile, to_unit_square

LAYER = "countries"
# (deepest zoom of the band, simplified for it); the last band is the data as shipped.
BANDS = (2, 5, 8)
TILE_PIXELS = 512


_building = threading.Lock()  # a cold page asks for ten tiles at once: build each band once


def _band(deepest: int | None) -> tuple[shapely.STRtree, list[Any], list[dict[str, str]]]:
    """Every country in unit coordinates, simplified for zooms up to `deepest` (None: as
    shipped), with a tree to find those a tile meets."""
    with _building:
        return _built_band(deepest)


@functools.cache
def _built_band(deepest: int | None) -> tuple[shapely.STRtree, list[Any], list[dict[str, str]]]:
    shapes, props = [], []
    for unit, prop in _unit_countries():
        if deepest is not None:
            unit = shapely.simplify(unit, 0.5 / (2**deepest * TILE_PIXELS), preserve_topology=True)
        if not unit.is_empty:
            shapes.append(unit)
            props.append(prop)
    return shapely.STRtree(shapes), shapes, props


@functools.cache
def _unit_countries() -> list[tuple[Any, dict[str, str]]]:
    """Every country of the archive in unit coordinates, made valid (read and projected once
    for all bands)."""
    found = []
    for code, name, geometry in all_countries():
        unit = shapely.transform(geometry, lambda c: to_unit_square(c[:, 0], c[:, 1]))
        if not unit.is_valid:  # Antarctica's ring runs to the pole, beyond Web Mercator's edge
            unit = _polygonal(shapely.make_valid(unit))
        found.append((unit, {"name": name, "code": code}))
    return found


def _polygonal(geometry: Any) -> Any:
    """The polygons of a geometry (a collection may also hold lines and points)."""
    parts = [p for p in shapely.get_parts(geometry) if p.geom_type in ("Polygon", "MultiPolygon")]
    return shapely.union_all(parts) if parts else shapely.Polygon()


def _for_zoom(z: int) -> tuple[shapely.STRtree, list[Any], list[dict[str, str]]]:
    return _band(next((deepest for deepest in BANDS if z <= deepest), None))


@functools.lru_cache(maxsize=256)
def tile(z: int, x: int, y: int) -> bytes:
    """Basemap tile z/x/y as an (uncompressed) Mapbox Vector Tile; ValueError if no tile."""
    check_tile(z, x, y)
    tree, shapes, props = _for_zoom(z)
    size = 1.0 / 2**z
    pad = size / 8
    box = shapely.box(x * size - pad, y * size - pad, (x + 1) * size + pad, (y + 1) * size + pad)
    layer = mvt.Layer(LAYER, EXTENT)
    for i in np.sort(tree.query(box)):
        local = in_tile(shapes[i], x * size, y * size, float(2**z) * EXTENT)
        if local is not None and local.geom_type == "GeometryCollection":
            local = _polygonal(local)  # a clip can leave edges and points beside polygons
        if local is not None and not local.is_empty:
            # half a screen pixel (tile units: EXTENT / 512 per pixel), whatever the band
            local = shapely.simplify(local, EXTENT / TILE_PIXELS / 2, preserve_topology=True)
            layer.add_shape(local, props[i])
    return mvt.encode([layer])
