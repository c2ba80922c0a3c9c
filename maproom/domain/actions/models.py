"""The map actions (docs/actions.md, docs/actions.md): one Pydantic model per type, and their union.

Every change to a map goes through these models: `POST .../map/actions`, the REST edits that
do the same thing (`maproom.domain.edits`), the chat agent and the MCP server. `parse` reads
one action as a client wrote it:

- the type may be an alias: `map.` + the camelCase or the snake_case of the type
  (`map.flyTo`, `map.fly_to`), normalised to the plain type;
- parameters may be written in camelCase (`layerId`, `countryCode`), as the legacy `map.`
  clients did, normalised to snake_case; giving both spellings of one parameter is a 400;
- unknown parameters are ignored; values are strictly typed (no `"10"` for a number).

Field types are shared with the project PATCH body (`maproom.domain.mapstate`), so a value
gets the same bounds and the same message whichever way it arrives. Each model declares how it
uses layers (`layers`): not at all, an existing one, a new one, or, for `add_tile_layer`, a new
one unless its URL is already a layer. A 400's `details` paths read `actions[i].param`.

Beyond the spec's parameters (documented in docs/actions.md): `jump_to` takes `bearing` and
`pitch`; `zoom_in`/`zoom_out` take `levels` (default 1); `set_basemap_style` takes `categories`
(replacing the overrides whole); `set_country_mask` takes `country_name`, and a null
`country_code` removes the mask; `reorder_layers` sets the whole draw order (the action behind
`PUT .../layers/order`).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    model_validator,
)

from maproom.domain.attribution import clean as clean_attribution
from maproom.domain.common import Given
from maproom.domain.mapstate import (
    BasemapCategory,
    BasemapStyle,
    Bearing,
    CategoryKey,
    Center,
    CountryCode,
    CountryName,
    HexColor,
    Lng,
    MaskGeoJSON,
    Pitch,
    Zoom,
)
from maproom.domain.urlpolicy import check_url
from maproom.errors import BadRequest, invalid
from maproom.limits import MAX_ZOOM

LayerUse = Literal["none", "existing", "new", "new_or_same_url", "derives"]

Pixels = Annotated[float, Field(strict=True, ge=0, le=100_000, allow_inf_nan=False)]
Unit = Annotated[float, Field(strict=True, ge=0, le=1)]
BoxLat = Annotated[float, Field(strict=True, ge=-90, le=90)]
LayerName = Annotated[str, Field(strict=True, min_length=1, max_length=200)]
LayerRef = Annotated[
    str,
    Field(
        strict=True,
        min_length=1,
        max_length=200,
        description="A layer id (UUID), or any other name: it names the layer "
        "uuid5(project id, name) in this project",
    ),
]
Url = Annotated[
    str,
    Field(
        strict=True,
        max_length=2000,
        description="http(s); no credentials; not localhost or a private address",
    ),
    AfterValidator(check_url),
]
Levels = Annotated[
    float, Field(strict=True, gt=0, le=MAX_ZOOM, description="Zoom levels; default 1")
]
Style = Annotated[
    dict[str, Any],
    Field(description="A layer style (docs/styles.md; schema `LayerStyle`)"),
]


def camel(name: str) -> str:
    """`fly_to` -> `flyTo`."""
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def spellings(kind: str) -> list[str]:
    """Every accepted spelling of an action type: the plain type first, then its aliases."""
    return list(dict.fromkeys([kind, f"map.{camel(kind)}", f"map.{kind}"]))


def _document(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """List a type's aliases in its schema, and its example."""
    kind = action_type(model)
    schema["properties"]["type"] = {
        "type": "string",
        "enum": spellings(kind),
        "description": f"`{kind}` (or an alias, normalised to it)",
    }
    example = getattr(model, "example", None)
    if example is not None:
        schema["examples"] = [example]


class BaseAction(BaseModel):
    """What every action shares: its `type`."""

    model_config = ConfigDict(extra="ignore", json_schema_extra=_document)
    type: str
    layers: ClassVar[LayerUse] = "none"
    example: ClassVar[dict[str, Any] | None] = None

    def payload(self) -> dict[str, Any]:
        """The action as published on the live stream: normalised, without omitted fields."""
        return self.model_dump(mode="json", exclude_none=True)


class _OnLayer(BaseAction):
    layers: ClassVar[LayerUse] = "existing"
    layer_id: LayerRef


