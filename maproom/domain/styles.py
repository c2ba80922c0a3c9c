"""Layer styles (docs/styles.md): the strict schema, the merge rules, defaults and legends.

A style is a JSON object:

    {"renderer": {...}, "label": {...}, "legend": {...}, "_meta": {...}, <other keys>}

`parse_patch` validates what a client sends (every bound, enum and "no other keys" rule of the
spec; a 400's `details` name the failing path, such as `renderer.paint.circle-radius`).
Validation never rewrites values, so the stored style holds exactly the numbers the client sent.
`merge` applies a validated patch to the stored style:

1. omitted top-level keys are kept; other top-level keys given are replaced whole;
2. with the renderer type unchanged (or omitted), `paint` is deep-merged key by key and every
   other renderer field given replaces the stored one (lists such as `categories` whole);
3. a renderer of a new type replaces the old renderer whole (docs/api-decisions.md);
4. `label` and `legend` are merged key by key (`null` clears them);
5. `_meta` is the server's: the client's is ignored.

Renderer keys beyond the documented ones are accepted only by the `multi_field` and `chart`
types (their further properties are not shown in the spec); `merge` checks that against the
type the merged renderer ends up with.
"""

from __future__ import annotations

import itertools
import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from maproom.domain.common import Given
from maproom.domain.mapstate import HEX
from maproom.errors import BadRequest, invalid
from maproom.geo.classify import DEFAULT_RAMP as DEFAULT_CLASS_RAMP
from maproom.geo.classify import QUALITATIVE
from maproom.limits import MAX_ZOOM

RENDERER_TYPES = ("single", "categorized", "graduated", "heatmap", "interpolated")
OPEN_RENDERERS = ("multi_field", "chart")
SERVER_KEY = "_meta"
MERGED_KEYS = ("label", "legend")
DASH = re.compile(r"^\s*\d+(?:\.\d+)?(?:\s*,\s*\d+(?:\.\d+)?)*\s*$")

HexColor = Annotated[str, Field(strict=True, pattern=HEX, description="CSS hex color")]
CssColor = Annotated[str, Field(strict=True, min_length=1, max_length=64)]
Number = Annotated[float, Field(strict=True, allow_inf_nan=False)]
Pixels = Annotated[float, Field(strict=True, ge=0, allow_inf_nan=False)]
Unit = Annotated[float, Field(strict=True, ge=0, le=1)]
Text = Annotated[str, Field(strict=True, max_length=500)]
FieldName = Annotated[str, Field(strict=True, min_length=1, max_length=200)]
Scalar = StrictStr | StrictBool | StrictInt | StrictFloat
RampName = Literal[
    "Blues", "Greens", "Greys", "Oranges", "Purples", "Reds", "YlOrRd", "YlGnBu", "RdYlBu",
    "Spectral", "Viridis",
]  # fmt: skip
RendererType = Literal[
    "single", "categorized", "graduated", "heatmap", "interpolated", "multi_field", "chart"
]


class _Closed(BaseModel):
    """An object that admits no keys beyond its fields."""

    model_config = ConfigDict(extra="forbid", populate_by_name=False)


class Paint(_Closed):
    """Paint properties (styles.md); `circle-*` for points, `line-*` lines, `fill-*` polygons."""

    circle_color: Given[HexColor] = Field(None, alias="circle-color")
    circle_radius: Given[Pixels] = Field(None, alias="circle-radius")
    circle_opacity: Given[Unit] = Field(None, alias="circle-opacity")
    circle_stroke_color: Given[HexColor] = Field(None, alias="circle-stroke-color")
    circle_stroke_width: Given[Pixels] = Field(None, alias="circle-stroke-width")
    circle_stroke_opacity: Given[Unit] = Field(None, alias="circle-stroke-opacity")
    line_color: Given[HexColor] = Field(None, alias="line-color")
    line_width: Given[Pixels] = Field(None, alias="line-width")
    line_opacity: Given[Unit] = Field(None, alias="line-opacity")
    line_dasharray: Given[list[Pixels]] = Field(None, alias="line-dasharray", max_length=32)
    fill_color: Given[HexColor] = Field(None, alias="fill-color")
    fill_opacity: Given[Unit] = Field(None, alias="fill-opacity")
    outline_width: Given[Pixels] = Field(None, alias="_outline-width")
    outline_color: Given[CssColor] = Field(None, alias="_outline-color")
    outline_opacity: Given[Unit] = Field(None, alias="_outline-opacity")


