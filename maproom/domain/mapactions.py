"""Map actions (spec 4.7, CONTRACT.md 5): validate a whole batch, then apply it all or nothing.

`dispatch` is what `POST .../map/actions` and the chat agent call. It works in three steps:

1. Parse every action (aliases `map.flyTo` / `map.fly_to` → `fly_to`) with its model, and walk
   the batch against the project's layers as they will be at that point (an action may use a
   layer an earlier one adds); any problem is a 400 whose `details` paths start `actions[i]`.
   Inline GeoJSON is converted here, into a scratch folder, so a bad one is a 400 too.
2. Store the converted files in the blob store.
3. Apply the actions in order in one write transaction, appending one `action` event each, and
   record the project change once (`touch`). If anything fails the transaction rolls back and
   the stored files are removed.

Layer ids: actions name layers by `layer_id`. A UUID is used as is; any other string is mapped
to a UUID derived from the project and that string (uuid5), so an agent may say
`"layer_id": "quakes"` in one action and refer to the same layer later.

Camera actions change the persisted map state as a 1024x768 viewer with 512-pixel tiles would
see it: `fit_bounds` and `zoom_to_layer` fit the box (minus padding), `pan` moves the center by
pixels at the current zoom, `zoom_in`/`zoom_out` step one level within 0..24.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from sqlalchemy import delete, update

from maproom import geo
from maproom.domain import files, layers, mapstate, styles
from maproom.domain.common import Given, new_id, parse_uuid
from maproom.domain.fetching import check_fetchable, check_scheme
from maproom.domain.keys import Principal
from maproom.domain.owned import get_or_raise, log_event, touch
from maproom.errors import BadRequest, MaproomError, invalid
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database, Writer
from maproom.storage.models import layers as layer_table

VIEW_WIDTH, VIEW_HEIGHT, TILE = 1024, 768, 512
MAX_ZOOM, MAX_LAT = 24.0, 85.0511287798066
LAYER_PADDING = 40

Lng = Annotated[float, Field(strict=True, ge=-180, le=180)]
Lat = Annotated[float, Field(strict=True, ge=-90, le=90)]
Zoom = Annotated[float, Field(strict=True, ge=0, le=24)]
Pixels = Annotated[float, Field(strict=True, ge=0, allow_inf_nan=False)]
Unit = Annotated[float, Field(strict=True, ge=0, le=1)]
Text = Annotated[str, Field(strict=True, min_length=1, max_length=200)]
LayerRef = Annotated[str, Field(strict=True, min_length=1, max_length=200)]
HexColor = mapstate.HexColor


class _Action(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: str


class Padding(BaseModel):
    model_config = ConfigDict(extra="forbid")
    top: Pixels = 0
    right: Pixels = 0
    bottom: Pixels = 0
    left: Pixels = 0


class FlyTo(_Action):
    center: tuple[Lng, Lat]
    zoom: Given[Zoom] = None
    bearing: Given[Annotated[float, Field(strict=True, allow_inf_nan=False)]] = None
    pitch: Given[Annotated[float, Field(strict=True, ge=0, le=85)]] = None


class JumpTo(_Action):
    center: tuple[Lng, Lat]
    zoom: Given[Zoom] = None


class FitBounds(_Action):
    bbox: tuple[Lng, Lat, Lng, Lat]
    padding: Given[Pixels | Padding] = None

    @field_validator("bbox")
    @classmethod
    def _ordered(cls, value: tuple[float, float, float, float]) -> tuple[float, ...]:
        if value[0] > value[2] or value[1] > value[3]:
            raise ValueError("bbox must be [minLng, minLat, maxLng, maxLat]")
        return value


class NoParams(_Action):
    pass


class Pan(_Action):
    direction: Literal["up", "down", "left", "right", "north", "south", "west", "east"]
    amount: Given[Annotated[float, Field(strict=True, gt=0, le=100_000)]] = None


class OnLayer(_Action):
    layer_id: LayerRef


class AddGeojsonLayer(OnLayer):
    geojson: Given[dict[str, Any] | str] = None
    file_id: Given[Annotated[str, Field(strict=True)]] = None
    session_id: Given[str] = None
    file_path: Given[str] = None
    layer_type: Given[Literal["geojson"]] = None
    name: Given[Text] = None
    columns: Given[list[Annotated[str, Field(strict=True)]]] = None
    style: Given[dict[str, Any]] = None


class AddTileLayer(_Action):
    url: Annotated[str, Field(strict=True, max_length=2000)]
    layer_id: Given[LayerRef] = None
    layer_name: Given[Text] = None
    attribution: Given[Annotated[str, Field(strict=True, max_length=500)]] = None
    opacity: Given[Unit] = None
    min_zoom: Given[Zoom] = None
    max_zoom: Given[Zoom] = None
    tile_size: Given[Annotated[int, Field(strict=True, ge=64, le=1024)]] = None


class AddCogLayer(OnLayer):
    url: Annotated[str, Field(strict=True, max_length=2000)]
    layer_name: Given[Text] = None
    opacity: Given[Unit] = None
    min_zoom: Given[Zoom] = None
    max_zoom: Given[Zoom] = None


class RenameLayer(OnLayer):
    name: Text


class SetLayerVisibility(OnLayer):
    visible: Annotated[bool, Field(strict=True)]


class UpdateLayerStyle(OnLayer):
    style: dict[str, Any]


class SetBasemapStyle(_Action):
    style: Annotated[str, Field(strict=True, max_length=2000)]

    @field_validator("style")
    @classmethod
    def _style(cls, value: str) -> str:
        return mapstate.basemap_style(value)


class SetBasemapCategory(_Action):
    category_key: mapstate.CategoryKey
    color: Given[HexColor] = None
    visible: Given[Annotated[bool, Field(strict=True)]] = None


class SetCountryMask(_Action):
    country_code: Annotated[str, Field(strict=True, min_length=2, max_length=3)]
    visible: Given[Annotated[bool, Field(strict=True)]] = None
    color: Given[HexColor] = None


class SetCustomMask(_Action):
    geojson: dict[str, Any] | str | None = None
    color: Given[HexColor] = None


class FileGenerated(_Action):
    file_id: Annotated[str, Field(strict=True)]
    file_name: Annotated[str, Field(strict=True)]
    description: Given[str] = None
    url: Given[str] = None


MODELS: dict[str, type[_Action]] = {
    "fly_to": FlyTo,
    "jump_to": JumpTo,
    "fit_bounds": FitBounds,
    "go_home": NoParams,
    "zoom_in": NoParams,
    "zoom_out": NoParams,
    "pan": Pan,
    "zoom_to_layer": OnLayer,
    "add_geojson_layer": AddGeojsonLayer,
    "add_tile_layer": AddTileLayer,
    "add_cog_layer": AddCogLayer,
    "remove_layer": OnLayer,
    "rename_layer": RenameLayer,
    "set_layer_visibility": SetLayerVisibility,
    "move_layer_up": OnLayer,
    "move_layer_down": OnLayer,
    "update_layer_style": UpdateLayerStyle,
    "set_basemap_style": SetBasemapStyle,
    "set_basemap_category": SetBasemapCategory,
    "set_country_mask": SetCountryMask,
    "set_custom_mask": SetCustomMask,
    "file_generated": FileGenerated,
    "clear_layers": NoParams,
}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


ALIASES = {f"map.{name}": name for name in MODELS} | {f"map.{_camel(n)}": n for n in MODELS}


def normalise_type(value: Any) -> str | None:
    """The plain action type of a type or alias, or None."""
    if not isinstance(value, str):
        return None
    return value if value in MODELS else ALIASES.get(value)


@dataclass
class _Planned:
    """One validated action, with what applying it needs."""

    index: int
    kind: str
    action: Any
    layer_id: str | None = None
    conversion: geo.Conversion | None = None
    inline_name: str | None = None
    source_row: Any = None
    style: dict[str, Any] | None = None
    reuse_layer: Any = None


@dataclass
class _Layers:
    """The project's layers as the batch will have them, top first: id -> source."""

    order: list[str]
    source: dict[str, str]
    rows: dict[str, Any] = field(default_factory=dict)


