"""Derived layers: new layers computed from layers' tables (`maproom.geo.table`), each written
as a GeoJSON file in maproom's one-feature-per-line layout, ready to become an ordinary layer
(docs/analysis.md).

    buffer(con, table, metres, out)                   every feature grown by a distance
    aggregate(con, points, polygons, stat, field, out)  polygons with a statistic of the
                                                      points inside each
    dissolve(con, table, field, out)                  features merged (by a field's value)
    clip(con, table, mask_wkb, out)                   features cut to a shape
    keep(con, table, where, out)                      the features a filter keeps

Buffers are geodesic: each point's circle is drawn on the sphere whose radius is the
ellipsoid's Gaussian radius of curvature at its latitude (so a 1 km buffer is 1 km, within a
fraction of a percent, at any latitude); lines and polygons are buffered in an azimuthal
equidistant projection centred on each feature (distances from the centre true), then
brought back. `check()` is called between batches, so a job past its time stops there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import shapely

from maproom.geo.base import Limits, feature_writer
from maproom.geo.filters import to_sql
from maproom.geo.table import Table

BATCH = 4096
CIRCLE = 64  # vertices of a point's buffer (area within 0.2 % of the circle's)
_A, _F = 6_378_137.0, 1 / 298.257223563  # WGS84
_E2 = _F * (2 - _F)
Check = Callable[[], None]
STATS = ("count", "sum", "mean", "min", "max")


def _never() -> None:
    return None


def _gaussian_radius(lat: np.ndarray) -> np.ndarray:
    """The ellipsoid's Gaussian radius of curvature (sqrt(M N)) at latitudes (degrees)."""
    s2 = np.sin(np.radians(lat)) ** 2
    return np.asarray(_A * math.sqrt(1 - _E2) / (1 - _E2 * s2))


def _rows(con: Any, sql: str, params: list[Any], check: Check) -> Iterator[list[Any]]:
    cursor = con.execute(sql, params)
    while batch := cursor.fetchmany(BATCH):
        check()
        yield batch


def _line(geometry: str, properties: str) -> bytes:
    return (
        b'{"type":"Feature","geometry":'
        + geometry.encode()
        + b',"properties":'
        + properties.encode()
        + b"}"
    )


def _write(rows: Iterator[list[Any]], out: Path, limits: Limits) -> int:
    """Write `(geometry GeoJSON text, properties JSON text)` rows; how many."""
    with feature_writer(out, limits) as sink:
        for batch in rows:
            for geometry, properties in batch:
                if geometry is not None:
                    sink.write(_line(geometry, properties))
    return sink.count


def keep(con: Any, table: Table, where: dict[str, Any] | None, out: Path, *, limits: Limits,
         check: Check = _never) -> int:  # fmt: skip
    """The features a filter keeps, as they are."""
    condition, params = to_sql(where, table.columns)
    sql = (
        f"SELECT ST_AsGeoJSON(__geom), __props FROM {table.source} WHERE {condition} ORDER BY __fid"
    )
    return _write(_rows(con, sql, params, check), out, limits)


def clip(con: Any, table: Table, mask: bytes, out: Path, *, limits: Limits,
         check: Check = _never) -> int:  # fmt: skip
    """The features cut to `mask` (WKB); those outside it left out."""
    sql = (
        "WITH m AS (SELECT ST_GeomFromWKB(?::BLOB) AS g) "
        "SELECT ST_AsGeoJSON(ST_Intersection(t.__geom, m.g)), t.__props "
        f"FROM {table.source} t, m WHERE ST_Intersects(t.__geom, m.g) ORDER BY t.__fid"
    )
    rows = (
        [(g, p) for g, p in batch if g is not None and not _empty(g)]
        for batch in _rows(con, sql, [mask], check)
    )
    return _write(rows, out, limits)


def _empty(geometry: str) -> bool:
    return '"coordinates":[]' in geometry or '"geometries":[]' in geometry


def dissolve(con: Any, table: Table, field: str | None, out: Path, *, limits: Limits,
             check: Check = _never) -> int:  # fmt: skip
    """The features merged into one (or one per value of `field`), with that value."""
    if field is None:
        sql = f"SELECT ST_AsGeoJSON(ST_Union_Agg(__geom)), '{{}}' FROM {table.source}"
        return _write(_rows(con, sql, [], check), out, limits)
    column, _ = table.column(field)
    key = orjson.dumps(field).decode()
    sql = (
        f"SELECT ST_AsGeoJSON(ST_Union_Agg(__geom)), {column}, count(*) FROM {table.source} "
        f"GROUP BY {column} ORDER BY {column} NULLS LAST"
    )
    rows = (
        [
            (g, "{" + key + ":" + orjson.dumps(v).decode() + ',"count":' + str(n) + "}")
            for g, v, n in batch
        ]
        for batch in _rows(con, sql, [], check)
    )
    return _write(rows, out, limits)


