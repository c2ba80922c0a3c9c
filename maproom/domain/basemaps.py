"""The basemaps a project's compiled style is drawn on (docs/open-formats.md).

    blank       a plain background
    offline     maproom's own: land, water and borders from the Natural Earth data it ships,
                served at /basemap/offline/{z}/{x}/{y}.pbf (no internet needed)
    satellite   Esri World Imagery's raster tiles
    light, streets, dark, or an http(s) URL
                a networked MapLibre style, fetched by the server (the host checked as every
                fetch is, the answer bounded) and kept for an hour

A networked style that cannot be fetched gives way to the offline basemap for a minute before
the next try; the compiled style's `metadata["maproom:basemap"]` says so (`fallback: true`) and
the map page tells its viewer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import orjson

from maproom.errors import MaproomError

BACKGROUND = "#eef1f4"
OFFLINE_COLORS = {"water": "#a9cfe0", "land": "#f4f1ea", "boundaries": "#9a97a8"}
NETWORKED = {
    "light": "https://tiles.openfreemap.org/styles/positron",
    "streets": "https://tiles.openfreemap.org/styles/liberty",
    "dark": "https://tiles.openfreemap.org/styles/dark",
}
SATELLITE_TILES = (
    "https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}"
)
KEEP_S = 3600.0
RETRY_S = 60.0

Fetch = Callable[[str], bytes]
"""Reads a networked style's bytes (`adapters.remote.fetcher`); raises MaproomError."""


def blank() -> dict[str, Any]:
    return {
        "version": 8,
        "sources": {},
        "layers": [{"id": "background", "type": "background",
                    "paint": {"background-color": BACKGROUND}}],
    }  # fmt: skip


def offline(origin: str) -> dict[str, Any]:
    """maproom's own basemap, its tiles under `origin`."""
    source = "maproom-basemap"
    common = {"source": source, "source-layer": "countries"}
    width = ["interpolate", ["linear"], ["zoom"], 1, 0.5, 8, 1.5]
    return {
        "version": 8,
        "sources": {
            source: {
                "type": "vector",
                "tiles": [f"{origin}/basemap/offline/{{z}}/{{x}}/{{y}}.pbf"],
                "minzoom": 0,
                "maxzoom": 10,
                "attribution": "Natural Earth (offline basemap by maproom)",
            }
        },
        "layers": [
            {"id": "water", "type": "background",
             "paint": {"background-color": OFFLINE_COLORS["water"]}},
            {"id": "land", "type": "fill", **common,
             "paint": {"fill-color": OFFLINE_COLORS["land"]}},
            {"id": "boundaries", "type": "line", **common,
             "paint": {"line-color": OFFLINE_COLORS["boundaries"], "line-width": width}},
        ],
    }  # fmt: skip


def satellite() -> dict[str, Any]:
    return {
        "version": 8,
        "sources": {"esri": {"type": "raster", "tileSize": 256, "tiles": [SATELLITE_TILES],
                             "attribution": "Esri World Imagery"}},
        "layers": [{"id": "satellite", "type": "raster", "source": "esri"}],
    }  # fmt: skip


def _checked(raw: bytes) -> dict[str, Any]:
    """A fetched document if it is a MapLibre style (ValueError otherwise)."""
    style = orjson.loads(raw)
    if not isinstance(style, dict) or style.get("version") != 8:
        raise ValueError("not a MapLibre style (version 8)")
    if not isinstance(style.get("sources"), dict) or not isinstance(style.get("layers"), list):
        raise ValueError("a MapLibre style needs sources and layers")
    return style


class Basemaps:
    """The basemap styles, networked ones fetched through `fetch` and kept (module docstring)."""

    def __init__(self, fetch: Fetch, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.fetch = fetch
        self.clock = clock
        self._kept: dict[str, tuple[float, dict[str, Any] | None]] = {}
        self._lock = threading.Lock()

    def style(self, basemap: dict[str, Any] | None, origin: str) -> dict[str, Any]:
        """The MapLibre style of a map state's basemap, its `metadata["maproom:basemap"]` set."""
        wanted = str((basemap or {}).get("style") or "blank")
        found: dict[str, Any] | None
        if wanted == "blank":
            found = blank()
        elif wanted == "offline":
            found = offline(origin)
        elif wanted == "satellite":
            found = satellite()
        else:
            found = self._networked(NETWORKED.get(wanted, wanted))
        fallback = found is None
        style = offline(origin) if found is None else found
        style["metadata"] = {"maproom:basemap": {"style": wanted, "fallback": fallback}}
        return style

    def _networked(self, url: str) -> dict[str, Any] | None:
        now = self.clock()
        with self._lock:
            kept = self._kept.get(url)
        if kept is not None and kept[0] > now:
            return orjson.loads(orjson.dumps(kept[1])) if kept[1] is not None else None
        try:
            style: dict[str, Any] | None = _checked(self.fetch(url))
        except (MaproomError, ValueError, orjson.JSONDecodeError):
            style = None
        with self._lock:
            self._kept[url] = (now + (KEEP_S if style is not None else RETRY_S), style)
        return orjson.loads(orjson.dumps(style)) if style is not None else None
