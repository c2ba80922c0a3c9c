"""Planning a batch: every action checked against the project's layers as the batch will have
them at that point, before anything is applied.

An action may use a layer that an earlier action of the batch adds, and may not use one that
an earlier action removed. `plan` walks the batch over a `LayerSet` (the project's layers,
changed as each action would change them) and returns one `Step` per action with what applying
it needs: the layer id it names, a validated style, the layer a repeated tile URL already is...
Any problem is a 400 naming `actions[i]`. `plan` runs inside the write transaction that then
applies the steps, so what it checked still holds when they apply.

Layer references: a `layer_id` that is a UUID is used as is; any other string names the layer
`uuid5(project id, string)` in this project, so `"layer_id": "quakes"` means the same layer in
every later action (docs/api-decisions.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maproom import geo
from maproom.domain import filters, styles
from maproom.domain.actions import models as m
from maproom.domain.common import new_id, parse_uuid
from maproom.errors import BadRequest, MaproomError


@dataclass
class Step:
    """One validated action of a batch, with what applying it needs."""

    index: int
    action: m.BaseAction
    layer_id: str | None = None  # the layer the action names or makes
    layer_ids: list[str] | None = None  # reorder_layers: the new order, top first
    style: dict[str, Any] | None = None  # a validated whole style
    source: Any = None  # add_geojson_layer from a file: the layer whose data it shares
    reuse: Any = None  # add_tile_layer: the layer that already has this URL
    inline: Path | None = None  # add_geojson_layer: the inline GeoJSON, written to a file
    conversion: geo.Conversion | None = None  # ... and what converting it made
    sources: dict[str, Any] = field(default_factory=dict)  # a derived layer's inputs' rows
    event: dict[str, Any] | None = None  # what the live stream hears (set when applied)

    @property
    def where(self) -> str:
        """The step's path in error details: `actions[i]`."""
        return f"actions[{self.index}]"

    @property
    def kind(self) -> str:
        """The action's plain type."""
        return self.action.type


@dataclass
class LayerSet:
    """A project's layers as a batch leaves them: ids top first, each one's row (None for a
    layer the batch adds) and source."""

    order: list[str]
    rows: dict[str, Any]
    source: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, rows: Iterable[Any]) -> LayerSet:
        """The layers of these rows (top first)."""
        rows = list(rows)
        return cls([r.id for r in rows], {r.id: r for r in rows}, {r.id: r.source for r in rows})

    def add(self, layer_id: str) -> None:
        """A layer the batch adds, on top."""
        self.order.insert(0, layer_id)
        self.rows[layer_id] = None
        self.source[layer_id] = "ai"

    def remove(self, layer_id: str) -> None:
        """A layer the batch removes."""
        self.order.remove(layer_id)
        self.rows.pop(layer_id, None)
        self.source.pop(layer_id, None)


ALONE = ("undo", "redo")  # they act on the history, which a batch's other actions would change


def layer_uuid(project_id: str, ref: str) -> str:
    """A layer reference as a layer id (see the module docstring)."""
    return parse_uuid(ref) or str(uuid.uuid5(uuid.UUID(project_id), ref))


def check_permutation(given: list[str], current: list[str], prefix: str = "") -> None:
    """400 unless `given` lists every id of `current` exactly once (a new draw order)."""
    base = f"{prefix}.layer_ids" if prefix else "layer_ids"
    problems: list[dict[str, str]] = []
    seen: set[str] = set()
    for i, layer_id in enumerate(given):
        if layer_id in seen:
            problems.append({"path": f"{base}[{i}]", "message": "duplicate layer id"})
        elif layer_id not in current:
            problems.append({"path": f"{base}[{i}]", "message": "not a layer of this project"})
        seen.add(layer_id)
    missing = [layer_id for layer_id in current if layer_id not in seen]
    if missing:
        problems.append({"path": base, "message": f"missing layers: {', '.join(missing)}"})
    if problems or not given:
        raise BadRequest(
            "layer_ids must list every layer of the project exactly once, top first",
            details=problems or [{"path": base, "message": "must not be empty"}],
        )


def plan(
    actions: list[m.BaseAction],
    *,
    project_id: str,
    layers: LayerSet,
    files: dict[str, Any],
    prepared: dict[int, Step] | None = None,
) -> list[Step]:
    """Check a parsed batch in order (see the module docstring); `prepared` holds steps whose
    inline data was converted beforehand."""
    steps = []
    for index, action in enumerate(actions):
        if action.type in ALONE and len(actions) > 1:
            raise m.fail(f"actions[{index}]", f"{action.type} must be alone in its batch")
        step = (prepared or {}).get(index) or Step(index, action)
        try:
            _check(step, project_id, layers, files)
        except MaproomError as exc:
            raise _at(step, exc) from None
        steps.append(step)
    return steps


def _at(step: Step, exc: MaproomError) -> MaproomError:
    """An error about a step, with its paths under `actions[i]`."""
    details = exc.details if isinstance(exc, BadRequest) else None
    ours = isinstance(details, list) and bool(details)
    if ours and all(str(d.get("path", "")).startswith(step.where) for d in details or ()):
        return exc
    return m.fail(step.where, exc.message)


