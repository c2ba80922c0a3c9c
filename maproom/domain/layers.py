"""Layers: list items, details, rename/visibility, delete, reorder, style (api-decisions.md).

Draw order is a `position` per layer, higher drawn on top; the API shows it as `order`, 0 for
the top layer. Every change to a layer is also a change to its project (the project's body
lists its layers), so it bumps the project's version and `updatedAt` as well as the layer's.
"""

from __future__ import annotations

import hashlib
import tempfile
import threading
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import bindparam, delete, func, select, update

from maproom.domain import classification, filters, history, styles
from maproom.domain.common import iso, new_id, require_uuid, utcnow
from maproom.domain.gate import Versioned, get_or_raise, touch
from maproom.domain.keys import Principal
from maproom.domain.usage import add_stored
from maproom.errors import NotFound
from maproom.geo.fields import STATS_NAME, Profile, profile_geojson
from maproom.geo.filters import predicate
from maproom.limits import MAX_ZOOM
from maproom.storage import scratch
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import files, layers

TOP_FIRST = (layers.c.position.desc(), layers.c.created_at.desc(), layers.c.id)
PROJECT_LAYERS = Prepared(
    select(layers, files.c.file_type, files.c.file_size)
    .select_from(layers.outerjoin(files, files.c.id == layers.c.file_id))
    .where(layers.c.project_id == bindparam("project_id"))
    .order_by(*TOP_FIRST)
)
UNPROFILED = Prepared(
    select(layers.c.project_id, layers.c.id, layers.c.data_key, layers.c.file_id).where(
        layers.c.layer_type == "geojson",
        layers.c.data_key.is_not(None),
        layers.c.stats_key.is_(None),
    )
)
VECTOR_MAX_ZOOM = 14
"""The deepest vector tile a client asks for; it draws deeper zooms from those (overzoom)."""
LAYER = Prepared(
    select(layers).where(
        layers.c.id == bindparam("id"), layers.c.project_id == bindparam("project_id")
    )
)


def list_item(row: Any) -> dict[str, Any]:
    """A layer list item (docs/api-decisions.md)."""
    return {
        "layer_id": row.id,
        "name": row.name,
        "layer_type": row.layer_type,
        "geometry_type": row.geometry_type,
        "visible": row.visible,
        "feature_count": row.feature_count,
        "file_id": row.file_id,
        "streaming": row.streaming,
    }


def filter_of(row: Any) -> dict[str, Any] | None:
    """The filter of a layer's style (which features it draws), or None."""
    style = row.style if isinstance(row.style, dict) else {}
    found = style.get("filter")
    return found if isinstance(found, dict) else None


def filter_tag(where: dict[str, Any] | None) -> str:
    """A short tag of a filter, for cache keys and URLs (a new filter, new URLs: a browser
    never shows tiles cut for another one)."""
    if where is None:
        return ""
    return hashlib.sha256(orjson.dumps(where, option=orjson.OPT_SORT_KEYS)).hexdigest()[:12]


def data_url(base: str, row: Any) -> str | None:
    """Where a viewer fetches a layer's data, under `base` (the project's URL for that viewer);
    a filtered layer's URL carries its filter's tag."""
    url = _data_url(base, row)
    tag = filter_tag(filter_of(row)) if row.layer_type == "geojson" else ""
    return f"{url}?f={tag}" if url and tag else url


def _data_url(base: str, row: Any) -> str | None:
    if row.layer_type == "cog" and (row.data_key or row.remote_url):
        # Browsers cannot read a COG: the server cuts tiles from it (a remote one too).
        return f"{base}/layers/{row.id}/tiles/{{z}}/{{x}}/{{y}}.png"
    if row.remote_url:
        return str(row.remote_url)
    if row.data_key is None:
        return None
    if row.layer_type == "cog":
        return f"{base}/layers/{row.id}/tiles/{{z}}/{{x}}/{{y}}.png"
    if row.streaming:
        return f"{base}/layers/{row.id}/tiles/{{z}}/{{x}}/{{y}}.pbf"
    return f"{base}/layers/{row.id}/data"


def detail(row: Any, order: int, base: str) -> dict[str, Any]:
    """The full layer record (docs/api-decisions.md)."""
    return {
        **list_item(row),
        "order": order,
        "style": row.style,
        "bbox": row.bbox,
        "source": row.source,
        "url": data_url(base, row),
        "legendItems": styles.legend_items(row.style, row.geometry_type),
        "fields": row.fields,
        "filteredFeatureCount": (
            row.filtered_count if filter_of(row) is not None else row.feature_count
        ),
        "derivedFrom": row.derived_from,
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
    }


