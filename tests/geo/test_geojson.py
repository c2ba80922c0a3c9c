"""GeoJSON uploads: accepted shapes, summaries, and every kind of rejection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from maproom.geo import convert
from tests.geo.support import Write, read_layer, rejects


def feature(geometry: Any, **properties: Any) -> dict[str, Any]:
    return {"type": "Feature", "geometry": geometry, "properties": properties}


def collection(*features: Any) -> bytes:
    return orjson.dumps({"type": "FeatureCollection", "features": list(features)})


POINT = {"type": "Point", "coordinates": [13.4, 52.5]}
LINE = {"type": "LineString", "coordinates": [[0, 0], [10, 5.5]]}
SQUARE = {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]}


def test_feature_collection_is_rewritten_one_feature_per_line(source: Write, workdir: Path) -> None:
    path = source("places.geojson", collection(feature(POINT, name="Berlin"), feature(LINE)))

    result = convert(path, "geojson", workdir)

    assert result.layer_type == "geojson"
    assert result.output == workdir / "layer.geojson"
    assert result.feature_count == 2
    assert result.geometry_type == "mixed"
    assert result.bbox == (0.0, 0.0, 13.4, 52.5)
    assert result.skipped_rows == 0
    features = read_layer(result)
    assert features[0] == feature(POINT, name="Berlin")
    assert features[1]["geometry"] == LINE


def test_single_feature_becomes_a_collection(source: Write, workdir: Path) -> None:
    document = {"type": "Feature", "id": 7, "geometry": SQUARE, "properties": None}
    path = source("one.json", orjson.dumps(document))

    result = convert(path, "json", workdir)

    assert result.feature_count == 1
    assert result.geometry_type == "Polygon"
    assert result.bbox == (0.0, 0.0, 1.0, 1.0)
    assert read_layer(result) == [document]


def test_bare_geometry_is_wrapped_into_a_feature(source: Write, workdir: Path) -> None:
    multi = {"type": "MultiPoint", "coordinates": [[-10, -20, 300.5], [170, 80]]}
    path = source("bare.geojson", orjson.dumps(multi))

    result = convert(path, "geojson", workdir)

    assert result.geometry_type == "Point"
    assert result.bbox == (-10.0, -20.0, 170.0, 80.0)
    assert read_layer(result) == [feature(multi)]


def test_multi_geometries_report_their_single_form(source: Write, workdir: Path) -> None:
    multi_line = {"type": "MultiLineString", "coordinates": [LINE["coordinates"]]}
    path = source("lines.geojson", collection(feature(LINE), feature(multi_line)))

    assert convert(path, "geojson", workdir).geometry_type == "LineString"


def test_geometry_collection_null_geometry_and_empty_geometry(source: Write, workdir: Path) -> None:
    both = {"type": "GeometryCollection", "geometries": [POINT, SQUARE]}
    empty = {"type": "Polygon", "coordinates": []}
    path = source("odd.geojson", collection(feature(both), feature(None), feature(empty)))

    result = convert(path, "geojson", workdir)

    assert result.feature_count == 3
    assert result.geometry_type == "mixed"
    assert result.bbox == (0.0, 0.0, 13.4, 52.5)


def test_missing_properties_become_an_empty_object(source: Write, workdir: Path) -> None:
    path = source("bare.geojson", orjson.dumps({"type": "Feature", "geometry": POINT}))

    [only] = read_layer(convert(path, "geojson", workdir))

    assert only["properties"] == {}


def test_empty_collection_has_no_geometry_type_nor_bbox(source: Write, workdir: Path) -> None:
    path = source("empty.geojson", collection())

    result = convert(path, "geojson", workdir)

    assert (result.feature_count, result.geometry_type, result.bbox) == (0, None, None)
    assert read_layer(result) == []


def test_utf8_byte_order_mark_is_tolerated(source: Write, workdir: Path) -> None:
    path = source("bom.geojson", b"\xef\xbb\xbf" + collection(feature(POINT, name="Zürich")))

    [only] = read_layer(convert(path, "geojson", workdir))

    assert only["properties"] == {"name": "Zürich"}


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "the file is empty"),
        (b'{"type": "FeatureCollection", "features": [', "not valid JSON"),
        (b"\xff\xfe{}", "not valid JSON"),
        (b"[1, 2]", "expected a GeoJSON object at the top level, got an array"),
        (b'{"type": "Topology"}', "type: expected 'FeatureCollection', 'Feature' or a geometry"),
        (b'{"name": "x"}', "or a geometry type, got no type"),
        (b'{"type": "FeatureCollection", "features": {}}', "features: expected an array"),
        (b'{"type": "FeatureCollection"}', "features: expected an array of features, got null"),
    ],
)
def test_documents_that_are_not_geojson(
    source: Write, workdir: Path, content: bytes, expected: str
) -> None:
    path = source("bad.geojson", content)

    assert expected in rejects(path, "geojson", workdir)


BAD_FEATURES = [
    ("not an object", [1, 2], "features[3]: expected a Feature object, got an array"),
    ("wrong type", {"type": "Point"}, "features[3].type: expected 'Feature', got 'Point'"),
    ("no geometry", {"type": "Feature", "properties": {}}, "features[3].geometry: missing"),
    ("bad properties", {**feature(POINT), "properties": [1]}, "features[3].properties"),
    ("bad id", {**feature(POINT), "id": {"a": 1}}, "features[3].id: expected a string or"),
    (
        "unknown geometry",
        feature({"type": "Circle", "coordinates": [0, 0]}),
        "features[3].geometry.type: 'Circle' is not a GeoJSON geometry type",
    ),
    (
        "no coordinates",
        feature({"type": "Point"}),
        "features[3].geometry.coordinates: missing",
    ),
    (
        "longitude out of range",
        feature({"type": "LineString", "coordinates": [[0, 0], [181, 0]]}),
        "features[3].geometry.coordinates[1]: longitude 181 is outside [-180, 180]",
    ),
    (
        "latitude out of range",
        feature({"type": "Point", "coordinates": [0, -90.5]}),
        "features[3].geometry.coordinates: latitude -90.5 is outside [-90, 90]",
    ),
    (
        "position of one number",
        feature({"type": "MultiPoint", "coordinates": [[1, 2], [3]]}),
        "features[3].geometry.coordinates[1]: a position is 2 or 3 numbers",
    ),
    (
        "position of four numbers",
        feature({"type": "Point", "coordinates": [1, 2, 3, 4]}),
        "features[3].geometry.coordinates: a position is 2 or 3 numbers",
    ),
    (
        "string coordinate",
        feature({"type": "Point", "coordinates": ["1", 2]}),
        "features[3].geometry.coordinates: a position is 2 or 3 numbers",
    ),
    (
        "boolean coordinate",
        feature({"type": "Point", "coordinates": [1, True]}),
        "a position is 2 or 3 numbers",
    ),
    (
        "one-position line",
        feature({"type": "LineString", "coordinates": [[1, 2]]}),
        "features[3].geometry.coordinates: a LineString needs at least 2 positions, got 1",
    ),
    (
        "unclosed ring",
        feature({"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}),
        "features[3].geometry.coordinates[0]: the polygon ring is not closed",
    ),
    (
        "short ring",
        feature({"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 0]]]}),
        "features[3].geometry.coordinates[0]: a polygon ring needs at least 4 positions",
    ),
    (
        "ring not an array",
        feature({"type": "MultiPolygon", "coordinates": [[5]]}),
        "features[3].geometry.coordinates[0][0]: expected an array, got a number",
    ),
    (
        "bad member of a collection",
        feature({"type": "GeometryCollection", "geometries": [POINT, None]}),
        "features[3].geometry.geometries[1]: expected a geometry object, got null",
    ),
]


@pytest.mark.parametrize(
    ("bad", "expected"), [case[1:] for case in BAD_FEATURES], ids=[c[0] for c in BAD_FEATURES]
)
def test_invalid_features_are_named_by_path(
    source: Write, workdir: Path, bad: Any, expected: str
) -> None:
    good = feature(POINT)
    path = source("bad.geojson", collection(good, good, good, bad, good))

    assert expected in rejects(path, "geojson", workdir)


def test_paths_of_a_single_feature_and_a_bare_geometry(source: Write, workdir: Path) -> None:
    bad_point = {"type": "Point", "coordinates": [200, 0]}
    single = source("one.geojson", orjson.dumps(feature(bad_point)))
    bare = source("bare.geojson", orjson.dumps(bad_point))

    assert rejects(single, "geojson", workdir).startswith("geometry.coordinates: longitude 200")
    assert rejects(bare, "geojson", workdir).startswith("coordinates: longitude 200")


def test_a_rejection_keeps_an_earlier_output(source: Write, workdir: Path) -> None:
    (workdir / "layer.geojson").write_bytes(b"earlier")
    path = source("bad.geojson", b"{")

    with pytest.raises(Exception, match="not valid JSON"):
        convert(path, "geojson", workdir)

    assert [p.name for p in workdir.iterdir()] == ["layer.geojson"]
    assert (workdir / "layer.geojson").read_bytes() == b"earlier"
