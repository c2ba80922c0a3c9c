"""GeoTIFF uploads: georeferenced rasters become valid COGs; the rest is refused."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import rasterio
from affine import Affine
from rasterio.errors import NotGeoreferencedWarning
from rio_cogeo.cogeo import cog_validate

from maproom.geo import convert
from tests.geo.support import rejects


def geotiff(path: Path, data: np.ndarray[Any, Any], **profile: Any) -> Path:
    """Write `data` (bands, rows, cols) as an untiled GeoTIFF with the given profile."""
    count, height, width = data.shape
    options = {"driver": "GTiff", "count": count, "height": height, "width": width}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotGeoreferencedWarning)
        with rasterio.open(path, "w", dtype=data.dtype, **options, **profile) as dst:
            dst.write(data)
    return path


def from_origin(west: float, north: float, xsize: float, ysize: float) -> Affine:
    """A north-up transform (rasterio's own helper trips affine 3's deprecation warning)."""
    return Affine(xsize, 0, west, 0, -ysize, north)


def gradient(count: int, height: int, width: int, dtype: str = "uint8") -> np.ndarray[Any, Any]:
    rows, cols = np.mgrid[0:height, 0:width]
    band = ((rows + cols) % 256).astype(dtype)
    return np.stack([band] * count)


def assert_valid_cog(path: Path) -> None:
    valid, errors, _ = cog_validate(path, strict=True, quiet=True)
    assert valid, errors


def test_georeferenced_raster_becomes_a_cog_with_overviews(tmp_path: Path, workdir: Path) -> None:
    mercator = from_origin(1_000_000, 6_000_000, 10, 10)
    path = geotiff(
        tmp_path / "in.tif", gradient(1, 1100, 1200), crs="EPSG:3857", transform=mercator
    )

    result = convert(path, "tif", workdir)

    assert (result.layer_type, result.feature_count, result.geometry_type) == ("cog", None, None)
    assert result.output == workdir / "layer.tif"
    assert result.output_bytes == result.output.stat().st_size
    assert_valid_cog(result.output)
    with rasterio.open(result.output) as cog:
        assert cog.crs.to_epsg() == 3857
        assert cog.block_shapes == [(512, 512)]
        assert cog.overviews(1) == [2, 4]
        assert cog.compression is not None and cog.compression.name == "deflate"
        assert np.array_equal(cog.read(), gradient(1, 1100, 1200))
    radius = 6_378_137

    def latitude(y: float) -> float:
        return math.degrees(2 * math.atan(math.exp(y / radius)) - math.pi / 2)

    assert result.bbox == pytest.approx(
        (
            math.degrees(1_000_000 / radius),
            latitude(6_000_000 - 11_000),
            math.degrees(1_012_000 / radius),
            latitude(6_000_000),
        )
    )


def test_rgb_in_wgs84_keeps_its_bounds(tmp_path: Path, workdir: Path) -> None:
    transform = from_origin(-10.0, 60.0, 0.05, 0.05)
    data = gradient(3, 400, 600)
    path = geotiff(
        tmp_path / "rgb.tiff", data, crs="EPSG:4326", transform=transform, photometric="RGB"
    )

    result = convert(path, "tiff", workdir)

    assert result.bbox == pytest.approx((-10.0, 40.0, 20.0, 60.0))
    assert result.output is not None
    assert_valid_cog(result.output)
    with rasterio.open(result.output) as cog:
        assert cog.count == 3
        assert cog.overviews(1) == [2]
        assert np.array_equal(cog.read(), data)


def test_float_raster_with_nodata(tmp_path: Path, workdir: Path) -> None:
    data = gradient(1, 300, 300, "float32") / 7
    data[0, :10, :10] = -9999
    utm = from_origin(500_000, 5_800_000, 30, 30)
    path = geotiff(tmp_path / "dem.tif", data, crs="EPSG:32633", transform=utm, nodata=-9999)

    result = convert(path, "tif", workdir)

    assert result.output is not None
    assert_valid_cog(result.output)
    with rasterio.open(result.output) as cog:
        assert cog.nodata == -9999
        assert np.allclose(cog.read(), data)


def test_paletted_raster(tmp_path: Path, workdir: Path) -> None:
    path = tmp_path / "classes.tif"
    transform = from_origin(0, 10, 0.01, 0.01)
    geotiff(path, gradient(1, 700, 700) % 3, crs="EPSG:4326", transform=transform)
    with rasterio.open(path, "r+") as dst:
        dst.write_colormap(1, {0: (255, 0, 0, 255), 1: (0, 255, 0, 255), 2: (0, 0, 255, 255)})

    result = convert(path, "tif", workdir)

    assert result.output is not None
    assert_valid_cog(result.output)
    with rasterio.open(result.output) as cog:
        assert cog.colormap(1)[2] == (0, 0, 255, 255)
        assert set(np.unique(cog.read(1, out_shape=(350, 350)))) <= {0, 1, 2}


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ({}, "not georeferenced: looked for a coordinate reference system and a geotransform"),
        ({"crs": "EPSG:4326"}, "it has a CRS but no geotransform"),
        ({"transform": Affine(2, 0, 100, 0, -2, 200)}, "it has a geotransform but no CRS"),
    ],
    ids=["nothing", "crs only", "transform only"],
)
def test_rasters_without_georeferencing_are_refused(
    tmp_path: Path, workdir: Path, profile: dict[str, Any], expected: str
) -> None:
    path = geotiff(tmp_path / "plain.tif", gradient(1, 64, 64), **profile)

    assert expected in rejects(path, "tif", workdir)


def test_not_a_tiff(tmp_path: Path, workdir: Path) -> None:
    path = tmp_path / "fake.tif"
    path.write_bytes(b"II*\x00 but nothing after the magic number")

    assert "not a readable GeoTIFF" in rejects(path, "tif", workdir)


def test_another_raster_format_named_tif(tmp_path: Path, workdir: Path) -> None:
    path = tmp_path / "picture.tif"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotGeoreferencedWarning)
        with rasterio.open(path, "w", driver="PNG", width=8, height=8, count=1, dtype="uint8") as d:
            d.write(gradient(1, 8, 8))

    assert "not a GeoTIFF: the file is read as PNG data" in rejects(path, "tif", workdir)


def test_truncated_geotiff(tmp_path: Path, workdir: Path) -> None:
    transform = from_origin(0, 10, 0.01, 0.01)
    path = geotiff(
        tmp_path / "cut.tif", gradient(3, 600, 600), crs="EPSG:4326", transform=transform
    )
    path.write_bytes(path.read_bytes()[:200_000])

    assert "could not be converted" in rejects(path, "tif", workdir)