def drawn(tx: Tx, project_id: str, base: str) -> list[dict[str, Any]]:
    """Every layer's detail with its drawing options (a raster's tile size, opacity, zooms),
    top first: what a map page or a compiled style draws."""
    rows = rows_top_first(tx, project_id)
    return [{**detail(row, order, base), "options": row.options} for order, row in enumerate(rows)]


def tilejson(row: Any, base: str) -> dict[str, Any]:
    """TileJSON 3.0 of a layer's tiles under `base` (docs/open-formats.md): vector tiles with
    one source layer, `layer`, and its fields; a raster's image tiles."""
    vector = row.layer_type == "geojson"
    tiles = f"{base}/layers/{row.id}/tiles/{{z}}/{{x}}/{{y}}." + ("pbf" if vector else "png")
    tag = filter_tag(filter_of(row)) if vector else ""
    west, south, east, north = row.bbox or (-180.0, -85.051129, 180.0, 85.051129)
    found: dict[str, Any] = {
        "tilejson": "3.0.0",
        "name": row.name,
        "scheme": "xyz",
        "tiles": [f"{tiles}?f={tag}" if tag else tiles],
        "minzoom": 0,
        "maxzoom": VECTOR_MAX_ZOOM if vector else MAX_ZOOM,
        "bounds": [west, south, east, north],
        "center": [(west + east) / 2, (south + north) / 2, 0],
    }
    if vector:
        kinds = {"number": "Number", "string": "String", "boolean": "Boolean"}
        fields = {f["name"]: kinds.get(f["type"], "Mixed") for f in row.fields or []}
        found["vector_layers"] = [
            {"id": "layer", "fields": fields, "minzoom": 0, "maxzoom": VECTOR_MAX_ZOOM}
        ]
    attribution = (row.options or {}).get("attribution")
    if attribution:
        found["attribution"] = str(attribution)
    return found


def rows_top_first(tx: Tx, project_id: str) -> list[Any]:
    """The project's layer rows (with their file's type and size), top first."""
    return tx.all(PROJECT_LAYERS, project_id=project_id)


def items(tx: Tx, project_id: str) -> list[dict[str, Any]]:
    """The project's layer list items, top first."""
    return [list_item(row) for row in rows_top_first(tx, project_id)]


def details(tx: Tx, project_id: str, base: str) -> list[dict[str, Any]]:
    """Every layer's detail, top first."""
    return [detail(row, i, base) for i, row in enumerate(rows_top_first(tx, project_id))]


def row_of(tx: Tx, project_id: str, layer_id: str) -> Any:
    """The project's layer row, or NotFound."""
    return _get(tx, project_id, layer_id)


def _get(tx: Tx, project_id: str, layer_id: str) -> Any:
    row = tx.one(LAYER, id=require_uuid(layer_id, "Layer"), project_id=project_id)
    if row is None:
        raise NotFound("Layer not found")
    return row


IDS_TOP_FIRST = Prepared(
    select(layers.c.id).where(layers.c.project_id == bindparam("project_id")).order_by(*TOP_FIRST)
)


def _ids_top_first(tx: Tx, project_id: str) -> list[str]:
    return [row.id for row in tx.all(IDS_TOP_FIRST, project_id=project_id)]


def _order_of(tx: Tx, project_id: str, layer_id: str) -> int:
    ids = [row.id for row in rows_top_first(tx, project_id)]
    return ids.index(layer_id)


def list_for_project(db: Database, *, principal: Principal, project_id: str) -> list[Any]:
    """`GET .../layers`: list items, top first."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        return items(tx, project.id)


def read(
    db: Database, *, principal: Principal, project_id: str, layer_id: str, base: str
) -> Versioned:
    """`GET .../layers/{layerId}`: the detail and its version."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        row = _get(tx, project.id, layer_id)
        return Versioned(detail(row, _order_of(tx, project.id, row.id), base), row.version)


def insert(tx: Writer, project: Any, **values: Any) -> Any:
    """Add a layer on top of the project's others (a project change); returns its row."""
    row = insert_row(tx, project.id, **values)
    history.say(tx, project.id, f"added layer {row.name}")
    touch(tx, project, event=("layer", {"op": "added", "layer_id": row.id}))
    return row


def insert_row(tx: Writer, project_id: str, **values: Any) -> Any:
    """The layer row alone, on top; the caller records the project change (`touch`). Given
    `position`, `version` and moments (a layer coming back from history) keep theirs."""
    history.note_order(tx, project_id, lambda: _ids_top_first(tx, project_id))
    top = tx.execute(
        select(func.max(layers.c.position)).where(layers.c.project_id == project_id)
    ).scalar()
    now = utcnow()
    layer_id = values.pop("id", None) or new_id()
    history.note_layer(tx, project_id, None, layer_id)
    values.setdefault("style", styles.default_style(values["layer_type"], values["geometry_type"]))
    values.setdefault("options", {})
    values = {
        "position": (top + 1) if top is not None else 0,
        "version": 1,
        "created_at": now,
        "updated_at": now,
        **values,
    }
    tx.execute(layers.insert().values(id=layer_id, project_id=project_id, **values))
    return _get(tx, project_id, layer_id)


