"""Applying a planned batch: one handler per action type, all in the caller's transaction.

A handler changes what its action changes: the batch's view of the map state (`Batch.view`,
written once when the batch finishes) or the layer rows. Each applied action is appended to
the project's event log as an `action` event carrying the action, normalised: the plain type,
snake_case parameters, layer ids as UUIDs, and what the server decided (the stored style of
`update_layer_style`, the file that holds `add_geojson_layer`'s inline data instead of the
data itself). Adding an action type is one model (`models.py`) and one handler here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from maproom.domain import derive, files, history, layers, restore, styles
from maproom.domain.actions import effects
from maproom.domain.actions import models as m
from maproom.domain.actions.plan import Step
from maproom.domain.gate import touch
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Writer


@dataclass(frozen=True, slots=True)
class Stored:
    """Where a step's inline data went in the blob store."""

    file_id: str
    prefix: str
    size: int
    data_key: str
    stats_key: str | None
    stored: int  # bytes of every blob under `prefix`


@dataclass
class Batch:
    """What the actions of one batch are applied with, and what they leave."""

    tx: Writer
    project: Any  # the locked project row
    view: dict[str, Any]  # the map state as the batch leaves it
    blobs: BlobStore  # the layers' data (their field statistics, for classes)
    stored: dict[int, Stored] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    created: list[Any] = field(default_factory=list)  # layers added (or found: a tile URL)

    changed: set[str] = field(default_factory=set)  # layers given a new version already
    values: dict[str, Any] = field(default_factory=dict)  # other project columns (a title)

    def layer(self, step: Step) -> Any:
        """The row of the layer a step names (it exists: `plan` checked)."""
        return layers.row_of(self.tx, self.project.id, step.layer_id or "")

    def say(self, phrase: str) -> None:
        """Add to the summary of the version this batch makes ("hid Cafes")."""
        history.say(self.tx, self.project.id, phrase)

    def update_layer(self, row: Any, **values: Any) -> Any:
        """Change a layer: one new layer version per batch, however many actions change it."""
        bump = row.id not in self.changed
        self.changed.add(row.id)
        return layers.update_row(self.tx, row, bump=bump, **values)


def place(center: list[float]) -> str:
    """A center for summaries: `38.72° N, 9.14° W`."""
    lng, lat = center
    return f"{abs(lat):.2f}° {'N' if lat >= 0 else 'S'}, {abs(lng):.2f}° {'E' if lng >= 0 else 'W'}"


Handler = Callable[[Batch, Step], None]
HANDLERS: dict[str, Handler] = {}


