"""Layers: list items, details, rename/visibility, delete, reorder and style (spec 2.3, 4.3).

Draw order is a `position` per layer, higher drawn on top; the API shows it as `order`, 0 for
the top layer. Every change to a layer is also a change to its project (the project's body
lists its layers), so it bumps the project's version and `updatedAt` as well as the layer's.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, delete, func, select, update

from maproom.domain import styles
from maproom.domain.common import check_version, iso, new_id, require_uuid, utcnow
from maproom.domain.keys import Principal
from maproom.domain.owned import Versioned, get_or_raise, touch
from maproom.errors import BadRequest, NotFound
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import files, layers

TOP_FIRST = (layers.c.position.desc(), layers.c.created_at.desc(), layers.c.id)
PROJECT_LAYERS = Prepared(
    select(layers, files.c.file_type, files.c.file_size)
    .select_from(layers.outerjoin(files, files.c.id == layers.c.file_id))
    .where(layers.c.project_id == bindparam("project_id"))
    .order_by(*TOP_FIRST)
)
LAYER = Prepared(
    select(layers).where(
        layers.c.id == bindparam("id"), layers.c.project_id == bindparam("project_id")
    )
)


def list_item(row: Any) -> dict[str, Any]:
    """A layer list item (spec 2.3)."""
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


def data_url(base: str, row: Any) -> str | None:
    """Where a viewer fetches a layer's data, under `base` (the project's URL for that viewer)."""
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
    """The full layer record (CONTRACT.md 4)."""
    return {
        **list_item(row),
        "order": order,
        "style": row.style,
        "bbox": row.bbox,
        "source": row.source,
        "url": data_url(base, row),
        "legendItems": styles.legend_items(row.style, row.geometry_type),
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
    }


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
    touch(tx, project, event=("layer", {"op": "added", "layer_id": row.id}))
    return row


def insert_row(tx: Writer, project_id: str, **values: Any) -> Any:
    """The layer row alone, on top; the caller records the project change (`touch`)."""
    top = tx.execute(
        select(func.max(layers.c.position)).where(layers.c.project_id == project_id)
    ).scalar()
    now = utcnow()
    layer_id = values.pop("id", None) or new_id()
    values.setdefault("style", styles.default_style(values["layer_type"], values["geometry_type"]))
    values.setdefault("options", {})
    tx.execute(
        layers.insert().values(
            id=layer_id,
            project_id=project_id,
            position=(top + 1) if top is not None else 0,
            version=1,
            created_at=now,
            updated_at=now,
            **values,
        )
    )
    return _get(tx, project_id, layer_id)


def update_row(tx: Writer, row: Any, **values: Any) -> Any:
    """Change a layer row as a new layer version; the caller records the project change."""
    tx.execute(
        update(layers)
        .where(layers.c.id == row.id)
        .values(**values, version=row.version + 1, updated_at=utcnow())
    )
    return _get(tx, row.project_id, row.id)


def _change(tx: Writer, project: Any, row: Any, **values: Any) -> Any:
    row = update_row(tx, row, **values)
    touch(tx, project, event=("layer", {"op": "updated", "layer_id": row.id, **values}))
    return row


def patch(
    db: Database,
    *,
    principal: Principal,
    project_id: str,
    layer_id: str,
    changes: dict[str, Any],
    if_match: frozenset[str] | None,
    base: str,
) -> Versioned:
    """Rename a layer or change its visibility."""
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, lock=True)
        row = _get(tx, project.id, layer_id)
        check_version(row.version, if_match)
        values = {k: v for k, v in changes.items() if getattr(row, k) != v}
        if values:
            row = _change(tx, project, row, **values)
        return Versioned(detail(row, _order_of(tx, project.id, row.id), base), row.version)


def set_style(
    db: Database,
    *,
    principal: Principal,
    project_id: str,
    layer_id: str,
    style_patch: dict[str, Any],
    if_match: frozenset[str] | None,
) -> Versioned:
    """Merge a partial style into the layer's (spec 4.3); returns the whole merged style."""
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, lock=True)
        row = _get(tx, project.id, layer_id)
        check_version(row.version, if_match)
        merged = styles.merge(row.style, style_patch)
        if merged != row.style:
            row = _change(tx, project, row, style=merged)
        return Versioned(row.style, row.version)


def remove(db: Database, *, principal: Principal, project_id: str, layer_id: str) -> None:
    """Delete a layer (its file, if any, stays)."""
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, lock=True)
        row = _get(tx, project.id, layer_id)
        tx.execute(delete(layers).where(layers.c.id == row.id))
        touch(tx, project, event=("layer", {"op": "removed", "layer_ids": [row.id]}))


def reorder(
    db: Database,
    *,
    principal: Principal,
    project_id: str,
    layer_ids: list[str],
    if_match: frozenset[str] | None,
) -> None:
    """Replace the draw order: `layer_ids` must be a permutation of the layers, top first."""
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, lock=True)
        check_version(project.version, if_match)
        current = [row.id for row in rows_top_first(tx, project.id)]
        _check_permutation(layer_ids, current)
        if layer_ids == current:
            return
        top = len(layer_ids) - 1
        for i, layer_id in enumerate(layer_ids):
            tx.execute(update(layers).where(layers.c.id == layer_id).values(position=top - i))
        touch(tx, project, event=("layer", {"op": "reordered", "layer_ids": layer_ids}))


def _check_permutation(given: list[str], current: list[str]) -> None:
    problems: list[dict[str, str]] = []
    seen: set[str] = set()
    for i, layer_id in enumerate(given):
        if layer_id in seen:
            problems.append({"path": f"layer_ids[{i}]", "message": "duplicate layer id"})
        elif layer_id not in current:
            problems.append({"path": f"layer_ids[{i}]", "message": "not a layer of this project"})
        seen.add(layer_id)
    missing = [layer_id for layer_id in current if layer_id not in seen]
    if missing:
        problems.append({"path": "layer_ids", "message": f"missing layers: {', '.join(missing)}"})
    if problems or not given:
        raise BadRequest(
            "layer_ids must list every layer of the project exactly once, top first",
            details=problems or [{"path": "layer_ids", "message": "must not be empty"}],
        )


def data_of(db: Database, *, principal: Principal, project_id: str, layer_id: str) -> Any:
    """The layer row whose data a viewer asks for (NotFound when it has none stored)."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        row = _get(tx, project.id, layer_id)
    if row.data_key is None and not (row.layer_type == "cog" and row.remote_url):
        raise NotFound("This layer has no stored data")
    return row
