"""Layer exports: a layer's table (`maproom.geo.table`) written as a GIS file by the analysis
engine, in bounded memory (docs/exports.md).

    FORMATS                                   the vector formats, by their `?format=` name
    write(con, table, where, fmt, out, name)  the features a filter keeps, written to `out`

Every format is written from the layer's table, not from its GeoJSON: the table is columnar
and typed, so DuckDB streams it through GDAL (GeoPackage, FlatGeobuf) or its own writers
(GeoParquet, CSV) without parsing JSON, and a million points leave in seconds. GeoJSON is the
stored document itself (`maproom.geo.geojson.kept_lines`), so it has no writer here.

The properties are the layer's profiled fields (`maproom.geo.fields`), one column each, in
the profile's order, with their names: numbers are written as 64-bit integers when every
value of the field is a whole number a double holds exactly, as doubles otherwise; text and
booleans as such; a field of mixed kinds as text (its values as the JSON text of each). The
geometry type is declared when the layer has one (polygons and multipolygons together are
written as multipolygons); the coordinates are longitude and latitude on WGS 84.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maproom.geo.filters import to_sql
from maproom.geo.table import Table

if TYPE_CHECKING:
    import duckdb  # the engine is imported when a connection is made (`engine`)

EXACT_INTEGER = 2**53  # beyond this a double no longer holds every whole number
FGB_INDEX_MAX = 500_000
"""The most features a FlatGeobuf export is written with its spatial index: GDAL keeps each
feature's box in memory while it sorts them (about 200 bytes a feature), so a larger export
is streamed without the index (GDAL and GeoPandas read it all the same)."""


@dataclass(frozen=True)
class Format:
    """An export format: its `?format=` name, file extension, media type and writer (a GDAL
    driver, or None for DuckDB's own)."""

    name: str
    extension: str
    media_type: str
    driver: str | None = None


FORMATS = {
    f.name: f
    for f in (
        Format("geojson", "geojson", "application/geo+json"),
        Format("gpkg", "gpkg", "application/geopackage+sqlite3", "GPKG"),
        Format("fgb", "fgb", "application/flatgeobuf", "FlatGeobuf"),
        Format("csv", "csv", "text/csv; charset=utf-8"),
        Format("parquet", "parquet", "application/vnd.apache.parquet"),
    )
}
RASTER = Format("tif", "tif", "image/tiff; application=geotiff; profile=cloud-optimized")
"""A raster layer's export: its stored Cloud Optimized GeoTIFF, as it is."""

_GDAL_TYPES = {
    "POINT": "POINT",
    "LINESTRING": "LINESTRING",
    "POLYGON": "POLYGON",
    "MULTIPOINT": "MULTIPOINT",
    "MULTILINESTRING": "MULTILINESTRING",
    "MULTIPOLYGON": "MULTIPOLYGON",
}


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _whole_numbers(con: duckdb.DuckDBPyConnection, table: Table) -> set[str]:
    """The number columns whose every value is a whole number a double holds exactly."""
    numbers = [column for column, kind in table.columns.values() if kind == "number"]
    if not numbers:
        return set()
    checks = ", ".join(
        f"bool_and({c} IS NULL OR ({c} = trunc({c}) AND abs({c}) < {EXACT_INTEGER}))"
        for c in numbers
    )
    found = con.execute(f"SELECT {checks} FROM {table.source}").fetchone()
    return {column for column, whole in zip(numbers, found or (), strict=True) if whole}


def _geometry_kind(con: duckdb.DuckDBPyConnection, table: Table) -> tuple[str | None, bool]:
    """The one geometry type to declare (None: several) and whether polygons are made multi."""
    rows = con.execute(
        f"SELECT DISTINCT upper(CAST(ST_GeometryType(__geom) AS VARCHAR)) FROM {table.source}"
    ).fetchall()
    kinds = {str(row[0]) for row in rows if row[0] is not None}
    if kinds == {"POLYGON", "MULTIPOLYGON"}:
        return "MULTIPOLYGON", True
    if len(kinds) == 1:
        return _GDAL_TYPES.get(kinds.pop()), False
    return None, False


def _properties(con: duckdb.DuckDBPyConnection, table: Table, taken: set[str]) -> list[str]:
    """The select list of the properties, named as the layer's fields."""
    whole = _whole_numbers(con, table)
    out = []
    for name, (column, _) in table.columns.items():
        if name.lower() in taken:
            continue  # the format's own column (the geometry's, GeoPackage's `fid`)
        value = f"CAST({column} AS BIGINT)" if column in whole else column
        out.append(f"{value} AS {_ident(name)}")
    return out


def write(
    con: duckdb.DuckDBPyConnection,
    table: Table,
    where: dict[str, Any] | None,
    fmt: Format,
    out: Path,
    name: str,
) -> None:
    """Write the features of `table` the filter keeps (in the layer's order) to `out`, in
    `fmt` (not GeoJSON: see the module docstring); `name` names the layer inside the file."""
    condition, params = to_sql(where, table.columns)
    geometry_type, multi = _geometry_kind(con, table)
    geom = "ST_Multi(__geom)" if multi else "__geom"
    target = _text(str(out))
    if fmt.name == "csv":
        columns = [f"ST_AsText({geom}) AS WKT", *_properties(con, table, {"wkt"})]
        options = "FORMAT csv, HEADER true"
    elif fmt.name == "parquet":
        columns = [*_properties(con, table, {"geometry"}), f"{geom} AS geometry"]
        options = "FORMAT parquet, COMPRESSION zstd"
    elif fmt.driver is not None:
        columns = [f"{geom} AS geom", *_properties(con, table, {"geom", "fid"})]
        declared = f", GEOMETRY_TYPE {_text(geometry_type)}" if geometry_type else ""
        if fmt.name == "fgb" and table.count(con, where) > FGB_INDEX_MAX:
            declared += ", LAYER_CREATION_OPTIONS ('SPATIAL_INDEX=NO')"
        options = (
            f"FORMAT GDAL, DRIVER {_text(fmt.driver)}, SRS 'EPSG:4326', "
            f"LAYER_NAME {_text(name)}{declared}"
        )
    else:
        raise ValueError(f"{fmt.name} is not written from a table")
    query = f"SELECT {', '.join(columns)} FROM {table.source} WHERE {condition} ORDER BY __fid"
    con.execute("SET preserve_insertion_order = true")
    try:
        con.execute(f"COPY ({query}) TO {target} ({options})", params)
    finally:
        con.execute("SET preserve_insertion_order = false")
