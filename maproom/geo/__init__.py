"""Geo conversions: pure functions from an uploaded file to a map layer file.

`convert(source, extension, workdir)` picks the format module registered for the extension
(docs/api-decisions.md) and returns a `Conversion`:

    extension                kind     converter               output in workdir
    geojson, json            geojson  geojson.convert         layer.geojson (FeatureCollection)
    csv                      table    tabular.convert_csv     layer.geojson
    xlsx, xls                table    tabular.convert_sheet   layer.geojson
    tif, tiff                raster   raster.convert          layer.tif (Cloud-Optimized GeoTIFF)
    txt, md, docx, doc, pdf  stored   stored.convert          none (layer_type None)

The GeoJSON outputs hold one feature per line (layout in `maproom.geo.base`). A file that cannot
become what its extension promises raises `GeoError`, whose `message` says what was looked for
or what is wrong, and leaves nothing in `workdir`; so does an unsupported extension. Outputs are
renamed into place only when complete, replacing a file of the same name. The functions block
(CPU and disk), so a server runs them in a thread pool. Nothing here imports the web layer, the
database or any other maproom package.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from maproom.geo import geojson, stored, tabular
from maproom.geo.base import TILES_NAME, UNLIMITED, Conversion, GeoError, Limits, TooLarge
from maproom.geo.geojson import kept_lines

__all__ = [
    "SUPPORTED",
    "TILES_NAME",
    "Conversion",
    "GeoError",
    "Kind",
    "Limits",
    "TooLarge",
    "convert",
    "kept_lines",
    "normalize_extension",
]

# GDAL's block cache defaults to 5% of the machine's memory, and a conversion fills it: more
# memory than the file it converts. Set before GDAL first reads a block; an operator's own
# GDAL_CACHEMAX wins.
os.environ.setdefault("GDAL_CACHEMAX", "16")

Kind = Literal["geojson", "table", "raster", "stored"]
Converter = Callable[[Path, Path, Limits], Conversion]


def _raster(source: Path, workdir: Path, limits: Limits) -> Conversion:
    """`raster.convert`, imported on first use: rasterio and rio-cogeo take ~0.4 s to import."""
    from maproom.geo import raster

    return raster.convert(source, workdir, limits)


_REGISTRY: dict[str, tuple[Kind, Converter]] = {
    "geojson": ("geojson", geojson.convert),
    "json": ("geojson", geojson.convert),
    "csv": ("table", tabular.convert_csv),
    "xlsx": ("table", tabular.convert_sheet),
    "xls": ("table", tabular.convert_sheet),
    "tif": ("raster", _raster),
    "tiff": ("raster", _raster),
    "txt": ("stored", stored.convert),
    "md": ("stored", stored.convert),
    "docx": ("stored", stored.convert),
    "doc": ("stored", stored.convert),
    "pdf": ("stored", stored.convert),
}

SUPPORTED: Mapping[str, Kind] = MappingProxyType(
    {extension: kind for extension, (kind, _) in _REGISTRY.items()}
)


def normalize_extension(extension: str) -> str:
    """`".GeoJSON"` -> `"geojson"`: lower case, without the leading dot."""
    return extension.strip().lstrip(".").lower()


def convert(source: Path, extension: str, workdir: Path, limits: Limits = UNLIMITED) -> Conversion:
    """Convert `source` as its extension says, writing any output into `workdir`; TooLarge
    (a GeoError) when the result would pass `limits`."""
    entry = _REGISTRY.get(normalize_extension(extension))
    if entry is None:
        allowed = ", ".join(f".{name}" for name in _REGISTRY)
        raise GeoError(f"unsupported file type {extension!r}; accepted: {allowed}")
    return entry[1](Path(source), Path(workdir), limits)