class Category(_Closed):
    """One class of a categorized renderer."""

    value: Scalar
    label: Given[Text] = None
    paint: Paint


class Range(_Closed):
    """One class of a graduated renderer: `from` inclusive, `to` exclusive, null open-ended."""

    from_: Number = Field(alias="from")
    to: Number | None = None
    label: Given[Text] = None
    paint: Paint

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.to is not None and self.to <= self.from_:
            raise ValueError("'to' must be greater than 'from' (or null for open-ended)")
        return self


class Outline(_Closed):
    """A feature outline."""

    width: Given[Pixels] = None
    color: Given[HexColor] = None
    opacity: Given[Unit] = None
    dash: Given[Annotated[str, Field(strict=True, pattern=DASH.pattern)]] = None


class ColorStop(_Closed):
    """One stop of a heatmap density ramp."""

    value: Unit
    color: HexColor


class Stop(_Closed):
    """One stop of an interpolated renderer."""

    value: Number
    label: Given[Text] = None
    paint: Paint


def _ascending(values: list[float], what: str) -> None:
    if any(b <= a for a, b in itertools.pairwise(values)):
        raise ValueError(f"{what} values must be strictly ascending")


class Renderer(BaseModel):
    """The renderer of docs/styles.md (all optional: a partial update names only what changes)."""

    model_config = ConfigDict(extra="allow")

    type: Given[RendererType] = None
    paint: Given[Paint] = None
    field: Given[FieldName] = None
    categories: Given[list[Category]] = Field(None, max_length=1000)
    default: Given[Paint] = None
    outline: Given[Outline] = None
    method: Given[Literal["quantile", "equal", "manual"]] = None
    ranges: Given[list[Range]] = Field(None, max_length=1000)
    weightField: Given[FieldName] = None
    radius: Given[Pixels] = None
    opacity: Given[Unit] = None
    intensity: Given[Number] = None
    colorStops: Given[list[ColorStop]] = Field(None, max_length=256)
    interpolation: Given[Literal["linear", "exponential"]] = None
    base: Given[Number] = None
    stops: Given[list[Stop]] = Field(None, max_length=256)
    # server-side classification (docs/api-decisions.md; docs/styles.md)
    classes: Given[Annotated[int, Field(strict=True, ge=2, le=12)]] = Field(
        None, description="How many classes to compute (graduated); default 5"
    )
    ramp: Given[RampName | Annotated[list[HexColor], Field(min_length=1, max_length=12)]] = Field(
        None,
        description="Colours of the computed classes: a ramp name or hex colours "
        f"(default {DEFAULT_CLASS_RAMP})",
    )
    # multi_field and chart (not shown in the spec; documented in docs/api-decisions.md)
    fields: Given[list[FieldName]] = Field(None, max_length=50)
    colors: Given[list[HexColor]] = Field(None, max_length=50)
    chartType: Given[Literal["pie", "bar"]] = None
    size: Given[Pixels] = None

    @model_validator(mode="after")
    def _ramps(self) -> Renderer:
        if self.colorStops:
            _ascending([stop.value for stop in self.colorStops], "colorStops")
        if self.stops:
            _ascending([stop.value for stop in self.stops], "stops")
        return self


class Label(BaseModel):
    """Feature labels; further keys are kept as given."""

    model_config = ConfigDict(extra="allow")

    field: Given[FieldName] = None
    visible: Given[StrictBool] = None
    size: Given[Pixels] = None
    color: Given[HexColor] = None
    haloColor: Given[HexColor] = None
    haloWidth: Given[Pixels] = None
    minZoom: Given[Annotated[float, Field(strict=True, ge=0, le=MAX_ZOOM)]] = None


class Legend(BaseModel):
    """The layer's legend entry; further keys are kept as given."""

    model_config = ConfigDict(extra="allow")

    title: Given[Text] = None
    visible: Given[StrictBool] = None


