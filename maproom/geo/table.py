"""A layer as a table for the analysis engine (DuckDB with its spatial extension): built once
from the layer's GeoJSON, answering feature queries, statistics and derived layers in bounded
memory (docs/analysis.md).

    engine(memory_mb, scratch)        a DuckDB connection, spatial loaded, memory capped
    build(con, geojson, fields, out)  the layer's table, a Parquet file (`TABLE_NAME`)
    Table(path, fields)               one layer's table: its columns, queries and statistics

The table holds one row per feature, in file order: `__fid` (its place in the layer, from 0),
`__geom` (the geometry), its box (`__xmin`, `__ymin`, `__xmax`, `__ymax`), `__props` (the
properties as the feature's JSON text, so a feature answers exactly as it was stored), and one
typed column per field of the layer's profile (`c0`, `c1`, ...: numbers as DOUBLE, text and
booleans as such, a field of mixed values as text), so that sorting, filtering and statistics
read only the columns they need. Parquet is columnar and compressed: a top-10 of a million
points reads one column, not the layer.

Why DuckDB: vectorised and multi-threaded, it sorts and aggregates larger-than-memory data by
spilling to disk under a hard memory limit, can be interrupted (a timeout, a client gone),
reads and writes Parquet natively, and its spatial extension (GEOS inside) does the spatial
joins, unions and intersections of derived layers. Both come as wheels from PyPI and work
offline (`duckdb-extension-spatial` carries the extension file, loaded by path).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maproom.geo.base import GeoError
from maproom.geo.filters import Columns, quote, to_sql

if TYPE_CHECKING:
    import duckdb  # the engine is imported when a connection is made (`engine`)

TABLE_NAME = "layer.parquet"
KINDS = {"number": "DOUBLE", "string": "VARCHAR", "boolean": "BOOLEAN", "mixed": "VARCHAR"}
_LINE = 16 * 1024 * 1024  # the longest feature line read at first; longer ones: a second try


def _spatial_extension() -> str:
    import duckdb
    import duckdb_extension_spatial

    base = Path(duckdb_extension_spatial.__file__).parent / "extensions"
    found = sorted(base.glob(f"v{duckdb.__version__}/spatial.duckdb_extension"))
    if not found:
        raise RuntimeError(f"no spatial extension for DuckDB {duckdb.__version__} in {base}")
    return str(found[0])


def engine(memory_mb: int, scratch: Path, threads: int | None = None) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the spatial extension, at most `memory_mb` of memory (it spills
    to `scratch` beyond), `threads` (default: the machine's cores)."""
    config: dict[str, str | bool | int | float | list[str]] = {
        "allow_unsigned_extensions": "true",
        "autoinstall_known_extensions": "false",
        "autoload_known_extensions": "false",
        "memory_limit": f"{memory_mb}MB",
        "threads": threads or max(1, os.cpu_count() or 1),
        "temp_directory": str(scratch),
        "preserve_insertion_order": "false",
    }
    import duckdb

    con = duckdb.connect(config=config)
    con.execute(f"LOAD '{_spatial_extension()}'")
    return con


def columns_of(fields: list[dict[str, Any]] | None) -> Columns:
    """Where each field of a layer's profile is in its table, and its kind."""
    return {f["name"]: (f"c{i}", f["type"]) for i, f in enumerate(fields or [])}


def build(
    con: duckdb.DuckDBPyConnection, geojson: Path, fields: list[dict[str, Any]] | None, out: Path
) -> Path:
    """Write the table of a layer file in maproom's one-feature-per-line layout (module
    docstring) to `out`, atomically."""
    import duckdb

    partial = out.with_name(f".{out.name}.partial")
    # Kept in file order, so that `__fid` numbers the features as the layer file does.
    con.execute("SET preserve_insertion_order = true")
    try:
        try:
            _copy(con, geojson, fields, partial, _LINE)
        except duckdb.InvalidInputException as exc:  # a line longer than the first try
            if "line size" not in str(exc).lower():
                raise
            _copy(con, geojson, fields, partial, max(_LINE, geojson.stat().st_size + 1))
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
        con.execute("SET preserve_insertion_order = false")
    return out