def update_row(tx: Writer, row: Any, *, bump: bool = True, **values: Any) -> Any:
    """Change a layer row (as a new layer version unless `bump` is false: a second change in
    one transaction); the caller records the project change."""
    history.note_layer(tx, row.project_id, row, row.id)
    if bump:
        values["version"] = row.version + 1
    tx.execute(
        update(layers)
        .where(layers.c.project_id == row.project_id, layers.c.id == row.id)
        .values(**values, updated_at=utcnow())
    )
    return _get(tx, row.project_id, row.id)


def delete_rows(tx: Writer, project_id: str, layer_ids: list[str]) -> None:
    """Delete layers of a project (their files stay); the caller records the project change."""
    if layer_ids:
        rows = tx.execute(
            select(layers).where(layers.c.project_id == project_id, layers.c.id.in_(layer_ids))
        ).all()
        history.note_order(tx, project_id, lambda: _ids_top_first(tx, project_id))
        for row in rows:
            history.note_layer(tx, project_id, row, row.id)
        tx.execute(
            delete(layers).where(layers.c.project_id == project_id, layers.c.id.in_(layer_ids))
        )


def set_order(tx: Writer, project_id: str, layer_ids: list[str]) -> None:
    """Give the project's layers this draw order (every id once, top first)."""
    history.note_order(tx, project_id, lambda: _ids_top_first(tx, project_id))
    top = len(layer_ids) - 1
    for i, layer_id in enumerate(layer_ids):
        tx.execute(
            update(layers)
            .where(layers.c.project_id == project_id, layers.c.id == layer_id)
            .values(position=top - i)
        )


def field_profile(
    blobs: BlobStore, row: Any, where: dict[str, Any] | None = None
) -> Profile | None:
    """A GeoJSON layer's field statistics (None for rasters and remote layers); read from its
    stored profile, or gathered from its data when it has none yet; with a filter, gathered
    from the features it keeps (one pass over the layer, in bounded memory)."""
    if row.layer_type != "geojson" or row.data_key is None:
        return None
    if where is not None:
        return profile_geojson(blobs.local_path(row.data_key), keep=predicate(where))
    if row.stats_key is not None:
        return Profile.load(blobs.local_path(row.stats_key))
    return profile_geojson(blobs.local_path(row.data_key))


def styled(
    blobs: BlobStore, row: Any, style: dict[str, Any], given: dict[str, Any], prefix: str = ""
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A layer's new style with its filter checked against the layer's fields and its classes
    computed over the features the filter keeps; and the layer values that go with it (how
    many features the filter keeps)."""
    where = style.get("filter")
    if "filter" in given and where is not None:
        filters.check(where, row.fields, f"{prefix}.filter" if prefix else "filter")
    profile = field_profile(blobs, row, where)
    final = classification.classify(
        style,
        given=given,
        profile=profile,
        geometry_type=row.geometry_type,
        prefix=prefix,
        refilter="filter" in given,
    )
    kept = profile.rows if where is not None and profile is not None else None
    return final, {"filtered_count": kept}


def profile_missing(db: Database, blobs: BlobStore, stop: threading.Event | None = None) -> int:
    """Store the field statistics of every GeoJSON layer that has none (layers made before
    maproom kept them), until `stop` is set; returns how many were done. Safe to run while
    serving."""
    done = 0
    with db.reader() as tx:
        pending = [(r.project_id, r.id, r.data_key, r.file_id) for r in tx.all(UNPROFILED)]
    for project_id, layer_id, data_key, file_id in pending:
        if stop is not None and stop.is_set():
            break
        profile = profile_geojson(blobs.local_path(data_key))
        stats_key = f"{data_key.rsplit('/', 1)[0]}/{STATS_NAME}"
        with tempfile.TemporaryDirectory(dir=scratch.folder()) as work:
            path = Path(work) / STATS_NAME
            profile.save(path)
            size = blobs.put_file(stats_key, path)
        with db.write() as wtx:
            wtx.execute(
                update(layers)
                .where(layers.c.project_id == project_id, layers.c.id == layer_id)
                .values(fields=profile.summary(), stats_key=stats_key)
            )
            if file_id is not None:
                add_stored(wtx, file_id, size)
        done += 1
    return done


def data_of(db: Database, *, principal: Principal, project_id: str, layer_id: str) -> Any:
    """The layer row whose data a viewer asks for (NotFound when it has none stored)."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        row = _get(tx, project.id, layer_id)
    if row.data_key is None and not (row.layer_type == "cog" and row.remote_url):
        raise NotFound("This layer has no stored data")
    return row