def handles(*kinds: str) -> Callable[[Handler], Handler]:
    """Register a function as the handler of these action types."""

    def register(handler: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = handler
        return handler

    return register


def apply(batch: Batch, steps: list[Step]) -> None:
    """Apply every step in order; each makes one `action` event, logged by `finish`."""
    for step in steps:
        HANDLERS[step.kind](batch, step)
        event = step.event or step.action.payload()
        if step.layer_id is not None and "layer_id" in type(step.action).model_fields:
            event["layer_id"] = step.layer_id
        step.event = event


def finish(batch: Batch, **values: Any) -> Any:
    """Record the batch as one new project version (with any other project `values`) and its
    `action` events, in order."""
    if batch.view != batch.project.map_state:
        values["map_state"] = batch.view
    values = {**batch.values, **values}
    events = [("action", step.event) for step in batch.steps if step.event is not None]
    return touch(batch.tx, batch.project, events=events, **values)


# --- camera, basemap and masks: the map state (`effects.on_view`) -----------------------------


def _summary(view: dict[str, Any], step: Step) -> str:
    """How the version's summary tells a map-state change ("flew to 38.72° N, 9.14° W")."""
    action = step.action
    if isinstance(action, m.FlyTo | m.JumpTo):
        return f"{'flew' if step.kind == 'fly_to' else 'moved'} to {place(view['center'])}"
    if isinstance(action, m.ZoomIn | m.ZoomOut):
        return f"zoomed {'in' if step.kind == 'zoom_in' else 'out'} to {view['zoom']:g}"
    if isinstance(action, m.SetBasemapCategory):
        return f"changed the basemap's {action.category_key}"
    if isinstance(action, m.SetCountryMask):
        mask = view.get("countryMask")
        return f"masked all but {mask['countryName']}" if mask else "removed the country mask"
    if isinstance(action, m.SetCustomMask):
        return "set a custom mask" if view.get("customMask") else "removed the custom mask"
    return {
        "fit_bounds": f"fitted the view around {place(view['center'])}",
        "go_home": "reset the view",
        "pan": f"panned {getattr(action, 'direction', '')}",
        "set_basemap_style": f"switched the basemap to {view['basemap']['style']}",
    }[step.kind]


@handles(*effects.VIEW_ACTIONS)
def _view(batch: Batch, step: Step) -> None:
    view = effects.on_view(batch.view, step.action)
    batch.view = view
    batch.say(_summary(view, step))
    action = step.action
    if isinstance(action, m.FlyTo | m.JumpTo) and action.bearing is not None:
        step.event = action.payload() | {"bearing": view["bearing"]}
    elif isinstance(action, m.SetBasemapStyle):
        step.event = {"type": step.kind, "style": view["basemap"]["style"]}
        if action.categories is not None:
            step.event["categories"] = view["basemap"]["categories"]
    elif isinstance(action, m.SetCountryMask):
        mask = view["countryMask"]
        step.event = {"type": step.kind, "country_code": None}
        if mask is not None:
            step.event |= {
                "country_code": mask["countryCode"],
                "country_name": mask["countryName"],
                "visible": mask["visible"],
                "color": mask["color"],
            }
    elif isinstance(action, m.SetCustomMask):
        step.event = {"type": step.kind, **(view["customMask"] or {})}


@handles("zoom_to_layer")
def _zoom_to_layer(batch: Batch, step: Step) -> None:
    row = batch.layer(step)
    batch.view = effects.fit_layer(batch.view, row.bbox)
    batch.say(f"zoomed to {row.name}")


# --- layers ------------------------------------------------------------------------------------


@handles("add_geojson_layer")
def _add_geojson(batch: Batch, step: Step) -> None:
    action = step.action
    assert isinstance(action, m.AddGeojsonLayer)
    tx, project = batch.tx, batch.project
    if step.source is not None:
        src = step.source
        values = {
            "file_id": src.file_id, "geometry_type": src.geometry_type,
            "feature_count": src.feature_count, "streaming": src.streaming, "bbox": src.bbox,
            "data_key": src.data_key, "fields": src.fields, "stats_key": src.stats_key,
        }  # fmt: skip
    else:
        conversion, where = step.conversion, batch.stored[step.index]
        assert conversion is not None
        files.insert_file(
            tx, project.id, where.file_id, f"{action.name or action.layer_id}.geojson",
            "geojson", where.size, where.prefix, stored_bytes=where.stored, origin="inline",
        )  # fmt: skip
        values = {
            "file_id": where.file_id, "geometry_type": conversion.geometry_type,
            "feature_count": conversion.feature_count,
            "streaming": files.streaming_of(conversion),
            "bbox": list(conversion.bbox) if conversion.bbox else None,
            "data_key": where.data_key, "fields": conversion.fields,
            "stats_key": where.stats_key,
        }  # fmt: skip
    row = layers.insert_row(
        tx, project.id, id=step.layer_id, name=(action.name or action.layer_id)[:200],
        layer_type="geojson", visible=True, source="ai", **values,
    )  # fmt: skip
    if step.style is not None:
        row = _restyle(batch, step, row, styles.replace(row.style, step.style), step.style)
    batch.created.append(row)
    batch.say(f"added layer {row.name}")
    event = action.payload()
    event.pop("geojson", None)  # the data is in the project file, not in the event log
    step.event = {**event, "file_id": row.file_id, "layer_id": row.id}


@handles(*m.DERIVED)
def _add_derived(batch: Batch, step: Step) -> None:
    """A layer an analysis made (`maproom.domain.derive`): stored like inline data, with its
    `derivedFrom` and a style that suits it."""
    conversion, where = step.conversion, batch.stored[step.index]
    assert conversion is not None
    name = derive.name_of(step)
    files.insert_file(
        batch.tx, batch.project.id, where.file_id, f"{name}.geojson"[:255], "geojson",
        where.size, where.prefix, stored_bytes=where.stored, origin="inline",
    )  # fmt: skip
    row = layers.insert_row(
        batch.tx, batch.project.id, id=step.layer_id, name=name, layer_type="geojson",
        visible=True, source="ai", file_id=where.file_id,
        geometry_type=conversion.geometry_type, feature_count=conversion.feature_count,
        streaming=files.streaming_of(conversion),
        bbox=list(conversion.bbox) if conversion.bbox else None, data_key=where.data_key,
        fields=conversion.fields, stats_key=where.stats_key, derived_from=derive.record(step),
    )  # fmt: skip
    style, given = derive.style_of(step, row.geometry_type)
    row = _restyle(batch, step, row, style, given)
    batch.created.append(row)
    batch.say(f"made layer {name}")
    step.event = {**step.action.payload(), "layer_id": row.id, "file_id": row.file_id}


@handles("set_layer_filter")
def _set_filter(batch: Batch, step: Step) -> None:
    action = step.action
    assert isinstance(action, m.SetLayerFilter)
    row = batch.layer(step)
    style = {k: v for k, v in row.style.items() if k != "filter"}
    if action.filter is not None:
        style["filter"] = action.filter
    _restyle(batch, step, row, style, {"filter": action.filter})
    batch.say(f"filtered {row.name}" if action.filter is not None else f"showed all of {row.name}")


@handles("add_tile_layer", "add_cog_layer")
def _add_remote(batch: Batch, step: Step) -> None:
    action = step.action
    assert isinstance(action, m.AddTileLayer | m.AddCogLayer)
    if step.reuse is not None:
        batch.created.append(step.reuse)
        return
    kind = "cog" if step.kind == "add_cog_layer" else "tile"
    options = action.model_dump(
        include={"attribution", "opacity", "min_zoom", "max_zoom", "tile_size"}, exclude_none=True
    )
    row = layers.insert_row(
        batch.tx, batch.project.id, id=step.layer_id,
        name=(action.layer_name or action.layer_id or kind)[:200], layer_type=kind,
        geometry_type=None, visible=True, feature_count=None, streaming=False, source="ai",
        bbox=None, data_key=None, remote_url=action.url, options=options,
    )  # fmt: skip
    batch.created.append(row)
    batch.say(f"added layer {row.name}")


@handles("remove_layer")
def _remove(batch: Batch, step: Step) -> None:
    batch.say(f"removed {batch.layer(step).name}")
    layers.delete_rows(batch.tx, batch.project.id, [step.layer_id or ""])


@handles("clear_layers")
def _clear(batch: Batch, step: Step) -> None:
    rows = layers.rows_top_first(batch.tx, batch.project.id)
    gone = [row.id for row in rows if row.source == "ai"]
    layers.delete_rows(batch.tx, batch.project.id, gone)
    batch.say(f"removed {', '.join(row.name for row in rows if row.source == 'ai') or 'no layer'}")
    step.event = {"type": "clear_layers", "layer_ids": gone}


@handles("rename_layer")
def _rename(batch: Batch, step: Step) -> None:
    action = step.action
    assert isinstance(action, m.RenameLayer)
    row = batch.layer(step)
    batch.say(f"renamed {row.name} to {action.name}")
    batch.update_layer(row, **effects.layer_values(action))


@handles("set_layer_visibility")
def _visibility(batch: Batch, step: Step) -> None:
    action = step.action
    assert isinstance(action, m.SetLayerVisibility)
    row = batch.layer(step)
    batch.say(f"{'showed' if action.visible else 'hid'} {row.name}")
    batch.update_layer(row, **effects.layer_values(action))


@handles("move_layer_up", "move_layer_down")
def _move_layer(batch: Batch, step: Step) -> None:
    order = [row.id for row in layers.rows_top_first(batch.tx, batch.project.id)]
    moved = effects.order_after(order, step.action, step.layer_id or "")
    if moved != order:
        layers.set_order(batch.tx, batch.project.id, moved)
    batch.say(f"moved {batch.layer(step).name} {'up' if step.kind == 'move_layer_up' else 'down'}")


@handles("reorder_layers")
def _reorder(batch: Batch, step: Step) -> None:
    assert step.layer_ids is not None
    layers.set_order(batch.tx, batch.project.id, step.layer_ids)
    step.event = {"type": "reorder_layers", "layer_ids": step.layer_ids}
    batch.say("reordered the layers")


@handles("update_layer_style")
def _update_style(batch: Batch, step: Step) -> None:
    row = batch.layer(step)
    assert step.style is not None
    _restyle(batch, step, row, styles.replace(row.style, step.style), step.style)
    batch.say(f"restyled {row.name}")


def _restyle(
    batch: Batch, step: Step, row: Any, style: dict[str, Any], given: dict[str, Any]
) -> Any:
    """Store a layer's new style: its filter checked, its classes computed over the features
    the filter keeps (`layers.styled`)."""
    prefix = f"{step.where}.style" if step.kind != "set_layer_filter" else step.where
    final, values = layers.styled(batch.blobs, row, style, given, prefix)
    if step.kind == "update_layer_style":
        step.event = {"type": "update_layer_style", "layer_id": row.id, "style": final}
    return batch.update_layer(row, style=final, **values)


@handles("file_generated")
def _file_generated(batch: Batch, step: Step) -> None:
    """Nothing changes: viewers are told (the event is the whole effect)."""
    action = step.action
    assert isinstance(action, m.FileGenerated)
    batch.say(f"announced {action.file_name}")


# --- history -----------------------------------------------------------------------------------


@handles("undo", "redo")
def _undo_redo(batch: Batch, step: Step) -> None:
    """Undo: step the project back over the latest change not taken back; redo: over the
    latest undo not redone (`maproom.domain.restore`). Alone in its batch, so the project is
    as the history left it."""
    tx, project = batch.tx, batch.project
    undo = step.kind == "undo"
    target = restore.undo_target(tx, project) if undo else restore.redo_target(tx, project.id)
    state = restore.current(tx, project)
    state.step_back(target.before)
    made = restore.make(tx, project, state)
    batch.view = made.map_state
    if made.title != project.title:
        batch.values["title"] = made.title
    changes = history.noting(tx, project.id)
    changes.kind, changes.target = step.kind, target.version
    batch.say(f"{'undid' if undo else 'redid'} version {target.version}")
    step.event = {"type": step.kind, "version": target.version}
    if made.missing:
        step.event["missing_layers"] = made.missing
