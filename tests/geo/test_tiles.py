"""Vector tiles cut through a layer's tile index (`maproom.geo.tilestore`), raster tiles from
a COG (`maproom.geo.tiles`)."""

from __future__ import annotations

import io
import math
import tempfile
from pathlib import Path

import mapbox_vector_tile
import numpy as np
import orjson
import pytest
import rasterio
from affine import Affine
from PIL import Image

from maproom import geo
from maproom.geo import tiles, tilestore
from tests.geo.support import Write

EXTENT = tilestore.EXTENT
BUFFER = tilestore.BUFFER


def store(conversion: geo.Conversion) -> tilestore.TileStore:
    """A tile store over a conversion's GeoJSON: its records read back, its index built."""
    assert conversion.output is not None
    index = conversion.output.with_name("layer.tiles")
    with tempfile.TemporaryDirectory() as scratch:
        records, count = tilestore.records_of(conversion.output, Path(scratch))
        tilestore.build(records, count, index)
    return tilestore.TileStore(index, conversion.output)


def pixel_of(lng: float, lat: float, z: int) -> tuple[int, int, float, float]:
    """Tile x, y and the position inside it in tile units (y down) of a point at zoom z."""
    n = 2**z
    wx = (lng + 180) / 360 * n
    wy = (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n
    x, y = int(wx), int(wy)
    return x, y, (wx - x) * EXTENT, (wy - y) * EXTENT


def decoded(tile: bytes) -> list[dict]:
    """Features of the tile's layer, with y pointing down like the tile grid."""
    layers = mapbox_vector_tile.decode(tile, default_options={"y_coord_down": True})
    return list(layers.get("layer", {}).get("features", []))


@pytest.fixture(scope="module")
def many_points(tmp_path_factory: pytest.TempPathFactory) -> tuple[geo.Conversion, np.ndarray]:
    """A 200,000-point CSV (with a marker at Paris as row 0) converted into a layer."""
    folder = tmp_path_factory.mktemp("many")
    rng = np.random.default_rng(7)
    lats = rng.uniform(-60, 70, 200_000)
    lons = rng.uniform(-180, 180, 200_000)
    lats[0], lons[0] = 48.8566, 2.3522
    rows = "\n".join(
        f"{i},{a:.6f},{b:.6f},{i % 5}" for i, (a, b) in enumerate(zip(lats, lons, strict=True))
    )
    source = folder / "points.csv"
    source.write_text("id,lat,lon,kind\n" + rows + "\n")
    work = folder / "work"
    work.mkdir()
    return geo.convert(source, "csv", work), np.column_stack([lons, lats])


def test_a_200k_point_layer_is_streaming_and_its_tiles_are_right(
    many_points: tuple[geo.Conversion, np.ndarray],
) -> None:
    conversion, coords = many_points
    assert conversion.feature_count == 200_000
    assert tiles.is_streaming(conversion.feature_count or 0, conversion.output_bytes or 0)
    index = store(conversion)
    assert index.feature_count == 200_000

    x, y, px, py = pixel_of(2.3522, 48.8566, 12)
    features = decoded(index.tile(12, x, y))
    paris = [f for f in features if f["properties"]["id"] == 0]
    assert len(paris) == 1
    gx, gy = paris[0]["geometry"]["coordinates"]
    assert abs(gx - px) <= 1.5 and abs(gy - py) <= 1.5
    assert paris[0]["properties"]["kind"] == 0
    # Every point of the tile is really inside it (or in its 64-unit buffer), none elsewhere.
    n = 2**12
    lng0, lng1 = x / n * 360 - 180, (x + 1) / n * 360 - 180
    inside = (coords[:, 0] >= lng0) & (coords[:, 0] < lng1)
    expected = {i for i in np.flatnonzero(inside) if pixel_of(*coords[i], 12)[:2] == (x, y)}
    got = {f["properties"]["id"] for f in features}
    assert expected <= got
    for f in features:
        fx, fy = f["geometry"]["coordinates"]
        assert -BUFFER <= fx <= EXTENT + BUFFER
        assert -BUFFER <= fy <= EXTENT + BUFFER


def test_low_zoom_tiles_are_thinned_evenly_across_the_layer(
    many_points: tuple[geo.Conversion, np.ndarray],
) -> None:
    """A zoom-0 tile of 200,000 points holds a few thousand, one per 8-pixel cell wherever
    the layer has points, picked throughout the file (not its first rows)."""
    conversion, coords = many_points
    index = store(conversion)
    world = decoded(index.tile(0, 0, 0))
    assert 2_000 < len(world) <= 5_500
    cell = EXTENT // 64
    shown = {(int(f["geometry"]["coordinates"][0]) // cell,
              int(f["geometry"]["coordinates"][1]) // cell) for f in world}  # fmt: skip
    held = set()
    for lng, lat in coords:
        _, _, px, py = pixel_of(lng, lat, 0)
        held.add((int(px) // cell, int(py) // cell))
    assert len(shown & held) >= 0.99 * len(held)  # every occupied cell has its point
    ids = np.array([f["properties"]["id"] for f in world])
    assert 80_000 < np.median(ids) < 120_000  # drawn from the whole file
    # Deeper zooms add points where they are dense: a zoom-4 tile shows more of its own.
    x, y, _, _ = pixel_of(2.3522, 48.8566, 4)
    assert len(decoded(index.tile(4, x, y))) > len(world) / 16


def test_points_outside_a_tile_are_absent(write_layer: geo.Conversion) -> None:
    index = store(write_layer)
    x, y, _, _ = pixel_of(2.35, 48.86, 8)
    names = {f["properties"]["name"] for f in decoded(index.tile(8, x, y))}
    assert "Paris" in names and "Lisbon" not in names
    empty = decoded(index.tile(8, 0, 0))
    assert empty == []


def test_lines_and_polygons_are_clipped_into_their_tiles(write_layer: geo.Conversion) -> None:
    index = store(write_layer)
    # The square spans 0..10 E, 0..10 N: at zoom 2 it lies in tile 2/2/1 only.
    square = [f for f in decoded(index.tile(2, 2, 1)) if f["properties"].get("name") == "square"]
    assert len(square) == 1 and square[0]["geometry"]["type"] == "Polygon"
    xs = [c[0] for c in square[0]["geometry"]["coordinates"][0]]
    assert min(xs) == 0 and abs(max(xs) - 10 / 90 * EXTENT) <= 1
    # At zoom 8 it covers many tiles: one in its middle is clipped to the buffered tile.
    x, y, _, _ = pixel_of(5, 5, 8)
    inner = [f for f in decoded(index.tile(8, x, y)) if f["properties"].get("name") == "square"]
    ring = inner[0]["geometry"]["coordinates"][0]
    assert {min(c[0] for c in ring), max(c[0] for c in ring)} == {
        -BUFFER,
        EXTENT + BUFFER,
    }
    line = [f for f in decoded(index.tile(0, 0, 0)) if f["properties"].get("name") == "road"]
    assert line and line[0]["geometry"]["type"] == "LineString"
    assert line[0]["properties"]["tags"] == '["a","b"]'


@pytest.fixture
def write_layer(source: Write, workdir: Path) -> geo.Conversion:
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [2.35, 48.86]},
            "properties": {"name": "Paris"},
        },
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [-9.14, 38.72]},
            "properties": {"name": "Lisbon", "none": None},
        },
        {
            "type": "Feature",
            "geometry": {
                "type": "Polygon",
                "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]],
            },
            "properties": {"name": "square"},
        },
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": [[-100, 40], [-80, 30]]},
            "properties": {"name": "road", "tags": ["a", "b"]},
        },
    ]
    path = source(
        "mixed.geojson", orjson.dumps({"type": "FeatureCollection", "features": features})
    )
    return geo.convert(path, "geojson", workdir)