class Padding(BaseModel):
    """Pixels kept free at each edge when fitting a box."""

    model_config = ConfigDict(extra="forbid")
    top: Pixels = 0
    right: Pixels = 0
    bottom: Pixels = 0
    left: Pixels = 0


class _Move(BaseAction):
    center: Center
    zoom: Given[Zoom] = None
    bearing: Given[Bearing] = None
    pitch: Given[Pitch] = None


class FlyTo(_Move):
    """Animated move to a center."""

    type: Literal["fly_to"]
    example: ClassVar = {"type": "fly_to", "center": [-9.14, 38.72], "zoom": 11}


class JumpTo(_Move):
    """Move without animation (also what a PATCH of the view publishes)."""

    type: Literal["jump_to"]
    example: ClassVar = {"type": "jump_to", "center": [2.35, 48.86], "zoom": 12}


class FitBounds(BaseAction):
    """Fit the view to a bounding box (in a 1024x768 viewer)."""

    type: Literal["fit_bounds"]
    bbox: tuple[Lng, BoxLat, Lng, BoxLat] = Field(description="[minLng, minLat, maxLng, maxLat]")
    padding: Given[Pixels | Padding] = None
    example: ClassVar = {"type": "fit_bounds", "bbox": [-9.5, 36.9, -6.2, 42.2], "padding": 20}

    @model_validator(mode="after")
    def _ordered(self) -> FitBounds:
        if self.bbox[0] > self.bbox[2] or self.bbox[1] > self.bbox[3]:
            raise ValueError("bbox must be [minLng, minLat, maxLng, maxLat]")
        return self


class GoHome(BaseAction):
    """Reset to the default world view (basemap and masks stay)."""

    type: Literal["go_home"]
    example: ClassVar = {"type": "go_home"}


class ZoomIn(BaseAction):
    """Zoom in one level (or `levels`)."""

    type: Literal["zoom_in"]
    levels: Given[Levels] = None
    example: ClassVar = {"type": "zoom_in"}


class ZoomOut(BaseAction):
    """Zoom out one level (or `levels`)."""

    type: Literal["zoom_out"]
    levels: Given[Levels] = None
    example: ClassVar = {"type": "zoom_out", "levels": 2}


class Pan(BaseAction):
    """Pan in a direction by `amount` pixels (default 256) at the current zoom."""

    type: Literal["pan"]
    direction: Literal["up", "down", "left", "right", "north", "south", "west", "east"]
    amount: Given[Annotated[float, Field(strict=True, gt=0, le=100_000)]] = None
    example: ClassVar = {"type": "pan", "direction": "east", "amount": 300}


class ZoomToLayer(_OnLayer):
    """Fit the view to a layer's extent."""

    type: Literal["zoom_to_layer"]
    example: ClassVar = {"type": "zoom_to_layer", "layer_id": "cities"}


class AddGeojsonLayer(BaseAction):
    """Add a GeoJSON layer from inline data or from a project file that backs one."""

    type: Literal["add_geojson_layer"]
    layers: ClassVar[LayerUse] = "new"
    layer_id: LayerRef
    geojson: Given[dict[str, Any] | str] = Field(
        None, description="A GeoJSON object or its JSON text (stored as a project file)"
    )
    file_id: Given[Annotated[str, Field(strict=True)]] = None
    session_id: Given[str] = Field(None, description="Accepted and ignored")
    file_path: Given[str] = Field(None, description="Accepted and ignored")
    layer_type: Given[Literal["geojson"]] = None
    name: Given[LayerName] = None
    columns: Given[list[Annotated[str, Field(strict=True)]]] = Field(
        None, description="Property names to keep (inline data)"
    )
    style: Given[Style] = Field(None, description="A whole style; replaces the default")
    example: ClassVar = {
        "type": "add_geojson_layer",
        "layer_id": "harbours",
        "name": "Harbours",
        "geojson": {
            "type": "FeatureCollection",
            "features": [
                {
                    "type": "Feature",
                    "geometry": {"type": "Point", "coordinates": [-9.1, 38.7]},
                    "properties": {"name": "Lisbon"},
                }
            ],
        },
    }

    @model_validator(mode="after")
    def _one_source(self) -> AddGeojsonLayer:
        if (self.geojson is None) == (self.file_id is None):
            raise ValueError("give exactly one of geojson or file_id")
        return self