def layer_uuid(project_id: str, ref: str) -> str:
    """A layer reference as a layer id (see the module docstring)."""
    return parse_uuid(ref) or str(uuid.uuid5(uuid.UUID(project_id), ref))


def _fail(i: int, path: str, message: str) -> BadRequest:
    where = f"actions[{i}].{path}" if path else f"actions[{i}]"
    return BadRequest(
        f"Invalid action actions[{i}]: {message}", details=[{"path": where, "message": message}]
    )


def dispatch(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    actions: Any,
    base: str,
    fetch_allowlist: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Validate and apply a batch of map actions; `{ok, dispatched, layers}`."""
    if not isinstance(actions, list) or not actions:
        raise BadRequest(
            "actions must be a non-empty array",
            details=[{"path": "actions", "message": "at least one action is required"}],
        )
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        rows = layers.rows_top_first(tx, project.id)
        file_rows = {row.id: row for row in tx.all(files.PROJECT_FILES, project_id=project.id)}
    state = _Layers(
        order=[row.id for row in rows],
        source={row.id: row.source for row in rows},
        rows={row.id: row for row in rows},
    )
    workdir = Path(tempfile.mkdtemp(dir=blobs.scratch_dir()))
    written: list[str] = []
    try:
        plan = [
            _plan(i, raw, project.id, state, file_rows, workdir, fetch_allowlist)
            for i, raw in enumerate(actions)
        ]
        stored = _store(plan, blobs, project.id, written)
        with db.write() as wtx:
            current = get_or_raise(wtx, principal=principal, project_id=project.id, lock=True)
            created = _apply(wtx, current, plan, stored)
        return {
            "ok": True,
            "dispatched": len(plan),
            "layers": [{"layer_id": row.id, "url": layers.data_url(base, row)} for row in created],
        }
    except BaseException:
        for key in written:
            blobs.delete(key)
        raise
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _plan(
    i: int,
    raw: Any,
    project_id: str,
    state: _Layers,
    file_rows: dict[str, Any],
    workdir: Path,
    fetch_allowlist: tuple[str, ...],
) -> _Planned:
    if not isinstance(raw, dict):
        raise _fail(i, "", "each action must be an object")
    kind = normalise_type(raw.get("type"))
    if kind is None:
        raise _fail(i, "type", f"unknown action type {raw.get('type')!r}")
    try:
        action = MODELS[kind].model_validate(raw)
    except ValidationError as exc:
        raise invalid(exc.errors(), f"actions[{i}]") from None
    step = _Planned(i, kind, action)
    try:
        _check(step, project_id, state, file_rows, workdir, fetch_allowlist)
    except MaproomError as exc:
        if (
            isinstance(exc, BadRequest)
            and exc.details
            and str(exc.details[0]["path"]).startswith("actions[")
        ):
            raise
        raise _fail(i, "", exc.message) from None
    return step


def _check(
    step: _Planned,
    project_id: str,
    state: _Layers,
    file_rows: dict[str, Any],
    workdir: Path,
    fetch_allowlist: tuple[str, ...],
) -> None:
    i, kind, action = step.index, step.kind, step.action
    ref = getattr(action, "layer_id", None)
    if ref is not None:
        step.layer_id = layer_uuid(project_id, ref)
    adds = kind in ("add_geojson_layer", "add_cog_layer") or (kind == "add_tile_layer" and ref)
    if adds:
        if step.layer_id in state.source:
            raise _fail(i, "layer_id", f"a layer {ref!r} already exists")
    elif ref is not None and step.layer_id not in state.source:
        raise _fail(i, "layer_id", f"no layer {ref!r} in this project")
    if kind == "add_geojson_layer":
        _check_geojson_layer(step, file_rows, state, workdir)
    elif kind in ("add_tile_layer", "add_cog_layer"):
        url = action.url
        check_scheme(url, f"actions[{i}].url")
        if kind == "add_cog_layer":
            check_fetchable(url, fetch_allowlist, f"actions[{i}].url")
        elif not ref:
            dupe = next(
                (r for r in state.rows.values() if r is not None and r.remote_url == url), None
            )
            step.reuse_layer = dupe
            step.layer_id = dupe.id if dupe is not None else new_id()
    elif kind == "update_layer_style":
        step.style = styles.parse_full(action.style, f"actions[{i}].style")
    elif kind == "set_country_mask":
        try:
            mapstate.country_name(action.country_code.upper())
        except ValueError as exc:
            raise _fail(i, "country_code", str(exc)) from None
    elif kind == "set_custom_mask" and action.geojson is not None:
        try:
            mapstate.geojson_text(action.geojson)
        except ValueError as exc:
            raise _fail(i, "geojson", str(exc)) from None
    # The layers as they will be after this action.
    if adds or (kind == "add_tile_layer" and step.reuse_layer is None):
        assert step.layer_id is not None
        state.order.insert(0, step.layer_id)
        state.source[step.layer_id] = "ai"
        state.rows.setdefault(step.layer_id, None)
    elif kind == "remove_layer":
        state.order.remove(step.layer_id or "")
        state.source.pop(step.layer_id or "", None)
        state.rows.pop(step.layer_id or "", None)
    elif kind == "clear_layers":
        for layer_id in [lid for lid, source in state.source.items() if source == "ai"]:
            state.order.remove(layer_id)
            state.source.pop(layer_id)
            state.rows.pop(layer_id, None)


def _check_geojson_layer(
    step: _Planned, file_rows: dict[str, Any], state: _Layers, workdir: Path
) -> None:
    i, action = step.index, step.action
    if (action.geojson is None) == (action.file_id is None):
        raise _fail(i, "geojson", "give exactly one of geojson or file_id")
    if action.style is not None:
        step.style = styles.parse_full(action.style, f"actions[{i}].style")
    if action.file_id is not None:
        row = file_rows.get(parse_uuid(action.file_id) or "")
        backing = next(
            (
                r
                for r in state.rows.values()
                if r is not None
                and r.file_id == (row.id if row else None)
                and r.layer_type == "geojson"
            ),
            None,
        )
        if row is None or backing is None:
            raise _fail(i, "file_id", "no GeoJSON-convertible file with this id in the project")
        step.source_row = backing
        return
    document = action.geojson
    if isinstance(document, str):
        try:
            document = orjson.loads(document)
        except orjson.JSONDecodeError:
            raise _fail(i, "geojson", "not valid JSON") from None
    if action.columns is not None:
        document = _keep_columns(document, set(action.columns))
    folder = workdir / str(i)
    folder.mkdir()
    source = folder / "inline.geojson"
    source.write_bytes(orjson.dumps(document))
    try:
        step.conversion = geo.convert(source, "geojson", folder)
    except geo.GeoError as exc:
        raise _fail(i, "geojson", exc.message) from None
    step.inline_name = source.name


def _keep_columns(document: Any, keep: set[str]) -> Any:
    def trim(feature: Any) -> Any:
        if isinstance(feature, dict) and isinstance(feature.get("properties"), dict):
            props = feature["properties"]
            return {**feature, "properties": {k: v for k, v in props.items() if k in keep}}
        return feature

    if isinstance(document, dict) and isinstance(document.get("features"), list):
        return {**document, "features": [trim(f) for f in document["features"]]}
    return trim(document)


@dataclass
class _Stored:
    file_id: str
    prefix: str
    size: int
    data_key: str


def _store(
    plan: list[_Planned], blobs: BlobStore, project_id: str, written: list[str]
) -> dict[int, _Stored]:
    stored: dict[int, _Stored] = {}
    for step in plan:
        conversion = step.conversion
        if conversion is None or conversion.output is None:
            continue
        file_id = new_id()
        prefix = f"p/{project_id}/{file_id}"
        original = conversion.output.parent / "inline.geojson"
        size = blobs.put_file(f"{prefix}/original", original)
        written.append(f"{prefix}/original")
        data_key = f"{prefix}/{conversion.output.name}"
        blobs.put_file(data_key, conversion.output)
        written.append(data_key)
        stored[step.index] = _Stored(file_id, prefix, size, data_key)
    return stored


@dataclass
class _Batch:
    """What the actions of one batch are applied with, and what they created."""

    tx: Writer
    project: Any
    stored: dict[int, _Stored]
    created: list[Any] = field(default_factory=list)


def _apply(tx: Writer, project: Any, plan: list[_Planned], stored: dict[int, _Stored]) -> list[Any]:
    batch = _Batch(tx, project, stored)
    view = dict(project.map_state)
    for step in plan:
        payload = {"type": step.kind, **step.action.model_dump(exclude={"type"}, exclude_none=True)}
        if step.layer_id is not None:
            payload["layer_id"] = step.layer_id
        handler = APPLY.get(step.kind)
        if handler is not None:
            view = handler(batch, step, view) or view
        log_event(tx, project.id, "action", payload)
    touch(tx, project, map_state=view)
    return batch.created


# An action's effect: on the batch's transaction, and/or a new view (None: view unchanged).
Handler = Callable[[_Batch, _Planned, dict[str, Any]], dict[str, Any] | None]


def _camera(update_view: Callable[[dict[str, Any], _Planned], dict[str, Any]]) -> Handler:
    def handle(batch: _Batch, step: _Planned, view: dict[str, Any]) -> dict[str, Any]:
        return update_view(view, step)

    return handle


def _fly(view: dict[str, Any], step: _Planned) -> dict[str, Any]:
    a = step.action
    out = {**view, "center": list(a.center)}
    if a.zoom is not None:
        out["zoom"] = a.zoom
    if getattr(a, "bearing", None) is not None:
        out["bearing"] = mapstate.normalise_bearing(a.bearing)
    if getattr(a, "pitch", None) is not None:
        out["pitch"] = a.pitch
    return out


def _mercator(lng: float, lat: float) -> tuple[float, float]:
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    x = (lng + 180) / 360
    y = 0.5 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / (2 * math.pi)
    return x, y


def _unmercator(x: float, y: float) -> tuple[float, float]:
    lng = x * 360 - 180
    lat = math.degrees(2 * math.atan(math.exp((0.5 - y) * 2 * math.pi)) - math.pi / 2)
    return lng, lat


def fit(
    bbox: tuple[float, float, float, float] | list[float], padding: Any
) -> tuple[list[float], float]:
    """Center and zoom showing `bbox` in the 1024x768 viewport minus `padding`."""
    pad = (
        padding
        if isinstance(padding, Padding)
        else Padding(top=padding or 0, right=padding or 0, bottom=padding or 0, left=padding or 0)
    )
    x1, y1 = _mercator(bbox[0], bbox[3])
    x2, y2 = _mercator(bbox[2], bbox[1])
    width = max(1.0, VIEW_WIDTH - pad.left - pad.right)
    height = max(1.0, VIEW_HEIGHT - pad.top - pad.bottom)
    spans = [(x2 - x1) * TILE, (y2 - y1) * TILE]
    scale = min(
        width / spans[0] if spans[0] > 0 else math.inf,
        height / spans[1] if spans[1] > 0 else math.inf,
    )
    zoom = min(MAX_ZOOM, 16.0) if math.isinf(scale) else max(0.0, min(MAX_ZOOM, math.log2(scale)))
    lng, lat = _unmercator((x1 + x2) / 2, (y1 + y2) / 2)
    return [round(lng, 7), round(lat, 7)], round(zoom, 4)


def _fit_bounds(view: dict[str, Any], step: _Planned) -> dict[str, Any]:
    center, zoom = fit(step.action.bbox, step.action.padding)
    return {**view, "center": center, "zoom": zoom}


def _home(view: dict[str, Any], step: _Planned) -> dict[str, Any]:
    home = mapstate.DEFAULT_MAP_STATE
    return {**view, **{k: home[k] for k in ("center", "zoom", "bearing", "pitch")}}


def _zoom_by(delta: float) -> Callable[[dict[str, Any], _Planned], dict[str, Any]]:
    def change(view: dict[str, Any], step: _Planned) -> dict[str, Any]:
        return {**view, "zoom": max(0.0, min(MAX_ZOOM, float(view.get("zoom", 0)) + delta))}

    return change


PAN = {
    "up": (0, -1), "north": (0, -1), "down": (0, 1), "south": (0, 1),
    "left": (-1, 0), "west": (-1, 0), "right": (1, 0), "east": (1, 0),
}  # fmt: skip


def _pan(view: dict[str, Any], step: _Planned) -> dict[str, Any]:
    amount = step.action.amount or 256
    dx, dy = PAN[step.action.direction]
    world = TILE * 2 ** float(view.get("zoom", 0))
    x, y = _mercator(*view["center"])
    x = (x + dx * amount / world) % 1.0
    y = max(0.0, min(1.0, y + dy * amount / world))
    lng, lat = _unmercator(x, y)
    return {**view, "center": [round(lng, 7), round(max(-85.06, min(85.06, lat)), 7)]}


def _zoom_to_layer(batch: _Batch, step: _Planned, view: dict[str, Any]) -> dict[str, Any]:
    row = layers.row_of(batch.tx, batch.project.id, step.layer_id or "")
    if not row.bbox:
        return view
    center, zoom = fit(row.bbox, LAYER_PADDING)
    return {**view, "center": center, "zoom": zoom}


def _add_geojson(batch: _Batch, step: _Planned, view: dict[str, Any]) -> None:
    tx, project = batch.tx, batch.project
    action = step.action
    if step.source_row is not None:
        src = step.source_row
        values = {
            "file_id": src.file_id, "layer_type": "geojson", "geometry_type": src.geometry_type,
            "feature_count": src.feature_count, "streaming": src.streaming, "bbox": src.bbox,
            "data_key": src.data_key,
        }  # fmt: skip
    else:
        conversion, where = step.conversion, batch.stored[step.index]
        assert conversion is not None
        name = f"{action.name or action.layer_id}.geojson"
        files.insert_file(
            tx,
            project.id,
            where.file_id,
            name,
            "geojson",
            where.size,
            where.prefix,
            origin="inline",
        )
        values = {
            "file_id": where.file_id, "layer_type": "geojson",
            "geometry_type": conversion.geometry_type, "feature_count": conversion.feature_count,
            "streaming": files.streaming_of(conversion),
            "bbox": list(conversion.bbox) if conversion.bbox else None, "data_key": where.data_key,
        }  # fmt: skip
    row = layers.insert_row(
        tx, project.id, id=step.layer_id, name=(action.name or action.layer_id)[:200],
        visible=True, source="ai", **values,
    )  # fmt: skip
    if step.style is not None:
        row = layers.update_row(tx, row, style=styles.replace(row.style, step.style))
    batch.created.append(row)


def _add_remote(batch: _Batch, step: _Planned, view: dict[str, Any]) -> None:
    tx, project = batch.tx, batch.project
    if step.reuse_layer is not None:
        batch.created.append(step.reuse_layer)
        return
    action = step.action
    kind = "cog" if step.kind == "add_cog_layer" else "tile"
    options = action.model_dump(
        include={"attribution", "opacity", "min_zoom", "max_zoom", "tile_size"}, exclude_none=True
    )
    row = layers.insert_row(
        tx, project.id, id=step.layer_id, name=(action.layer_name or action.layer_id or kind)[:200],
        layer_type=kind, geometry_type=None, visible=True, feature_count=None, streaming=False,
        source="ai", bbox=None, data_key=None, remote_url=action.url, options=options,
    )  # fmt: skip
    batch.created.append(row)


def _layer_change(field_of: Callable[[Any, _Planned], dict[str, Any]]) -> Handler:
    """An action that updates one existing layer: `field_of(row, step)` gives the new values."""

    def handle(batch: _Batch, step: _Planned, view: dict[str, Any]) -> None:
        row = layers.row_of(batch.tx, batch.project.id, step.layer_id or "")
        layers.update_row(batch.tx, row, **field_of(row, step))

    return handle


def _remove(batch: _Batch, step: _Planned, view: dict[str, Any]) -> None:
    batch.tx.execute(delete(layer_table).where(layer_table.c.id == step.layer_id))


def _clear(batch: _Batch, step: _Planned, view: dict[str, Any]) -> None:
    batch.tx.execute(
        delete(layer_table).where(
            layer_table.c.project_id == batch.project.id, layer_table.c.source == "ai"
        )
    )


def _move(direction: int) -> Handler:
    def handle(batch: _Batch, step: _Planned, view: dict[str, Any]) -> None:
        tx = batch.tx
        order = [row.id for row in layers.rows_top_first(tx, batch.project.id)]
        at = order.index(step.layer_id or "")
        to = at - direction  # up: toward index 0 (the top)
        if 0 <= to < len(order):
            order[at], order[to] = order[to], order[at]
            top = len(order) - 1
            for i, layer_id in enumerate(order):
                tx.execute(
                    update(layer_table).where(layer_table.c.id == layer_id).values(position=top - i)
                )

    return handle


def _basemap(view: dict[str, Any], step: _Planned) -> dict[str, Any]:
    basemap = dict(view.get("basemap") or {"style": "light", "categories": {}})
    if step.kind == "set_basemap_style":
        basemap["style"] = step.action.style
    else:
        categories = dict(basemap.get("categories") or {})
        entry = dict(categories.get(step.action.category_key) or {})
        entry.update(step.action.model_dump(include={"color", "visible"}, exclude_none=True))
        categories[step.action.category_key] = entry
        basemap["categories"] = categories
    return {**view, "basemap": basemap}


def _country_mask(view: dict[str, Any], step: _Planned) -> dict[str, Any]:
    a = step.action
    fields = {"countryCode": a.country_code}
    fields |= a.model_dump(include={"visible", "color"}, exclude_none=True)
    mask = mapstate.CountryMask.model_validate(fields).model_dump(mode="json")
    return {**view, "countryMask": mask}


def _custom_mask(view: dict[str, Any], step: _Planned) -> dict[str, Any]:
    a = step.action
    if a.geojson is None:
        return {**view, "customMask": None}
    mask = {"geojson": mapstate.geojson_text(a.geojson), "color": a.color or "#000000"}
    return {**view, "customMask": mask}


APPLY: dict[str, Handler] = {
    "fly_to": _camera(_fly),
    "jump_to": _camera(_fly),
    "fit_bounds": _camera(_fit_bounds),
    "go_home": _camera(_home),
    "zoom_in": _camera(_zoom_by(1)),
    "zoom_out": _camera(_zoom_by(-1)),
    "pan": _camera(_pan),
    "zoom_to_layer": _zoom_to_layer,
    "add_geojson_layer": _add_geojson,
    "add_tile_layer": _add_remote,
    "add_cog_layer": _add_remote,
    "remove_layer": _remove,
    "rename_layer": _layer_change(lambda row, s: {"name": s.action.name}),
    "set_layer_visibility": _layer_change(lambda row, s: {"visible": s.action.visible}),
    "move_layer_up": _move(1),
    "move_layer_down": _move(-1),
    "update_layer_style": _layer_change(
        lambda row, s: {"style": styles.replace(row.style, s.style or {})}
    ),
    "set_basemap_style": _camera(_basemap),
    "set_basemap_category": _camera(_basemap),
    "set_country_mask": _camera(_country_mask),
    "set_custom_mask": _camera(_custom_mask),
    "clear_layers": _clear,
}
