"""Server-side classification (docs/api-decisions.md): the renderer names what it wants, the server
computes the classes from the layer's field statistics and stores them, so the answer, the
legend and every viewer agree.

`classify(style, given=..., ...)` runs on every style a layer is given (the style endpoint's
merged result, `update_layer_style`, a new layer's style) and fills in:

- `graduated` with a `field`, method `quantile` or `equal` (or none: quantile) and no `ranges`
  given: `classes` ranges (default 5) coloured along `ramp` (default YlOrRd); the first starts
  at the field's minimum, the last is open (`to: null`); labels read `1,000 - 5,000` and
  `≥ 5,000`. Method `manual` keeps the given ranges.
- `categorized` with a `field` and no `categories` given: one category per distinct value, most
  frequent first, at most 12, coloured from the qualitative palette (or `ramp`); other values
  and nulls draw with `default` (grey unless given).
- `interpolated` with a `field` and no `stops` given: stops at the field's minimum and maximum,
  coloured with the ends of `ramp`.

Classes are computed again when the style given changes what they depend on (`type`, `field`,
`method`, `classes`, `ramp`) without giving the classes themselves; a paint-only change keeps
them. A field the layer does not have, or one without numbers where numbers are needed, is a
400 at `renderer.field` listing the layer's fields; so is `heatmap.weightField`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maproom.errors import BadRequest
from maproom.geo import classify as breaks
from maproom.geo.fields import FieldStats, Profile

DEPENDS_ON = ("type", "field", "method", "classes", "ramp")
CLASS_KEY = {"graduated": "ranges", "categorized": "categories", "interpolated": "stops"}
NUMERIC = ("graduated", "interpolated")
MAX_CATEGORIES = 12
DEFAULT_CLASSES = 5
COLOR_KEYS = {"Point": ("circle-color",), "LineString": ("line-color",), "Polygon": ("fill-color",)}
ALL_COLOR_KEYS = ("fill-color", "line-color", "circle-color")


def classify(
    style: dict[str, Any],
    *,
    given: dict[str, Any],
    profile: Profile | None,
    geometry_type: str | None,
    prefix: str = "",
    refilter: bool = False,
) -> dict[str, Any]:
    """The style with its classes computed where the renderer asks for them (again, with
    `refilter`, when the features the style shows changed: a new filter)."""
    renderer = style.get("renderer")
    if not isinstance(renderer, dict):
        return style
    raw = given.get("renderer")
    asked: dict[str, Any] = raw if isinstance(raw, dict) else {}
    kind = renderer.get("type")
    if kind == "heatmap" and renderer.get("weightField") and "weightField" in asked:
        _numeric(profile, renderer["weightField"], f"{_path(prefix)}weightField")
    key = CLASS_KEY.get(str(kind))
    if key is None or not renderer.get("field"):
        return style
    if kind == "graduated" and renderer.get("method") == "manual":
        return style
    stale = key not in renderer or refilter or any(name in asked for name in DEPENDS_ON)
    if key in asked or not stale:
        if "field" in asked:
            _field(profile, renderer["field"], f"{_path(prefix)}field")
        return style
    where = f"{_path(prefix)}field"
    colour_keys = COLOR_KEYS.get(geometry_type or "", ALL_COLOR_KEYS)
    if kind == "categorized":
        computed = _categories(_field(profile, renderer["field"], where), renderer, colour_keys)
    else:
        stats = _numeric(profile, renderer["field"], where)
        build = _ranges if kind == "graduated" else _stops
        computed = build(stats, renderer, colour_keys)
    return {**style, "renderer": {**renderer, **computed}}


def _path(prefix: str) -> str:
    return f"{prefix}.renderer." if prefix else "renderer."


def _field(profile: Profile | None, name: str, where: str) -> FieldStats:
    stats = profile.get(name) if profile is not None else None
    if stats is None:
        raise _bad(where, f"the layer has no field {name!r}", profile)
    return stats


def _numeric(profile: Profile | None, name: str, where: str) -> FieldStats:
    stats = _field(profile, name, where)
    if not stats.numbers or not np.isfinite(stats.minimum):
        raise _bad(where, f"the field {name!r} has no numeric values", profile, numeric=True)
    return stats


def _bad(where: str, problem: str, profile: Profile | None, numeric: bool = False) -> BadRequest:
    if profile is None:
        listing = "this layer has no fields"
    else:
        names = [s.name for s in profile.fields if not numeric or s.numbers]
        kind = "numeric fields" if numeric else "fields"
        listing = f"its {kind}: {', '.join(names)}" if names else f"it has no {kind}"
    message = f"{problem}; {listing}"
    return BadRequest(message, details=[{"path": where, "message": message}])


def _paint(colour: str, keys: tuple[str, ...]) -> dict[str, str]:
    return {key: colour for key in keys}


def _colours(renderer: dict[str, Any], n: int) -> list[str]:
    return breaks.ramp(renderer.get("ramp") or breaks.DEFAULT_RAMP, n)


def _ranges(stats: FieldStats, renderer: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    classes = renderer.get("classes") or DEFAULT_CLASSES
    minimum = stats.minimum
    if renderer.get("method") == "equal":
        integral = breaks.integral(stats.values) and float(minimum).is_integer()
        cuts = breaks.equal_breaks(minimum, stats.maximum, classes, integral)
    else:
        cuts = breaks.quantile_breaks(stats.values, classes)
    bounds = [minimum, *cuts]
    colours = _colours(renderer, len(bounds))
    ranges = []
    for i, low in enumerate(bounds):
        high = bounds[i + 1] if i + 1 < len(bounds) else None
        label = (
            f"{breaks.label(low)} - {breaks.label(high)}"
            if high is not None
            else f"≥ {breaks.label(low)}"
        )
        ranges.append(
            {
                "from": _plain(low),
                "to": _plain(high),
                "label": label,
                "paint": _paint(colours[i], keys),
            }
        )
    return {"method": renderer.get("method") or "quantile", "ranges": ranges}


def _categories(
    stats: FieldStats, renderer: dict[str, Any], keys: tuple[str, ...]
) -> dict[str, Any]:
    top = stats.top(MAX_CATEGORIES)
    ramp = renderer.get("ramp")
    colours = breaks.ramp(ramp, len(top)) if ramp else list(breaks.QUALITATIVE)
    categories = [
        {"value": value, "label": _text(value), "paint": _paint(colours[i], keys)}
        for i, (value, _count) in enumerate(top)
    ]
    out: dict[str, Any] = {"categories": categories}
    if not renderer.get("default"):
        out["default"] = _paint(breaks.OTHER, keys)
    return out


def _stops(stats: FieldStats, renderer: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    values = [stats.minimum] if stats.minimum == stats.maximum else [stats.minimum, stats.maximum]
    colours = _colours(renderer, 2)
    ends = [colours[-1]] if len(values) == 1 else colours
    return {
        "stops": [
            {"value": _plain(value), "label": breaks.label(value), "paint": _paint(c, keys)}
            for value, c in zip(values, ends, strict=True)
        ]
    }


def _plain(number: float | None) -> float | int | None:
    if number is None:
        return None
    return int(number) if float(number).is_integer() and abs(number) < 2**53 else float(number)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return breaks.label(value) if isinstance(value, int | float) else str(value)