class StylePatch(BaseModel):
    """A style object (docs/styles.md); other top-level keys are kept as given."""

    model_config = ConfigDict(extra="allow")

    renderer: Given[Renderer] = None
    label: Label | None = None
    legend: Legend | None = None


DOCUMENTED = frozenset(field.alias or name for name, field in Renderer.model_fields.items()) - {
    "fields",
    "colors",
    "chartType",
    "size",
}


def parse_patch(raw: Any, prefix: str = "") -> dict[str, Any]:
    """Validate a partial style; returns it as sent, without a client's `_meta`."""
    if not isinstance(raw, dict):
        raise BadRequest(
            "A style must be a JSON object",
            details=[{"path": prefix, "message": "expected an object"}],
        )
    try:
        StylePatch.model_validate(raw)
    except ValidationError as exc:
        raise invalid(exc.errors(), prefix) from None
    return {key: value for key, value in raw.items() if key != SERVER_KEY}


def parse_full(raw: Any, prefix: str = "") -> dict[str, Any]:
    """Validate a whole style (a replacement): the renderer and its type are required."""
    style = parse_patch(raw, prefix)
    renderer = style.get("renderer")
    if not isinstance(renderer, dict) or "type" not in renderer:
        raise BadRequest(
            "A style needs a renderer with a type",
            details=[{"path": _join(prefix, "renderer.type"), "message": "field required"}],
        )
    _check_open_keys(style["renderer"], prefix)
    return style


