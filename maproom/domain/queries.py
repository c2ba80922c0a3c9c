"""`GET .../layers/{layerId}/features` and `.../stats`: questions about a layer's data,
answered by the analysis engine from the layer's table (docs/analysis.md)."""

from __future__ import annotations

import threading
from typing import Any

import orjson

from maproom.domain import filters, layers
from maproom.domain.analysis import Analysis
from maproom.domain.common import decode_cursor, encode_cursor
from maproom.domain.gate import get_or_raise
from maproom.domain.keys import Principal
from maproom.errors import BadRequest
from maproom.geo import table as tables
from maproom.limits import FEATURES_PAGE_MAX
from maproom.storage.db import Database

MAX_LIMIT = FEATURES_PAGE_MAX


def _fail(path: str, message: str) -> BadRequest:
    return BadRequest(f"{path}: {message}", details=[{"path": path, "message": message}])


def _layer(db: Database, principal: Principal, project_id: str, layer_id: str) -> Any:
    """A GeoJSON layer's row the caller may read (400 for a raster or a tile layer)."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        row = layers.row_of(tx, project.id, layer_id)
    if row.layer_type != "geojson" or row.data_key is None:
        raise BadRequest("This layer has no features to ask about (it is a raster or tile layer)")
    return row


def _field(row: Any, name: str | None, path: str) -> str | None:
    known = [f["name"] for f in row.fields or []]
    if name is not None and name not in known:
        raise _fail(
            path, f"the layer has no field {name!r}; its fields: {', '.join(known) or 'none'}"
        )
    return name


def _bbox(text: str | None) -> tuple[float, float, float, float] | None:
    if text is None:
        return None
    try:
        west, south, east, north = (float(part) for part in text.split(","))
    except ValueError:
        raise _fail("bbox", "expected minLng,minLat,maxLng,maxLat") from None
    if not (-180 <= west <= east <= 180 and -90 <= south <= north <= 90):
        raise _fail(
            "bbox", "expected minLng <= maxLng in [-180, 180], minLat <= maxLat in [-90, 90]"
        )
    return west, south, east, north


def features(
    db: Database,
    *,
    principal: Principal,
    analysis: Analysis,
    project_id: str,
    layer_id: str,
    where: str | None,
    sort: str | None,
    order: str,
    limit: int,
    cursor: str | None,
    fields: str | None,
    bbox: str | None,
    cancelled: threading.Event | None = None,
) -> dict[str, Any]:
    """A GeoJSON FeatureCollection of the features passing the filter, sorted or in the
    layer's order, a page at a time (`meta.nextCursor`)."""
    row = _layer(db, principal, project_id, layer_id)
    condition = filters.from_query(where, row.fields)
    sort = _field(row, sort, "sort")
    if order not in ("asc", "desc"):
        raise _fail("order", "asc or desc")
    if not 1 <= limit <= MAX_LIMIT:
        raise _fail("limit", f"1 to {MAX_LIMIT}")
    shown = None
    if fields is not None:
        shown = [name.strip() for name in fields.split(",") if name.strip()]
        for name in shown:
            _field(row, name, "fields")
    after = None
    if cursor:
        value, fid = decode_cursor(cursor, 2)
        if not isinstance(fid, int):
            raise _fail("cursor", "malformed")
        after = (value, fid)
    box = _bbox(bbox)
    table = analysis.table(row.data_key, row.fields)
    page = analysis.run(
        lambda job: tables.features(job.cursor, table, where=condition, sort=sort,
                                    descending=order == "desc", limit=limit, after=after,
                                    bbox=box),
        cancelled,
    )  # fmt: skip
    found = []
    for fid, geometry, props in page.rows:
        properties = orjson.loads(props)
        if shown is not None:
            properties = {name: properties.get(name) for name in shown}
        geometry_value = orjson.loads(geometry) if geometry else None
        found.append({"type": "Feature", "id": fid, "geometry": geometry_value,
                      "properties": properties})  # fmt: skip
    more = encode_cursor(list(page.after)) if page.after is not None else None
    return {
        "type": "FeatureCollection",
        "features": found,
        "meta": {"count": len(found), "nextCursor": more},
    }


def stats(
    db: Database,
    *,
    principal: Principal,
    analysis: Analysis,
    project_id: str,
    layer_id: str,
    field: str | None,
    where: str | None,
    cancelled: threading.Event | None = None,
) -> dict[str, Any]:
    """How many features pass the filter; with a field, its statistics over them."""
    row = _layer(db, principal, project_id, layer_id)
    condition = filters.from_query(where, row.fields)
    field = _field(row, field, "field")

    def work() -> dict[str, Any]:
        table = analysis.table(row.data_key, row.fields)
        return analysis.run(
            lambda job: tables.stats(job.cursor, table, field=field, where=condition), cancelled
        )

    return analysis.remembered((row.data_key, field or "", where or ""), work)