class AddTileLayer(BaseAction):
    """Add a raster tile layer (`{z}/{x}/{y}` URL); without `layer_id`, a URL the project
    already has answers with that layer."""

    type: Literal["add_tile_layer"]
    layers: ClassVar[LayerUse] = "new_or_same_url"
    url: Url
    layer_id: Given[LayerRef] = None
    layer_name: Given[LayerName] = None
    attribution: Given[
        Annotated[
            str,
            Field(strict=True, max_length=500, description="Text with at most http(s) links"),
            AfterValidator(clean_attribution),
        ]
    ] = None
    opacity: Given[Unit] = None
    min_zoom: Given[Zoom] = None
    max_zoom: Given[Zoom] = None
    tile_size: Given[Annotated[int, Field(strict=True, ge=64, le=1024)]] = None
    example: ClassVar = {
        "type": "add_tile_layer",
        "url": "https://tile.example.com/{z}/{x}/{y}.png",
        "layer_name": "Hillshade",
        "attribution": "Example tiles",
    }


class AddCogLayer(BaseAction):
    """Add a Cloud-Optimized GeoTIFF layer; maproom cuts its tiles."""

    type: Literal["add_cog_layer"]
    layers: ClassVar[LayerUse] = "new"
    url: Url
    layer_id: LayerRef
    layer_name: Given[LayerName] = None
    opacity: Given[Unit] = None
    min_zoom: Given[Zoom] = None
    max_zoom: Given[Zoom] = None
    example: ClassVar = {
        "type": "add_cog_layer",
        "layer_id": "elevation",
        "url": "https://data.example.com/dem.tif",
    }


class RemoveLayer(_OnLayer):
    """Remove a layer (its file stays)."""

    type: Literal["remove_layer"]
    example: ClassVar = {"type": "remove_layer", "layer_id": "cities"}


class RenameLayer(_OnLayer):
    """Rename a layer."""

    type: Literal["rename_layer"]
    name: LayerName
    example: ClassVar = {"type": "rename_layer", "layer_id": "cities", "name": "Big cities"}


class SetLayerVisibility(_OnLayer):
    """Show or hide a layer."""

    type: Literal["set_layer_visibility"]
    visible: StrictBool
    example: ClassVar = {"type": "set_layer_visibility", "layer_id": "cities", "visible": False}


class MoveLayerUp(_OnLayer):
    """Draw a layer one place higher (toward the top); at the top nothing changes."""

    type: Literal["move_layer_up"]
    example: ClassVar = {"type": "move_layer_up", "layer_id": "cities"}


class MoveLayerDown(_OnLayer):
    """Draw a layer one place lower; at the bottom nothing changes."""

    type: Literal["move_layer_down"]
    example: ClassVar = {"type": "move_layer_down", "layer_id": "cities"}


class ReorderLayers(BaseAction):
    """Set the whole draw order: every layer once, top first (as `PUT .../layers/order`)."""

    type: Literal["reorder_layers"]
    layer_ids: list[LayerRef] = Field(min_length=1)
    example: ClassVar = {"type": "reorder_layers", "layer_ids": ["cities", "regions"]}


class UpdateLayerStyle(_OnLayer):
    """Replace a layer's style (the style endpoint merges instead); the server classifies
    graduated, categorized and interpolated renderers that name a `field` without classes."""

    type: Literal["update_layer_style"]
    style: Style
    example: ClassVar = {
        "type": "update_layer_style",
        "layer_id": "regions",
        "style": {
            "renderer": {
                "type": "graduated",
                "field": "population",
                "method": "quantile",
                "classes": 5,
                "ramp": "YlOrRd",
            }
        },
    }


class SetBasemapStyle(BaseAction):
    """Switch the basemap; `categories`, when given, replaces the category overrides."""

    type: Literal["set_basemap_style"]
    style: BasemapStyle
    categories: Given[dict[CategoryKey, BasemapCategory]] = None
    example: ClassVar = {"type": "set_basemap_style", "style": "dark"}


class SetBasemapCategory(BaseAction):
    """Override one basemap category's colour or visibility."""

    type: Literal["set_basemap_category"]
    category_key: CategoryKey
    color: Given[HexColor] = None
    visible: Given[StrictBool] = None
    example: ClassVar = {"type": "set_basemap_category", "category_key": "roads", "visible": False}