@pytest.mark.parametrize(
    ("z", "x", "y"), [(-1, 0, 0), (25, 0, 0), (1, 2, 0), (1, 0, 2), (0, -1, 0)]
)
def test_tiles_outside_the_grid_are_refused(
    write_layer: geo.Conversion, z: int, x: int, y: int
) -> None:
    with pytest.raises(ValueError):
        store(write_layer).tile(z, x, y)


def test_streaming_thresholds() -> None:
    assert not tiles.is_streaming(50_000, 20 * 1024 * 1024)
    assert tiles.is_streaming(50_001, 10)
    assert tiles.is_streaming(10, 20 * 1024 * 1024 + 1)


def write_tiff(path: Path, data: np.ndarray, nodata: float | None = None) -> Path:
    """A GeoTIFF over 0..20 E, 40..60 N in EPSG:4326."""
    count, height, width = data.shape
    profile = {
        "driver": "GTiff",
        "width": width,
        "height": height,
        "count": count,
        "dtype": data.dtype.name,
        "crs": "EPSG:4326",
        "transform": Affine(20 / width, 0, 0, 0, -20 / height, 60),
        "nodata": nodata,
    }
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(data)
    return path


@pytest.fixture
def rgb_cog(source: Write, workdir: Path) -> Path:
    data = np.random.default_rng(3).integers(0, 255, (3, 512, 512), dtype="uint8")
    tif = write_tiff(source("rgb.tif", b"").parent / "rgb.tif", data)
    return geo.convert(tif, "tif", workdir).output


@pytest.mark.parametrize(
    ("fmt", "kind", "size"), [("png", "PNG", 256), ("webp", "WEBP", 256), ("png", "PNG", 512)]
)
def test_raster_tiles_decode_to_images_of_the_asked_size(
    rgb_cog: Path, fmt: str, kind: str, size: int
) -> None:
    x, y, _, _ = pixel_of(10, 50, 5)
    tile = tiles.raster_tile(rgb_cog, 5, x, y, fmt=fmt, tilesize=size)
    assert tile is not None
    image = Image.open(io.BytesIO(tile))
    assert (image.format, image.size) == (kind, (size, size))


def test_raster_tiles_outside_the_image_are_none(rgb_cog: Path) -> None:
    x, y, _, _ = pixel_of(-120, -30, 5)
    assert tiles.raster_tile(rgb_cog, 5, x, y) is None
    with pytest.raises(ValueError):
        tiles.raster_tile(rgb_cog, 5, 0, 0, fmt="gif")


def test_single_band_data_is_stretched_and_nodata_is_transparent(
    source: Write, workdir: Path
) -> None:
    data = np.linspace(1000, 5000, 256 * 256, dtype="float32").reshape(1, 256, 256)
    data[0, :, :128] = -9999
    tif = write_tiff(source("dem.tif", b"").parent / "dem.tif", data, nodata=-9999)
    cog = geo.convert(tif, "tif", workdir).output
    tile = tiles.raster_tile(cog, 0, 0, 0)
    assert tile is not None
    image = np.asarray(Image.open(io.BytesIO(tile)).convert("LA"))
    _, _, px, py = pixel_of(15, 50, 0)  # the valid (eastern) half
    grey, alpha = image[int(py / EXTENT * 256), int(px / EXTENT * 256)]
    assert alpha == 255 and 0 < grey <= 255
    _, _, qx, qy = pixel_of(5, 50, 0)  # the nodata (western) half
    assert image[int(qy / EXTENT * 256), int(qx / EXTENT * 256)][1] == 0