def merge(current: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Apply a validated partial style to the stored one (docs/styles.md; module docstring)."""
    merged = {key: value for key, value in current.items()}
    for key, value in patch.items():
        if key == SERVER_KEY:
            continue
        if key == "renderer":
            merged[key] = _merge_renderer(current.get("renderer") or {}, value)
        elif key == "filter" and value is None:  # null: no filter any more
            merged.pop(key, None)
        elif key in MERGED_KEYS and isinstance(value, dict):
            stored = current.get(key)
            merged[key] = {**(stored if isinstance(stored, dict) else {}), **value}
        else:
            merged[key] = value
    renderer = merged.get("renderer")
    if not isinstance(renderer, dict) or "type" not in renderer:
        raise BadRequest(
            "The style has no renderer type; give renderer.type",
            details=[{"path": "renderer.type", "message": "field required"}],
        )
    _check_open_keys(renderer, "")
    return merged


def replace(current: dict[str, Any], style: dict[str, Any]) -> dict[str, Any]:
    """A whole new style (validated by `parse_full`) that keeps the server's `_meta`."""
    out = {key: value for key, value in style.items() if key != SERVER_KEY}
    if SERVER_KEY in current:
        out[SERVER_KEY] = current[SERVER_KEY]
    return out


def _merge_renderer(stored: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    new_type = patch.get("type")
    if new_type is not None and new_type != stored.get("type"):
        return dict(patch)
    merged = {**stored}
    for key, value in patch.items():
        if key == "paint" and isinstance(stored.get("paint"), dict):
            merged["paint"] = {**stored["paint"], **value}
        else:
            merged[key] = value
    return merged


def _check_open_keys(renderer: dict[str, Any], prefix: str) -> None:
    if renderer.get("type") in OPEN_RENDERERS:
        return
    unknown = sorted(key for key in renderer if key not in DOCUMENTED)
    if unknown:
        raise BadRequest(
            f"Unknown renderer property {unknown[0]!r} for renderer type {renderer.get('type')!r}",
            details=[
                {
                    "path": _join(prefix, f"renderer.{key}"),
                    "message": "extra inputs are not permitted for this renderer type",
                }
                for key in unknown
            ],
        )


def _join(prefix: str, path: str) -> str:
    return f"{prefix}.{path}" if prefix else path


# --- defaults ---------------------------------------------------------------------------------

ACCENT = "#3b82f6"
DEFAULT_RAMP = (
    {"value": 0, "color": "#2563eb"},
    {"value": 0.25, "color": "#06b6d4"},
    {"value": 0.5, "color": "#84cc16"},
    {"value": 0.75, "color": "#facc15"},
    {"value": 1, "color": "#dc2626"},
)
POINT_PAINT = {
    "circle-color": ACCENT,
    "circle-radius": 5,
    "circle-opacity": 0.9,
    "circle-stroke-color": "#ffffff",
    "circle-stroke-width": 1,
}
LINE_PAINT = {"line-color": ACCENT, "line-width": 2, "line-opacity": 0.9}
POLYGON_PAINT = {
    "fill-color": ACCENT,
    "fill-opacity": 0.45,
    "_outline-color": "#1e3a8a",
    "_outline-width": 1,
    "_outline-opacity": 0.9,
}


def default_style(layer_type: str | None, geometry_type: str | None) -> dict[str, Any]:
    """A new layer's style: one `single` renderer painted for its geometry."""
    if layer_type != "geojson":
        paint: dict[str, Any] = {}
    elif geometry_type == "Point":
        paint = dict(POINT_PAINT)
    elif geometry_type == "LineString":
        paint = dict(LINE_PAINT)
    elif geometry_type == "Polygon":
        paint = dict(POLYGON_PAINT)
    else:
        paint = {**POINT_PAINT, **LINE_PAINT, **POLYGON_PAINT}
    return {
        "renderer": {"type": "single", "paint": paint},
        "label": {"visible": False},
        "legend": {"visible": True},
        SERVER_KEY: {"generatedBy": "maproom", "defaultFor": geometry_type or layer_type},
    }


# --- legends ----------------------------------------------------------------------------------

COLOR_KEYS = ("fill-color", "line-color", "circle-color")


def legend_items(style: dict[str, Any] | None, geometry_type: str | None) -> list[dict[str, Any]]:
    """The legend derived from a renderer (docs/api-decisions.md): classes or one ramp."""
    renderer = (style or {}).get("renderer") or {}
    kind = renderer.get("type")
    base = renderer.get("paint") or {}
    if kind == "categorized":
        items = [
            {"label": _text(cat.get("label"), cat.get("value")), "paint": {**base, **cat["paint"]}}
            for cat in renderer.get("categories") or ()
        ]
        if renderer.get("default"):
            items.append({"label": "Other", "paint": {**base, **renderer["default"]}})
        return items
    if kind == "graduated":
        return [
            {"label": _text(rng.get("label"), _range_text(rng)), "paint": {**base, **rng["paint"]}}
            for rng in renderer.get("ranges") or ()
        ]
    if kind == "heatmap":
        ramp = renderer.get("colorStops") or [dict(stop) for stop in DEFAULT_RAMP]
        return [{"label": renderer.get("weightField") or "Density", "ramp": ramp}]
    if kind == "interpolated":
        ramp = [
            {"value": stop["value"], "color": _color({**base, **stop["paint"]}, geometry_type)}
            for stop in renderer.get("stops") or ()
        ]
        return [{"label": renderer.get("field") or "Value", "ramp": ramp}]
    if kind in OPEN_RENDERERS:
        colors = renderer.get("colors") or QUALITATIVE
        key = _color_key(geometry_type)
        return [
            {"label": name, "paint": {key: colors[i % len(colors)]}}
            for i, name in enumerate(renderer.get("fields") or ())
        ]
    title = ((style or {}).get("legend") or {}).get("title")
    return [{"label": title if isinstance(title, str) else "All features", "paint": base}]


def _text(label: Any, fallback: Any) -> str:
    if isinstance(label, str):
        return label
    if isinstance(fallback, bool):
        return "true" if fallback else "false"
    return str(fallback)


def _number(value: float) -> str:
    return f"{value:g}"


def _range_text(rng: dict[str, Any]) -> str:
    if rng.get("to") is None:
        return f"≥ {_number(rng['from'])}"
    return f"{_number(rng['from'])} - {_number(rng['to'])}"


def _color_key(geometry_type: str | None) -> str:
    return {"Point": "circle-color", "LineString": "line-color"}.get(
        geometry_type or "", "fill-color"
    )


def main_colour(style: dict[str, Any] | None, geometry_type: str | None) -> str | None:
    """The colour a single style draws its features with, if it has one."""
    renderer = (style or {}).get("renderer") or {}
    return _color(renderer.get("paint") or {}, geometry_type)


def _color(paint: dict[str, Any], geometry_type: str | None) -> str | None:
    preferred = _color_key(geometry_type)
    for key in (preferred, *COLOR_KEYS):
        if paint.get(key):
            return str(paint[key])
    return None