class SetCountryMask(BaseAction):
    """Shade everything outside a country; `country_code: null` removes the mask."""

    type: Literal["set_country_mask"]
    country_code: CountryCode | None
    country_name: Given[CountryName] = None
    visible: Given[StrictBool] = None
    color: Given[HexColor] = None
    example: ClassVar = {"type": "set_country_mask", "country_code": "PT", "color": "#1f2937"}


class SetCustomMask(BaseAction):
    """Shade everything outside a polygon; without `geojson` the mask is removed."""

    type: Literal["set_custom_mask"]
    geojson: MaskGeoJSON | None = None
    color: Given[HexColor] = None
    example: ClassVar = {
        "type": "set_custom_mask",
        "geojson": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]},
    }


class FileGenerated(BaseAction):
    """Tell viewers that a file or report was generated."""

    type: Literal["file_generated"]
    file_id: Annotated[str, Field(strict=True, max_length=200)]
    file_name: Annotated[str, Field(strict=True, max_length=255)]
    description: Given[Annotated[str, Field(strict=True, max_length=2000)]] = None
    url: Given[Url] = None
    example: ClassVar = {
        "type": "file_generated",
        "file_id": "3f0c8a4e-7f57-4b6e-9e55-0d1c1b7b2a10",
        "file_name": "summary.html",
        "description": "Weekly summary",
    }


class ClearLayers(BaseAction):
    """Remove every layer an action or a chat turn made (source `ai`)."""

    type: Literal["clear_layers"]
    example: ClassVar = {"type": "clear_layers"}


Filter = Annotated[
    dict[str, Any],
    Field(description="A condition {field, op, value?} or {all|any: [...]} (docs/analysis.md)"),
]
NewName = Annotated[str, Field(strict=True, min_length=1, max_length=200)]


class SetLayerFilter(_OnLayer):
    """Draw only the features a filter keeps (null: all of them); the layer's classes and
    legend follow the features kept."""

    type: Literal["set_layer_filter"]
    filter: Filter | None
    example: ClassVar = {
        "type": "set_layer_filter",
        "layer_id": "cities",
        "filter": {"field": "population", "op": ">", "value": 1000000},
    }


class _Derives(BaseAction):
    """An analysis that adds one new layer (source `ai`, `derivedFrom` its inputs)."""

    layers: ClassVar[LayerUse] = "derives"
    name: Given[NewName] = None


class BufferLayer(_Derives):
    """A new layer of every feature grown by a distance (geodesic)."""

    type: Literal["buffer_layer"]
    layer_id: LayerRef
    distance: Annotated[float, Field(strict=True, gt=0, le=10_000_000, allow_inf_nan=False)]
    unit: Literal["m", "km", "mi"]
    example: ClassVar = {"type": "buffer_layer", "layer_id": "cities", "distance": 50, "unit": "km"}


class AggregatePoints(_Derives):
    """A new layer of the polygons, each with a statistic of the points inside it, styled
    graduated on it."""

    type: Literal["aggregate_points"]
    points_layer_id: LayerRef
    polygons_layer_id: LayerRef
    stat: Literal["count", "sum", "mean", "min", "max"] = "count"
    field: Given[Annotated[str, Field(strict=True, min_length=1, max_length=200)]] = None
    example: ClassVar = {
        "type": "aggregate_points",
        "points_layer_id": "schools",
        "polygons_layer_id": "districts",
        "stat": "count",
    }

    @model_validator(mode="after")
    def _field_for_stat(self) -> AggregatePoints:
        if self.stat != "count" and self.field is None:
            raise ValueError(f"stat {self.stat!r} needs a field")
        return self


class DissolveLayer(_Derives):
    """A new layer of the features merged: into one, or one per value of `field`."""

    type: Literal["dissolve_layer"]
    layer_id: LayerRef
    field: Given[Annotated[str, Field(strict=True, min_length=1, max_length=200)]] = None
    example: ClassVar = {"type": "dissolve_layer", "layer_id": "districts", "field": "region"}


class ClipLayer(_Derives):
    """A new layer of the features cut to another layer's polygons or to a country."""

    type: Literal["clip_layer"]
    layer_id: LayerRef
    to_layer_id: Given[LayerRef] = None
    country_code: Given[CountryCode] = None
    example: ClassVar = {"type": "clip_layer", "layer_id": "rivers", "country_code": "PT"}

    @model_validator(mode="after")
    def _one_mask(self) -> ClipLayer:
        if (self.to_layer_id is None) == (self.country_code is None):
            raise ValueError("give exactly one of to_layer_id or country_code")
        return self


