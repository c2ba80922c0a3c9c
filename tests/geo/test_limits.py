"""Conversion limits (api-decisions.md): a layer past them stops the conversion, nothing kept."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from maproom import geo
from tests import makers


def points(n: int) -> bytes:
    features = [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [i % 180, 0]},
         "properties": {"i": i}}
        for i in range(n)
    ]  # fmt: skip
    return orjson.dumps({"type": "FeatureCollection", "features": features})


@pytest.mark.parametrize(
    ("extension", "content"),
    [
        ("geojson", points(101)),
        ("csv", b"lat,lon\n" + b"1,2\n" * 101),
    ],
)
def test_more_features_than_allowed_stop_the_conversion(
    tmp_path: Path, extension: str, content: bytes
) -> None:
    source = tmp_path / f"in.{extension}"
    source.write_bytes(content)
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(geo.TooLarge, match="more than 100 features"):
        geo.convert(source, extension, work, geo.Limits(max_features=100))
    assert list(work.iterdir()) == []
    done = geo.convert(source, extension, work, geo.Limits(max_features=101))
    assert done.feature_count == 101


def test_more_bytes_than_allowed_stop_the_conversion(tmp_path: Path) -> None:
    source = tmp_path / "in.geojson"
    source.write_bytes(points(5000))
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(geo.TooLarge, match="more than 0 MB"):
        geo.convert(source, "geojson", work, geo.Limits(max_bytes=100_000))
    assert list(work.iterdir()) == []


def test_a_raster_is_measured_by_its_pixels(tmp_path: Path) -> None:
    source = tmp_path / "in.tif"
    source.write_bytes(makers.geotiff(tmp_path / "made.tif", size=256))
    work = tmp_path / "work"
    work.mkdir()
    pixels = 256 * 256 * 3
    with pytest.raises(geo.TooLarge):
        geo.convert(source, "tif", work, geo.Limits(max_bytes=pixels - 1))
    assert list(work.iterdir()) == []
    assert geo.convert(source, "tif", work, geo.Limits(max_bytes=pixels)).layer_type == "cog"


def test_a_feature_collection_is_read_as_a_stream(tmp_path: Path) -> None:
    """`type` after `features`, a BOM, and an error deep in the stream, named by its path."""
    body = points(3).decode()
    reordered = (
        '{"features": ' + body.split('"features":', 1)[1][:-1] + ', "type": "FeatureCollection"}'
    )
    source = tmp_path / "in.geojson"
    source.write_bytes(b"\xef\xbb\xbf" + reordered.encode())
    work = tmp_path / "work"
    work.mkdir()
    assert geo.convert(source, "geojson", work).feature_count == 3
    broken = orjson.loads(body)
    broken["features"][2]["geometry"]["coordinates"] = [10, 95]
    source.write_bytes(orjson.dumps(broken))
    with pytest.raises(geo.GeoError, match=r"features\[2\]\.geometry\.coordinates"):
        geo.convert(source, "geojson", tmp_path / "work")
    source.write_bytes(body[:-30].encode())
    with pytest.raises(geo.GeoError, match="not valid JSON"):
        geo.convert(source, "geojson", tmp_path / "work")
    source.write_bytes(reordered.replace("FeatureCollection", "Feature").encode())
    with pytest.raises(geo.GeoError, match="expected 'FeatureCollection'"):
        geo.convert(source, "geojson", tmp_path / "work")
