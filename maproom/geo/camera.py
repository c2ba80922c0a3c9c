"""Camera maths in Web Mercator: what a viewer of a given size sees. Pure functions.

Positions are `(lng, lat)` in degrees; `x, y` are Web Mercator coordinates scaled to the unit
square (`x` east from -180, `y` south from the top edge at ~85.05 N). A zoom level `z` shows the
world as `tile * 2**z` pixels wide, so the default viewer (1024x768 pixels, 512-pixel tiles, as
MapLibre draws vector tiles) sees the whole world at zoom 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from maproom.limits import MAX_ZOOM as LIMIT_ZOOM

VIEW_WIDTH, VIEW_HEIGHT, TILE = 1024, 768, 512
MAX_ZOOM = float(LIMIT_ZOOM)
MERCATOR_LAT = 85.0511287798066
POINT_ZOOM = 16.0  # fitting a box of no size (one point) zooms this close
EARTH_CIRCUMFERENCE = 40_075_016.686  # metres at the equator (WGS 84)


@dataclass(frozen=True, slots=True)
class Padding:
    """Pixels kept free at each edge of the viewer when fitting a box."""

    top: float = 0
    right: float = 0
    bottom: float = 0
    left: float = 0

    @classmethod
    def even(cls, pixels: float) -> Padding:
        """The same padding on every side."""
        return cls(pixels, pixels, pixels, pixels)


def mercator(lng: float, lat: float) -> tuple[float, float]:
    """`(lng, lat)` as unit-square Web Mercator `(x, y)`; latitudes clamp to the projection."""
    lat = max(-MERCATOR_LAT, min(MERCATOR_LAT, lat))
    x = (lng + 180) / 360
    y = 0.5 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / (2 * math.pi)
    return x, y


def unmercator(x: float, y: float) -> tuple[float, float]:
    """Unit-square Web Mercator `(x, y)` as `(lng, lat)`."""
    lng = x * 360 - 180
    lat = math.degrees(2 * math.atan(math.exp((0.5 - y) * 2 * math.pi)) - math.pi / 2)
    return lng, lat


def clamp_zoom(zoom: float) -> float:
    """A zoom level within 0..MAX_ZOOM."""
    return max(0.0, min(MAX_ZOOM, zoom))


def fit(
    bbox: tuple[float, float, float, float] | list[float], padding: Padding = Padding()
) -> tuple[list[float], float]:
    """Center and zoom that show `bbox` (`[minLng, minLat, maxLng, maxLat]`) in the default
    viewer minus `padding`; a box of no size gets `POINT_ZOOM`."""
    x1, y1 = mercator(bbox[0], bbox[3])
    x2, y2 = mercator(bbox[2], bbox[1])
    width = max(1.0, VIEW_WIDTH - padding.left - padding.right)
    height = max(1.0, VIEW_HEIGHT - padding.top - padding.bottom)
    spans = ((x2 - x1) * TILE, (y2 - y1) * TILE)
    scale = min(
        width / spans[0] if spans[0] > 0 else math.inf,
        height / spans[1] if spans[1] > 0 else math.inf,
    )
    zoom = POINT_ZOOM if math.isinf(scale) else clamp_zoom(math.log2(scale))
    lng, lat = unmercator((x1 + x2) / 2, (y1 + y2) / 2)
    return [round(lng, 7), round(lat, 7)], round(zoom, 4)


def fit_around(
    center: list[float],
    bbox: tuple[float, float, float, float] | list[float],
    padding: Padding = Padding(),
    *,
    give: float = 1.0,
) -> float:
    """The zoom that shows `bbox` in the default viewer around `center` (a point inside it,
    such as a country's label point rather than its box's middle), but at most `give` levels
    below the zoom that fits the box itself: a far-off corner may then be cut."""
    cx, cy = mercator(center[0], center[1])
    x1, y1 = mercator(bbox[0], bbox[3])
    x2, y2 = mercator(bbox[2], bbox[1])
    half_width = max(1.0, VIEW_WIDTH - padding.left - padding.right) / 2
    half_height = max(1.0, VIEW_HEIGHT - padding.top - padding.bottom) / 2
    reach = (max(cx - x1, x2 - cx) * TILE, max(cy - y1, y2 - cy) * TILE)
    scale = min(
        half_width / reach[0] if reach[0] > 0 else math.inf,
        half_height / reach[1] if reach[1] > 0 else math.inf,
    )
    needed = POINT_ZOOM if math.isinf(scale) else clamp_zoom(math.log2(scale))
    return round(max(needed, fit(bbox, padding)[1] - give), 4)


def metres_per_pixel(lat: float, zoom: float) -> float:
    """Ground metres one pixel covers at a latitude and zoom (512-pixel world at zoom 0)."""
    return EARTH_CIRCUMFERENCE * math.cos(math.radians(lat)) / (TILE * 2**zoom)


def pan(center: list[float], zoom: float, dx: float, dy: float) -> list[float]:
    """The center after moving the view `dx` pixels east and `dy` pixels south at `zoom`;
    longitude wraps around the world, latitude stops at the projection's edge."""
    world = TILE * 2**zoom
    x, y = mercator(center[0], center[1])
    x = (x + dx / world) % 1.0
    y = max(0.0, min(1.0, y + dy / world))
    lng, lat = unmercator(x, y)
    return [round(lng, 7), round(lat, 7)]
