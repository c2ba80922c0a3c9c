"""CSV uploads: coordinate columns, dialects, encodings, typing, skipped rows, rejections."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import orjson
import pytest
import shapely

from maproom.geo import convert
from maproom.geo.tabular import sniff_delimiter, typed_text
from tests.geo.support import Write, read_layer, rejects


def test_lat_lon_rows_become_typed_point_features(source: Write, workdir: Path) -> None:
    path = source(
        "cities.csv",
        "name,lat,lon,population,share,code,note\n"
        "Berlin,52.52,13.405,3850809,0.25,007,\n"
        "Lisbon,38.72,-9.14,545796,-1.5e-3,10115,port city\n",
    )

    result = convert(path, "csv", workdir)

    assert result.layer_type == "geojson"
    assert (result.feature_count, result.geometry_type, result.skipped_rows) == (2, "Point", 0)
    assert result.bbox == (-9.14, 38.72, 13.405, 52.52)
    berlin, lisbon = read_layer(result)
    assert berlin == {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [13.405, 52.52]},
        "properties": {
            "name": "Berlin",
            "population": 3850809,
            "share": 0.25,
            "code": "007",
            "note": None,
        },
    }
    assert lisbon["properties"]["share"] == -0.0015
    assert lisbon["properties"]["code"] == 10115
    assert lisbon["properties"]["note"] == "port city"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", None),
        ("0", 0),
        ("42", 42),
        ("-17", -17),
        ("+3", 3),
        ("3.25", 3.25),
        (".5", 0.5),
        ("-2.", -2.0),
        ("1e3", 1000.0),
        ("007", "007"),
        ("-007", "-007"),
        ("9007199254740992", 9007199254740992),
        ("9007199254740993", "9007199254740993"),
        ("12345678901234567890", "12345678901234567890"),
        ("1e400", "1e400"),
        ("NaN", "NaN"),
        ("-inf", "-inf"),
        ("1_000", "1_000"),
        ("2024-05-01", "2024-05-01"),
        ("١٢", "١٢"),
        (" 12", " 12"),
        ("abc", "abc"),
    ],
)
def test_field_typing(text: str, expected: Any) -> None:
    typed = typed_text(text)

    assert typed == expected
    assert type(typed) is type(expected)


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_delimiters_are_sniffed(source: Write, workdir: Path, delimiter: str) -> None:
    rows = [["id", "lat", "lon", "label"], ["1", "10.5", "20.25", "a, b; c"], ["2", "-1", "-2", ""]]
    lines = [delimiter.join(f'"{cell}"' if "," in cell else cell for cell in row) for row in rows]
    path = source("points.csv", "\n".join(lines) + "\n")

    first, second = read_layer(convert(path, "csv", workdir))

    assert first["properties"] == {"id": 1, "label": "a, b; c"}
    assert first["geometry"]["coordinates"] == [20.25, 10.5]
    assert second["properties"] == {"id": 2, "label": None}


def test_delimiter_sniffing_prefers_consistent_widths() -> None:
    assert sniff_delimiter("lat;lon;name\n52,5;13,4;x\n48,1;11,6;y\n") == ";"
    assert sniff_delimiter("lat,lon,name\n1,2,a;b;c;d\n3,4,e\n") == ","
    assert sniff_delimiter("just one column\nvalue\n") == ","


def test_semicolons_with_decimal_commas(source: Write, workdir: Path) -> None:
    path = source("european.csv", "Name;Latitude;Longitude;Wert\nA;52,5;13,4;1,5\n")

    [only] = read_layer(convert(path, "csv", workdir))

    assert only["geometry"]["coordinates"] == [13.4, 52.5]
    assert only["properties"] == {"Name": "A", "Wert": "1,5"}


@pytest.mark.parametrize(
    ("encoding", "prefix"),
    [
        ("utf-8", b""),
        ("utf-8", b"\xef\xbb\xbf"),
        ("cp1252", b""),
        ("latin-1", b""),
        ("utf-16", b""),
    ],
    ids=["utf-8", "utf-8-bom", "windows-1252", "latin-1", "utf-16"],
)
def test_encodings_are_sniffed(source: Write, workdir: Path, encoding: str, prefix: bytes) -> None:
    name = "Curaçao €" if encoding == "cp1252" else "Curaçao ß"
    text = f"lat\tlon\tname\n12.1\t-68.9\t{name}\n"
    if encoding == "latin-1":  # a byte that Windows-1252 leaves undefined forces Latin-1
        text, name = text.replace("ß", "\x81"), name.replace("ß", "\x81")
    path = source("points.csv", prefix + text.encode(encoding))

    [only] = read_layer(convert(path, "csv", workdir))

    assert only["properties"] == {"name": name}


@pytest.mark.parametrize(
    ("lat", "lon"),
    [("Y", "X"), ("LATITUDE", "Long"), ("lat", "lng"), (" Lat ", "LONGITUDE"), ("y", "lon")],
)
def test_coordinate_column_names(source: Write, workdir: Path, lat: str, lon: str) -> None:
    path = source("points.csv", f"{lon},other,{lat}\n5,x,6\n")

    [only] = read_layer(convert(path, "csv", workdir))

    assert only["geometry"]["coordinates"] == [5.0, 6.0]
    assert only["properties"] == {"other": "x"}


def test_named_latitude_wins_over_y(source: Write, workdir: Path) -> None:
    path = source("points.csv", "y,x,lat,lon\n100,200,1,2\n")

    [only] = read_layer(convert(path, "csv", workdir))

    assert only["geometry"]["coordinates"] == [2.0, 1.0]
    assert only["properties"] == {"y": 100, "x": 200}


def test_unusable_rows_are_skipped_and_counted(source: Write, workdir: Path) -> None:
    path = source(
        "points.csv",
        "lat,lon,name\n"
        "1,2,ok\n"
        ",2,no latitude\n"
        "1,,no longitude\n"
        "abc,2,not a number\n"
        "90.5,2,latitude too big\n"
        "1,-181,longitude too small\n"
        "nan,2,not a number either\n"
        "\n"
        ",,\n"
        "-90,180,corner\n",
    )

    result = convert(path, "csv", workdir)

    assert result.feature_count == 2
    assert result.skipped_rows == 6
    assert result.bbox == (2.0, -90.0, 180.0, 1.0)
    assert [f["properties"]["name"] for f in read_layer(result)] == ["ok", "corner"]


def test_ragged_rows_and_quoted_newlines(source: Write, workdir: Path) -> None:
    path = source("points.csv", 'lat,lon,a,b\n1,2\n3,4,"two\nlines",x,extra\n,\n')

    short, long = read_layer(convert(path, "csv", workdir))

    assert short["properties"] == {"a": None, "b": None}
    assert long["properties"] == {"a": "two\nlines", "b": "x"}


def test_blank_header_names_get_column_numbers(source: Write, workdir: Path) -> None:
    path = source("points.csv", "\n\nlat,lon,,name\n1,2,x,y\n")

    [only] = read_layer(convert(path, "csv", workdir))

    assert only["properties"] == {"column_3": "x", "name": "y"}


def test_wkt_column(source: Write, workdir: Path) -> None:
    path = source(
        "shapes.csv",
        "id;WKT\n"
        "1;POINT (13.4 52.5)\n"
        "2;LINESTRING (0 0, 1 1)\n"
        '3;"SRID=4326;POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))"\n'
        "4;POINT EMPTY\n"
        "5;not wkt at all\n"
        "6;POINT (500000 5800000)\n"
        "7;\n",
    )

    result = convert(path, "csv", workdir)

    assert (result.feature_count, result.skipped_rows) == (3, 4)
    assert result.geometry_type == "mixed"
    assert result.bbox == (0.0, 0.0, 13.4, 52.5)
    point, line, polygon = read_layer(result)
    assert point == {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [13.4, 52.5]},
        "properties": {"id": 1},
    }
    assert line["geometry"] == {"type": "LineString", "coordinates": [[0.0, 0.0], [1.0, 1.0]]}
    assert polygon["geometry"]["type"] == "Polygon"


def test_geojson_geometry_column(source: Write, workdir: Path) -> None:
    geometry = {"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]]]}
    cell = orjson.dumps(geometry).decode().replace('"', '""')
    broken = '{""type"": ""Point""}'
    path = source("shapes.csv", f'name,geometry\nsquare,"{cell}"\nbroken,"{broken}"\n')

    result = convert(path, "csv", workdir)

    assert (result.feature_count, result.skipped_rows) == (1, 1)
    assert result.geometry_type == "Polygon"
    [only] = read_layer(result)
    assert only == {"type": "Feature", "geometry": geometry, "properties": {"name": "square"}}


def test_hex_wkb_column_as_postgis_exports_it(source: Write, workdir: Path) -> None:
    line = shapely.set_srid(shapely.LineString([(1, 2), (3, 4)]), 4326)
    path = source(
        "export.csv", f"the_geom,name\n{shapely.to_wkb(line, hex=True, include_srid=True)},a\n"
    )

    [only] = read_layer(convert(path, "csv", workdir))

    assert only["geometry"] == {"type": "LineString", "coordinates": [[1.0, 2.0], [3.0, 4.0]]}


def test_a_geometry_larger_than_the_csv_module_default_field_limit(
    source: Write, workdir: Path
) -> None:
    ring = [
        (math.cos(2 * math.pi * i / 20_000), math.sin(2 * math.pi * i / 20_000))
        for i in range(20_000)
    ]
    wkt = shapely.Polygon(ring).wkt
    assert len(wkt) > 131_072
    path = source("big.csv", f'geom,name\n"{wkt}",circle\n')

    result = convert(path, "csv", workdir)

    assert (result.feature_count, result.geometry_type) == (1, "Polygon")


def test_header_only_is_an_empty_layer(source: Write, workdir: Path) -> None:
    path = source("empty.csv", "lat,lon,name\n")

    result = convert(path, "csv", workdir)

    assert (result.feature_count, result.geometry_type, result.bbox) == (0, None, None)
    assert read_layer(result) == []


def test_many_rows_stream_through(source: Write, workdir: Path) -> None:
    rows = "".join(f"{i % 180 - 89.5},{i % 360 - 179.5},{i}\n" for i in range(20_000))
    path = source("many.csv", "lat,lon,n\n" + rows)

    result = convert(path, "csv", workdir)

    assert result.feature_count == 20_000
    assert result.bbox == (-179.5, -89.5, 179.5, 89.5)
    assert len(read_layer(result)) == 20_000


def test_no_coordinate_columns(source: Write, workdir: Path) -> None:
    path = source("table.csv", "name,latitude,address\nx,1,y\n")

    message = rejects(path, "csv", workdir)

    assert "no coordinate columns" in message
    assert "(lat, latitude, y)" in message
    assert "(lon, lng, long, longitude, x)" in message
    assert "(geometry, geom, wkt, the_geom)" in message
    assert "found columns: 'name', 'latitude', 'address'" in message


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("", "the table is empty"),
        ("\n\n", "the table is empty"),
        ("lat,lon\n91,0\nx,y\n", "none of the 2 rows has usable coordinates"),
        ("wkt\nPOINT (1000 1000)\n", "none of the 1 rows has a readable WKT or GeoJSON"),
    ],
)
def test_tables_that_cannot_become_a_layer(
    source: Write, workdir: Path, content: str, expected: str
) -> None:
    path = source("bad.csv", content)

    assert expected in rejects(path, "csv", workdir)