def _check(step: Step, project_id: str, layers: LayerSet, files: dict[str, Any]) -> None:
    action = step.action
    ref = action.__dict__.get("layer_id")  # (getattr of a missing field is slow in pydantic)
    if ref is not None:
        step.layer_id = layer_uuid(project_id, ref)
    use = action.layers
    if use == "derives":
        _derived(step, project_id, layers)
        return
    if use == "existing" and step.layer_id not in layers.rows:
        raise m.fail(f"{step.where}.layer_id", f"no layer {ref!r} in this project")
    if use in ("new", "new_or_same_url") and ref is not None and step.layer_id in layers.rows:
        raise m.fail(f"{step.where}.layer_id", f"a layer {ref!r} already exists")
    check = CHECKS.get(step.kind)
    if check is not None:
        check(step, project_id, layers, files)
    if use == "new" or (use == "new_or_same_url" and step.reuse is None):
        if step.layer_id is None:
            step.layer_id = new_id()
        layers.add(step.layer_id)
    elif step.kind == "remove_layer" and step.layer_id is not None:
        layers.remove(step.layer_id)
    elif step.kind == "clear_layers":
        for layer_id in [lid for lid, source in layers.source.items() if source == "ai"]:
            layers.remove(layer_id)
    elif step.kind == "reorder_layers" and step.layer_ids is not None:
        layers.order = list(step.layer_ids)


# The roles of a derived layer's inputs: (parameter, geometry it must have, or None for any).
_INPUTS = {
    "aggregate_points": (("points_layer_id", "Point"), ("polygons_layer_id", "Polygon")),
    "clip_layer": (("layer_id", None), ("to_layer_id", "Polygon")),
}


def _derived(step: Step, project_id: str, layers: LayerSet) -> None:
    """A derived layer's inputs: GeoJSON layers the project had before the batch, of the
    geometry each role needs; then its own new layer."""
    action = step.action
    for name, geometry in _INPUTS.get(step.kind, (("layer_id", None),)):
        ref = action.__dict__.get(name)
        if ref is None:
            continue
        layer_id = layer_uuid(project_id, ref)
        row = layers.rows.get(layer_id)
        where = f"{step.where}.{name}"
        if layer_id not in layers.rows:
            raise m.fail(where, f"no layer {ref!r} in this project")
        if row is None or row.layer_type != "geojson" or row.data_key is None:
            raise m.fail(
                where, "an analysis needs a vector layer the project had before this batch"
            )
        if geometry is not None and row.geometry_type != geometry:
            raise m.fail(where, f"needs a {geometry} layer; {row.name!r} is {row.geometry_type}")
        step.sources[name] = row
    _derived_fields(step)
    step.layer_id = new_id()
    layers.add(step.layer_id)


def _derived_fields(step: Step) -> None:
    action = step.action
    if isinstance(action, m.AggregatePoints) and action.field is not None:
        _numeric_field(step.sources["points_layer_id"], action.field, f"{step.where}.field")
    if isinstance(action, m.DissolveLayer) and action.field is not None:
        _numeric_field(step.sources["layer_id"], action.field, f"{step.where}.field", any_kind=True)
    if isinstance(action, m.FilterToLayer):
        filters.check(action.filter, step.sources["layer_id"].fields, f"{step.where}.filter")


def _numeric_field(row: Any, name: str, where: str, any_kind: bool = False) -> None:
    found = {f["name"]: f["type"] for f in row.fields or []}
    if name not in found:
        listing = ", ".join(found) or "none"
        raise m.fail(where, f"{row.name!r} has no field {name!r}; its fields: {listing}")
    if not any_kind and found[name] != "number":
        numeric = ", ".join(k for k, v in found.items() if v == "number") or "none"
        raise m.fail(where, f"{name!r} holds no numbers; the numeric fields: {numeric}")


def _set_filter(step: Step, project_id: str, layers: LayerSet, files: dict[str, Any]) -> None:
    action = step.action
    assert isinstance(action, m.SetLayerFilter)
    row = layers.rows.get(step.layer_id or "")
    if action.filter is not None:
        filters.check(action.filter, row.fields if row is not None else None,
                      f"{step.where}.filter")  # fmt: skip


Check = Callable[[Step, str, LayerSet, dict[str, Any]], None]


def _geojson_layer(step: Step, project_id: str, layers: LayerSet, files: dict[str, Any]) -> None:
    action = step.action
    assert isinstance(action, m.AddGeojsonLayer)
    if action.style is not None:
        step.style = styles.parse_full(action.style, f"{step.where}.style")
    if action.file_id is None:
        return  # inline data: converted before the transaction (`actions.execute`)
    row = files.get(parse_uuid(action.file_id) or "")
    step.source = next(
        (
            r
            for r in layers.rows.values()
            if r is not None
            and row is not None
            and r.file_id == row.id
            and r.layer_type == "geojson"
        ),
        None,
    )
    if step.source is None:
        message = "no GeoJSON-convertible file with this id in the project"
        raise m.fail(f"{step.where}.file_id", message)


def _tile_layer(step: Step, project_id: str, layers: LayerSet, files: dict[str, Any]) -> None:
    action = step.action
    assert isinstance(action, m.AddTileLayer)
    if action.layer_id is None:
        step.reuse = next(
            (r for r in layers.rows.values() if r is not None and r.remote_url == action.url),
            None,
        )
        if step.reuse is not None:
            step.layer_id = step.reuse.id


def _style(step: Step, project_id: str, layers: LayerSet, files: dict[str, Any]) -> None:
    action = step.action
    assert isinstance(action, m.UpdateLayerStyle)
    step.style = styles.parse_full(action.style, f"{step.where}.style")


def _reorder(step: Step, project_id: str, layers: LayerSet, files: dict[str, Any]) -> None:
    action = step.action
    assert isinstance(action, m.ReorderLayers)
    step.layer_ids = [layer_uuid(project_id, ref) for ref in action.layer_ids]
    check_permutation(step.layer_ids, layers.order, step.where)


CHECKS: dict[str, Check] = {
    "add_geojson_layer": _geojson_layer,
    "add_tile_layer": _tile_layer,
    "update_layer_style": _style,
    "reorder_layers": _reorder,
    "set_layer_filter": _set_filter,
}