def _copy(
    con: duckdb.DuckDBPyConnection,
    geojson: Path,
    fields: list[dict[str, Any]] | None,
    out: Path,
    line: int,
) -> None:
    typed = []
    for name, (column, kind) in columns_of(fields).items():
        path = "$." + _json_key(name)
        if kind in ("number", "boolean"):
            typed.append(f"TRY_CAST(j->>'{path}' AS {KINDS[kind]}) AS {column}")
        else:
            typed.append(f"j->>'{path}' AS {column}")
    extra = (", " + ", ".join(typed)) if typed else ""
    source = str(geojson).replace("'", "''")
    con.execute(
        f"""
        COPY (
          WITH lines AS (
            SELECT rtrim(line, ',')::JSON AS j
            FROM read_csv('{source}', columns={{'line': 'VARCHAR'}}, header=false,
                          delim=chr(30), quote='', escape='', auto_detect=false,
                          max_line_size={line}, buffer_size={2 * line})
            WHERE starts_with(line, '{{"type":"Feature"')
          ),
          shaped AS (
            SELECT row_number() OVER () - 1 AS __fid, j,
                   ST_GeomFromGeoJSON(j->'geometry') AS __geom
            FROM lines
          )
          SELECT __fid, __geom, ST_XMin(__geom) AS __xmin, ST_YMin(__geom) AS __ymin,
                 ST_XMax(__geom) AS __xmax, ST_YMax(__geom) AS __ymax,
                 coalesce(j->>'$.properties', '{{}}') AS __props {extra}
          FROM shaped
        ) TO '{str(out).replace("'", "''")}' (FORMAT parquet, ROW_GROUP_SIZE 65536)
        """
    )


def _json_key(name: str) -> str:
    """`properties."name"` as a JSON path (quotes inside the name escaped)."""
    return 'properties."' + name.replace("\\", "\\\\").replace('"', '\\"').replace("'", "''") + '"'


@dataclass(frozen=True)
class Table:
    """One layer's table (a file made by `build`) and the layer's fields."""

    path: Path
    fields: list[dict[str, Any]]

    @property
    def columns(self) -> Columns:
        """Where each field is, and its kind."""
        return columns_of(self.fields)

    @property
    def source(self) -> str:
        """The table as a SQL expression."""
        return "read_parquet('" + str(self.path).replace("'", "''") + "')"

    def count(self, con: duckdb.DuckDBPyConnection, where: dict[str, Any] | None) -> int:
        """How many features pass the filter."""
        condition, params = to_sql(where, self.columns)
        found = con.execute(f"SELECT count(*) FROM {self.source} WHERE {condition}", params)
        return int(found.fetchone()[0])  # type: ignore[index]

    def union_wkb(self, con: duckdb.DuckDBPyConnection | None = None) -> bytes:
        """The union of every feature's geometry, as WKB (a mask to clip to)."""
        owned = con is None
        con = con or engine(256, self.path.parent, threads=1)
        try:
            found = con.execute(f"SELECT ST_AsWKB(ST_Union_Agg(__geom)) FROM {self.source}")
            return bytes(found.fetchone()[0])  # type: ignore[index]
        finally:
            if owned:
                con.close()

    def column(self, field: str) -> tuple[str, str]:
        """The column and kind of a field (GeoError when the layer has no such field)."""
        found = self.columns.get(field)
        if found is None:
            raise GeoError(f"the layer has no field {field!r}")
        return found


Cursor = tuple[Any, int]  # the sort value and `__fid` of the last feature of a page


@dataclass(frozen=True)
class Page:
    """Features of a query: `(fid, geometry as GeoJSON text, properties as JSON text)`, and
    where the next page starts (None: no more)."""

    rows: list[tuple[int, str | None, str]]
    after: Cursor | None


