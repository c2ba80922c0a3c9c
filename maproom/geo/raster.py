"""GeoTIFF (.tif, .tiff) to a Cloud-Optimized GeoTIFF, with rio-cogeo.

The source must be a GeoTIFF that GDAL reads, with a CRS and a geotransform that is not the
identity (GCP- or RPC-only files are refused too), else `GeoError`.

The output keeps the source CRS, grid and pixel values: no reprojection to web mercator, since
a web-optimized COG resamples onto a zoom-level grid (on the benchmark file below rio-cogeo's
"auto" zoom took 2.5 m pixels down to 4.8 m) and adds an alpha band, while tile servers reproject
COG reads on the fly. The output is DEFLATE compressed at level 1 with the horizontal predictor
(the floating-point one for float data), tiled 512x512 with pixel interleaving, with internal
overviews until the longer side fits one tile, resampled "average" ("nearest" for paletted
rasters, whose values are classes); GDAL compresses with every core. Level 1 rather than
GDAL's default 6: on the benchmark's 4096x4096 RGB GeoTIFF (2 cores) it halves the time (0.55 s
against 1.07 s) for an 8% larger file (27 against 25 MB); `gdal_translate -of COG` (LZW, one
thread by default) takes about 1.4 s and writes 32 MB.

`bbox` is the raster's footprint transformed to WGS84 (densified edges), clamped to the valid
longitude and latitude ranges.

Warnings raised for expected conditions (a non-georeferenced file before we refuse it, nodata
alongside a mask) and affine 3's pending deprecation of `*`, which rasterio 1.4 still uses, are
silenced locally with `warnings.catch_warnings`. That is process-wide state: concurrent threads
may briefly share the silenced filters, which is harmless for these three.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import numpy as np
import rasterio
from rasterio._err import CPLE_BaseError
from rasterio.enums import ColorInterp
from rasterio.errors import NotGeoreferencedWarning, RasterioError
from rasterio.io import DatasetReader
from rasterio.warp import transform_bounds
from rio_cogeo.cogeo import cog_translate
from rio_cogeo.errors import NodataAlphaMaskWarning

from maproom.geo.base import COG_NAME, Conversion, GeoError, Limits, partial_output

TILE_SIZE = 512
# rio-cogeo copies the source into a temporary GeoTIFF before writing the COG: in memory, by
# its default, for rasters under ~120 M pixels (the copy then costs as much memory as the raster
# has pixels); on disk, beside the output in the work folder, with False. With GDAL's block
# cache at 16 MB (`maproom.geo`), converting the benchmark's 48 MB GeoTIFF grows the process
# by ~80 MB instead of ~220 MB, in the same time.
IN_MEMORY = False
PROFILE: dict[str, Any] = {
    "driver": "GTiff",
    "interleave": "pixel",
    "tiled": True,
    "blockxsize": TILE_SIZE,
    "blockysize": TILE_SIZE,
    "compress": "DEFLATE",
    "zlevel": 1,
    "predictor": 2,
}
GDAL_CONFIG = {
    "GDAL_NUM_THREADS": "ALL_CPUS",
    "GDAL_TIFF_INTERNAL_MASK": True,
    "GDAL_PAM_ENABLED": "NO",
}


def convert(source: Path, workdir: Path, limits: Limits) -> Conversion:
    """Check that a GeoTIFF is georeferenced and within `limits` (its pixels uncompressed),
    and write it as a COG."""
    target = workdir / COG_NAME
    with _quiet(), rasterio.Env(**GDAL_CONFIG), _open(source) as src:
        _require_georeferenced(src)
        pixels = src.width * src.height * src.count * np.dtype(src.dtypes[0]).itemsize
        limits.check(0, pixels)
        bbox = _wgs84_bounds(src)
        with partial_output(target) as temp:
            try:
                cog_translate(
                    src,
                    temp,
                    _profile(src),
                    overview_level=_overview_levels(src),
                    overview_resampling=_overview_resampling(src),
                    config=GDAL_CONFIG,
                    quiet=True,
                    in_memory=IN_MEMORY,
                )
            except (RasterioError, CPLE_BaseError) as exc:  # GDAL errors, e.g. a truncated file
                raise GeoError(
                    "the GeoTIFF could not be converted: it is truncated or damaged", str(exc)
                ) from None
    return Conversion(
        layer_type="cog",
        output=target,
        feature_count=None,
        geometry_type=None,
        bbox=bbox,
        output_bytes=target.stat().st_size,
    )


@contextlib.contextmanager
def _open(source: Path) -> Iterator[DatasetReader]:
    """Open the source with GDAL, refusing what is not a readable GeoTIFF."""
    try:
        src = rasterio.open(source)
    except RasterioError as exc:
        raise GeoError(
            "not a readable GeoTIFF (damaged, truncated, or not a TIFF at all)",
            str(exc),
        ) from None
    with src:
        if src.driver != "GTiff":
            raise GeoError(f"not a GeoTIFF: the file is read as {src.driver} data")
        yield src


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence the warnings of expected conditions (see module doc)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotGeoreferencedWarning)
        warnings.simplefilter("ignore", NodataAlphaMaskWarning)
        # rasterio 1.4 multiplies transforms with `*`, which affine 3 marks as pending deprecation
        warnings.filterwarnings("ignore", "Use `@` matmul", PendingDeprecationWarning)
        yield


def _require_georeferenced(src: DatasetReader) -> None:
    """Raise GeoError unless the raster has a CRS and a real geotransform."""
    if src.crs is None and src.transform.is_identity:
        raise GeoError(
            "the TIFF is not georeferenced: looked for a coordinate reference system and a "
            "geotransform (GeoTIFF tags or a .tfw world file) and found neither"
        )
    if src.crs is None:
        raise GeoError("the TIFF is not georeferenced: it has a geotransform but no CRS")
    if src.transform.is_identity:
        raise GeoError("the TIFF is not georeferenced: it has a CRS but no geotransform")


def _wgs84_bounds(src: DatasetReader) -> tuple[float, float, float, float]:
    """The raster footprint in WGS84, clamped to valid longitudes and latitudes."""
    try:
        west, south, east, north = transform_bounds(
            src.crs, "EPSG:4326", *src.bounds, densify_pts=21
        )
    except (RasterioError, ValueError) as exc:
        raise GeoError(
            "the raster's coordinate reference system cannot be transformed to WGS84", str(exc)
        ) from None

    def clamp(value: float, limit: float) -> float:
        return max(-limit, min(limit, float(value)))

    return (clamp(west, 180), clamp(south, 90), clamp(east, 180), clamp(north, 90))


def _profile(src: DatasetReader) -> dict[str, Any]:
    """The output profile; floating-point data gets the floating-point predictor."""
    profile = dict(PROFILE)
    if src.dtypes[0].startswith("float"):
        profile["predictor"] = 3
    return profile


def _overview_levels(src: DatasetReader) -> int:
    """Halvings until the longer side fits one tile (rio-cogeo's default stops at the shorter)."""
    levels, size = 0, max(src.width, src.height)
    while size > TILE_SIZE:
        levels, size = levels + 1, (size + 1) // 2
    return levels


def _overview_resampling(src: DatasetReader) -> Literal["nearest", "average"]:
    """Average for imagery and continuous data; nearest for paletted (class) rasters."""
    if src.count == 1 and src.colorinterp[0] == ColorInterp.palette:
        return "nearest"
    return "average"