class FilterToLayer(_Derives):
    """A new layer of the features a filter keeps."""

    type: Literal["filter_to_layer"]
    layer_id: LayerRef
    filter: Filter
    example: ClassVar = {
        "type": "filter_to_layer",
        "layer_id": "cities",
        "filter": {"field": "capital", "op": "==", "value": True},
        "name": "Capitals",
    }


DERIVED = ("buffer_layer", "aggregate_points", "dissolve_layer", "clip_layer", "filter_to_layer")


class Undo(BaseAction):
    """Take back the latest change not taken back yet (successive undos walk back one change
    at a time); alone in its batch."""

    type: Literal["undo"]
    example: ClassVar = {"type": "undo"}


class Redo(BaseAction):
    """Re-apply what the last undo took back, if nothing else changed since; alone in its
    batch."""

    type: Literal["redo"]
    example: ClassVar = {"type": "redo"}


Action = Annotated[
    FlyTo
    | JumpTo
    | FitBounds
    | GoHome
    | ZoomIn
    | ZoomOut
    | Pan
    | ZoomToLayer
    | AddGeojsonLayer
    | AddTileLayer
    | AddCogLayer
    | RemoveLayer
    | RenameLayer
    | SetLayerVisibility
    | MoveLayerUp
    | MoveLayerDown
    | ReorderLayers
    | UpdateLayerStyle
    | SetBasemapStyle
    | SetBasemapCategory
    | SetCountryMask
    | SetCustomMask
    | FileGenerated
    | ClearLayers
    | SetLayerFilter
    | BufferLayer
    | AggregatePoints
    | DissolveLayer
    | ClipLayer
    | FilterToLayer
    | Undo
    | Redo,
    Field(discriminator="type"),
]


class ActionBatch(BaseModel):
    """Body of `POST .../map/actions`: applied in order, in one transaction, all or nothing."""

    model_config = ConfigDict(extra="forbid")
    actions: list[Action] = Field(min_length=1)


def action_type(model: type[BaseModel]) -> str:
    """The plain type an action model stands for."""
    return str(get_args(model.model_fields["type"].annotation)[0])


MODELS: dict[str, type[BaseAction]] = {
    action_type(model): model for model in get_args(get_args(Action)[0])
}
TYPES: tuple[str, ...] = tuple(MODELS)
ALIASES: dict[str, str] = {alias: kind for kind in MODELS for alias in spellings(kind)}
_CAMEL: dict[str, dict[str, str]] = {
    kind: {camel(name): name for name in model.model_fields if camel(name) != name}
    for kind, model in MODELS.items()
}


def normalise_type(value: Any) -> str | None:
    """The plain action type of a type or alias, or None."""
    return ALIASES.get(value) if isinstance(value, str) else None


def fail(where: str, message: str) -> BadRequest:
    """A 400 about one action (or one of its parameters): `where` is its path."""
    head = where.split(".", 1)[0]
    return BadRequest(
        f"Invalid action {head}: {message}", details=[{"path": where, "message": message}]
    )


def parse(raw: Any, where: str = "action") -> BaseAction:
    """One action as a client wrote it, validated and normalised (see the module docstring)."""
    if not isinstance(raw, dict):
        raise fail(where, "each action must be an object")
    kind = normalise_type(raw.get("type"))
    if kind is None:
        known = ", ".join(TYPES)
        raise fail(f"{where}.type", f"unknown action type {raw.get('type')!r}; one of: {known}")
    data = dict(raw)
    data["type"] = kind
    for spelled, name in _CAMEL[kind].items():
        if spelled in data:
            if name in data:
                raise fail(f"{where}.{spelled}", f"give {name} or {spelled}, not both")
            data[name] = data.pop(spelled)
    try:
        return MODELS[kind].model_validate(data)
    except ValidationError as exc:
        raise invalid(exc.errors(), where) from None


def batch_schema(ref_template: str = "#/components/schemas/{model}") -> dict[str, Any]:
    """The JSON schema of `ActionBatch` (definitions under `$defs`), with every alias in the
    discriminator's mapping."""
    schema = ActionBatch.model_json_schema(ref_template=ref_template)
    mapping = schema["properties"]["actions"]["items"]["discriminator"]["mapping"]
    for alias, kind in ALIASES.items():
        mapping.setdefault(alias, mapping[kind])
    return schema