def aggregate(
    con: Any,
    points: Table,
    polygons: Table,
    *,
    stat: str,
    field: str | None,
    name: str,
    out: Path,
    limits: Limits,
    check: Check = _never,
) -> int:
    """Every polygon, its properties with `name` added: the statistic of the points inside it
    (`count`, or the `sum`, `mean`, `min` or `max` of a numeric field; null over no point)."""
    if stat == "count":
        value = "count(*)"
    else:
        column, _ = points.column(field or "")
        value = {"sum": "sum", "mean": "avg", "min": "min", "max": "max"}[stat] + f"(p.{column})"
    sql = (
        f"WITH agg AS (SELECT g.__fid AS fid, {value} AS v FROM {polygons.source} g "
        f"JOIN {points.source} p ON ST_Contains(g.__geom, p.__geom) GROUP BY g.__fid) "
        f"SELECT ST_AsGeoJSON(g.__geom), g.__props, agg.v FROM {polygons.source} g "
        "LEFT JOIN agg ON agg.fid = g.__fid ORDER BY g.__fid"
    )
    default = 0 if stat == "count" else None

    def shaped(batch: list[Any]) -> list[tuple[str, str]]:
        rows = []
        for geometry, props, v in batch:
            properties = orjson.loads(props)
            properties[name] = default if v is None else (int(v) if stat == "count" else float(v))
            rows.append((geometry, orjson.dumps(properties).decode()))
        return rows

    return _write((shaped(b) for b in _rows(con, sql, [], check)), out, limits)


# --- geodesic buffers -------------------------------------------------------------------------


def buffer(con: Any, table: Table, metres: float, out: Path, *, limits: Limits,
           check: Check = _never) -> int:  # fmt: skip
    """Every feature grown by `metres` (geodesic; module docstring)."""
    sql = f"SELECT ST_AsWKB(__geom), __props FROM {table.source} ORDER BY __fid"

    def grown(batch: list[Any]) -> list[tuple[str, str]]:
        shapes = shapely.from_wkb([bytes(wkb) for wkb, _ in batch])
        made = _buffers(shapes, metres)
        return [
            (shapely.to_geojson(shape), props)
            for shape, (_, props) in zip(made, batch, strict=True)
            if shape is not None and not shape.is_empty
        ]

    return _write((grown(b) for b in _rows(con, sql, [], check)), out, limits)


def _buffers(shapes: np.ndarray, metres: float) -> list[Any]:
    points = shapely.get_type_id(shapes) == 0
    made: list[Any] = [None] * len(shapes)
    if points.any():
        xy = shapely.get_coordinates(shapes[points])
        for i, circle in zip(
            np.flatnonzero(points), circles(xy[:, 0], xy[:, 1], metres), strict=True
        ):
            made[i] = circle
    for i in np.flatnonzero(~points):
        if shapes[i] is not None and not shapes[i].is_empty:
            made[i] = _buffer_shape(shapes[i], metres)
    return made


def circles(lng: np.ndarray, lat: np.ndarray, metres: float) -> list[Any]:
    """Geodesic circles of `metres` around points (module docstring), as polygons."""
    azimuth = np.radians(np.linspace(0, 360, CIRCLE, endpoint=False))[None, :]
    phi, lam = np.radians(lat)[:, None], np.radians(lng)[:, None]
    delta = (metres / _gaussian_radius(lat))[:, None]
    lat2 = np.arcsin(np.sin(phi) * np.cos(delta) + np.cos(phi) * np.sin(delta) * np.cos(azimuth))
    lng2 = lam + np.arctan2(np.sin(azimuth) * np.sin(delta) * np.cos(phi),
                            np.cos(delta) - np.sin(phi) * np.sin(lat2))  # fmt: skip
    ring = np.stack([np.degrees(lng2), np.degrees(lat2)], axis=-1)
    ring = np.concatenate([ring, ring[:, :1]], axis=1)
    return list(shapely.polygons(ring))


def _buffer_shape(shape: Any, metres: float) -> Any:
    """A line or polygon buffered in an azimuthal equidistant projection of its centre."""
    centre = shape.centroid
    lng0, lat0 = np.radians(centre.x), np.radians(centre.y)
    radius = float(_gaussian_radius(np.asarray([centre.y]))[0])

    def forward(c: np.ndarray) -> np.ndarray:
        lam, phi = np.radians(c[:, 0]), np.radians(c[:, 1])
        cos_c = np.sin(lat0) * np.sin(phi) + np.cos(lat0) * np.cos(phi) * np.cos(lam - lng0)
        angle = np.arccos(np.clip(cos_c, -1, 1))
        k = np.where(angle > 1e-12, angle / np.maximum(np.sin(angle), 1e-300), 1.0)
        x = radius * k * np.cos(phi) * np.sin(lam - lng0)
        y = (
            radius
            * k
            * (np.cos(lat0) * np.sin(phi) - np.sin(lat0) * np.cos(phi) * np.cos(lam - lng0))
        )
        return np.column_stack([x, y])

    def inverse(c: np.ndarray) -> np.ndarray:
        x, y = c[:, 0], c[:, 1]
        rho = np.hypot(x, y)
        angle = rho / radius
        with np.errstate(invalid="ignore", divide="ignore"):
            phi = np.arcsin(
                np.cos(angle) * np.sin(lat0)
                + np.where(rho > 0, y * np.sin(angle) * np.cos(lat0) / rho, 0)
            )
            lam = lng0 + np.arctan2(
                x * np.sin(angle),
                rho * np.cos(lat0) * np.cos(angle) - y * np.sin(lat0) * np.sin(angle),
            )
        return np.column_stack([np.degrees(lam), np.degrees(phi)])

    local = shapely.transform(shape, forward)
    return shapely.transform(shapely.buffer(local, metres, quad_segs=CIRCLE // 4), inverse)


__all__ = ["STATS", "aggregate", "buffer", "circles", "clip", "dissolve", "keep"]
