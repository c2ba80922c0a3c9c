"""Layer exports written from a layer's table (docs/exports.md), read back with GDAL: the
properties and their types, the declared geometry type, the filter, and FlatGeobuf with and
without its spatial index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pyogrio
import pytest

from maproom.geo import export, table
from maproom.geo.base import feature_writer
from maproom.geo.fields import profile_geojson
from maproom.geo.filters import matches


def layer(tmp_path: Path, features: list[tuple[dict[str, Any], dict[str, Any]]]) -> table.Table:
    data = tmp_path / "layer.geojson"
    with feature_writer(data) as sink:
        for geometry, properties in features:
            sink.write(orjson.dumps({"type": "Feature", "geometry": geometry,
                                     "properties": properties}))  # fmt: skip
    fields = profile_geojson(data).summary()
    con = table.engine(128, tmp_path)
    try:
        return table.Table(table.build(con, data, fields, tmp_path / "t.parquet"), fields)
    finally:
        con.close()


def written(
    tmp_path: Path, built: table.Table, fmt: str, where: dict[str, Any] | None = None
) -> Path:
    out = tmp_path / f"out.{fmt}"
    con = table.engine(128, tmp_path)
    try:
        export.write(con, built, where, export.FORMATS[fmt], out, "things")
    finally:
        con.close()
    return out


def point(i: int) -> dict[str, Any]:
    return {"type": "Point", "coordinates": [i % 90 + 0.123456789, i % 45 - 0.5]}


ROWS = [
    {"n": i, "x": i / 4, "s": f"item {i}", "b": i % 2 == 0, "m": [i, "text", True][i % 3]}
    for i in range(300)
]


@pytest.mark.parametrize("index_max", [1000, 10])
def test_types_order_and_flatgeobuf_with_or_without_its_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index_max: int
) -> None:
    monkeypatch.setattr(export, "FGB_INDEX_MAX", index_max)
    built = layer(tmp_path, [(point(i), row) for i, row in enumerate(ROWS)])
    for fmt in ("gpkg", "fgb"):
        path = written(tmp_path, built, fmt)
        info = pyogrio.read_info(path, force_feature_count=True)
        assert info["features"] == 300 and info["geometry_type"] == "Point"
        types = dict(zip(info["fields"], info["dtypes"], strict=True))
        assert types == {"n": "int64", "x": "float64", "s": "object", "b": "bool", "m": "object"}
        frame = pyogrio.read_dataframe(path).sort_values("n")
        assert list(frame["s"]) == [row["s"] for row in ROWS]
        assert list(frame["m"])[:3] == ["0", "text", "true"]  # a field of mixed kinds, as text
        assert frame.geometry.iloc[1].x == pytest.approx(1.123456789, abs=1e-9)
    gpkg = pyogrio.read_dataframe(written(tmp_path, built, "gpkg"))
    assert list(gpkg["n"]) == list(range(300))  # the layer's order


def test_polygons_with_multipolygons_are_written_as_multipolygons(tmp_path: Path) -> None:
    square = [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]
    shifted = [[[2, 0], [3, 0], [3, 1], [2, 1], [2, 0]]]
    built = layer(tmp_path, [
        ({"type": "Polygon", "coordinates": square}, {"k": 1}),
        ({"type": "MultiPolygon", "coordinates": [square, shifted]}, {"k": 2}),
    ])  # fmt: skip
    info = pyogrio.read_info(written(tmp_path, built, "gpkg"))
    assert info["geometry_type"] == "MultiPolygon" and info["features"] == 2
    (tmp_path / "mixed").mkdir()
    lines = layer(tmp_path / "mixed", [
        (point(0), {"k": 1}),
        ({"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, {"k": 2}),
    ])  # fmt: skip
    assert pyogrio.read_info(written(tmp_path, lines, "fgb"))["geometry_type"] == "Unknown"


def test_a_filtered_csv_keeps_what_the_filter_keeps(tmp_path: Path) -> None:
    built = layer(tmp_path, [(point(i), row) for i, row in enumerate(ROWS)])
    where = {"any": [{"field": "x", "op": ">=", "value": 70}, {"field": "s", "op": "contains",
                                                              "value": "M 1"}]}  # fmt: skip
    frame = pyogrio.read_dataframe(written(tmp_path, built, "csv", where), AUTODETECT_TYPE="YES")
    assert list(frame["n"]) == [row["n"] for row in ROWS if matches(where, row)]