def features(
    con: duckdb.DuckDBPyConnection,
    table: Table,
    *,
    where: dict[str, Any] | None,
    sort: str | None,
    descending: bool,
    limit: int,
    after: Cursor | None,
    bbox: tuple[float, float, float, float] | None,
) -> Page:
    """Features passing the filter (and meeting `bbox`), sorted by a field (nulls last, then
    file order) or in file order, `limit` of them after the cursor. Only the top `limit` are
    kept while scanning: memory does not grow with the layer."""
    condition, params = to_sql(where, table.columns)
    box, box_params = box_condition(bbox)
    order = "__fid"
    key = "NULL"
    page_condition, page_params = "TRUE", list[Any]()
    if sort is not None:
        column, _ = table.column(sort)
        key = column
        order = f"{column} {'DESC' if descending else 'ASC'} NULLS LAST, __fid"
    if after is not None:
        page_condition, page_params = _after(key, after, descending)
    found = con.execute(
        f"SELECT __fid, ST_AsGeoJSON(__geom), __props, {key} FROM {table.source} "
        f"WHERE {condition} AND {box} AND {page_condition} ORDER BY {order} LIMIT ?",
        [*params, *box_params, *page_params, limit + 1],
    ).fetchall()
    shown = found[:limit]
    more = (shown[-1][3], int(shown[-1][0])) if len(found) > limit and shown else None
    return Page([(int(fid), geometry, props) for fid, geometry, props, _ in shown], more)


def _after(key: str, after: Cursor, descending: bool) -> tuple[str, list[Any]]:
    value, fid = after
    if key == "NULL":
        return "(__fid > ?)", [fid]
    if value is None:
        return f"({key} IS NULL AND __fid > ?)", [fid]
    beyond = "<" if descending else ">"
    return (
        f"({key} {beyond} ? OR ({key} = ? AND __fid > ?) OR {key} IS NULL)",
        [value, value, fid],
    )


def stats(
    con: duckdb.DuckDBPyConnection, table: Table, *, field: str | None, where: dict[str, Any] | None
) -> dict[str, Any]:
    """`{"count"}` of the features passing the filter; with a field, also how many of them
    have no value, the minimum, maximum, mean and sum of its numbers (text: minimum and
    maximum in text order), and its 20 most frequent values."""
    condition, params = to_sql(where, table.columns)
    if field is None:
        return {"count": table.count(con, where)}
    column, kind = table.column(field)
    numeric = kind == "number"
    mean_sum = f"avg({column}), sum({column})" if numeric else "NULL, NULL"
    count, nulls, low, high, mean, total = con.execute(
        f"SELECT count(*), count(*) - count({column}), min({column}), max({column}), {mean_sum} "
        f"FROM {table.source} WHERE {condition}",
        params,
    ).fetchone()  # type: ignore[misc]
    top = con.execute(
        f"SELECT {column}, count(*) AS n FROM {table.source} WHERE {condition} "
        f"AND {column} IS NOT NULL GROUP BY {column} ORDER BY n DESC, {column} LIMIT 20",
        params,
    ).fetchall()
    return {
        "count": int(count),
        "nullCount": int(nulls),
        "min": _plain(low),
        "max": _plain(high),
        "mean": _plain(mean),
        "sum": _plain(total),
        "distinct": [{"value": _plain(value), "count": int(n)} for value, n in top],
    }


def _plain(value: Any) -> Any:
    """Whole numbers as integers, as the layer's JSON had them."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def box_condition(bbox: tuple[float, float, float, float] | None) -> tuple[str, list[Any]]:
    """Features whose box meets `bbox` (`minLng, minLat, maxLng, maxLat`)."""
    if bbox is None:
        return "TRUE", []
    west, south, east, north = bbox
    return "(__xmax >= ? AND __xmin <= ? AND __ymax >= ? AND __ymin <= ?)", [
        west,
        east,
        south,
        north,
    ]


__all__ = [
    "KINDS", "TABLE_NAME", "Page", "Table", "box_condition", "build", "columns_of", "engine",
    "features", "quote", "stats",
]  # fmt: skip
