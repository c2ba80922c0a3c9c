"""How `bench/chat_eval.py` judges a case: the project's state after a turn against the case's
expectations (the keys are described in bench/chat_sets/README.md)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from maproom.domain.chat.builtin import colours

State = dict[str, Any]  # {"mapState", "layers": {name: detail}}
COLOUR_KEYS = {"Point": "circle-color", "LineString": "line-color", "Polygon": "fill-color"}
OPACITY_KEYS = {"Point": "circle-opacity", "LineString": "line-opacity", "Polygon": "fill-opacity"}
SIZE_KEYS = ("circle-radius", "line-width")


def km(a: list[float], b: list[float]) -> float:
    """Great-circle distance in kilometres."""
    lng1, lat1, lng2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2
    h += math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 6371 * 2 * math.asin(math.sqrt(h))


def family(colour: str | None) -> str | None:
    """The everyday name of a `#rrggbb` colour's family ("red", "dark blue" is "blue")."""
    return colours.family(colour) if isinstance(colour, str) else None


def _renderer(layer: dict[str, Any]) -> dict[str, Any]:
    return dict((layer.get("style") or {}).get("renderer") or {})


def _paint(layer: dict[str, Any]) -> dict[str, Any]:
    return dict(_renderer(layer).get("paint") or {})


def numbers_in(text: str) -> list[float]:
    """The numbers a reply states: "8", "1,000", "1.000", "1 000", "4,5"."""
    found = []
    for raw in re.findall(r"\d[\d,.\u00a0\u202f ]*\d|\d", text):
        raw = raw.replace("\u00a0", " ").replace("\u202f", " ").strip(" ,.")
        for candidate in _readings(raw):
            found.append(candidate)
    return found


def _readings(raw: str) -> list[float]:
    grouped = re.fullmatch(r"\d{1,3}(?:([ ,.])\d{3})+(?:[.,]\d+)?", raw)
    readings = []
    if grouped:
        separator = grouped.group(1)
        whole = raw.replace(separator, "")
        readings.append(float(whole.replace(",", ".")))
    for text in (raw.replace(" ", ""), raw.replace(",", ".").replace(" ", "")):
        try:
            readings.append(float(text))
        except ValueError:
            continue
    return readings


def _size_by(layer: dict[str, Any], field: str) -> bool:
    renderer = _renderer(layer)
    if renderer.get("field") != field:
        return False
    steps = renderer.get("stops") or renderer.get("ranges") or []
    sizes = [
        (step.get("paint") or {}).get(key)
        for step in steps
        for key in SIZE_KEYS
        if (step.get("paint") or {}).get(key) is not None
    ]
    return len(sizes) >= 2 and sizes[-1] > sizes[0]


def _heatmap(layer: dict[str, Any], wanted: Any) -> bool:
    renderer = _renderer(layer)
    if renderer.get("type") != "heatmap":
        return False
    return wanted is True or renderer.get("weightField") == wanted


def _label(layer: dict[str, Any], field: str) -> bool:
    label = (layer.get("style") or {}).get("label") or {}
    return label.get("field") == field and label.get("visible", True) is not False


def _colour(layer: dict[str, Any], wanted: str) -> bool:
    key = COLOUR_KEYS.get(layer.get("geometry_type") or "", "circle-color")
    renderer = _renderer(layer)
    one_colour = renderer.get("type") == "single" or (  # sized by a field, in one colour
        renderer.get("type") == "interpolated"
        and not any(key in (stop.get("paint") or {}) for stop in renderer.get("stops") or [])
    )
    return one_colour and family(_paint(layer).get(key)) == wanted


def _opacity_below(layer: dict[str, Any], limit: float) -> bool:
    key = OPACITY_KEYS.get(layer.get("geometry_type") or "", "circle-opacity")
    value = _paint(layer).get(key, _renderer(layer).get("opacity"))
    return value is not None and value < limit


def _range_count(layer: dict[str, Any], count: int) -> bool:
    renderer = _renderer(layer)
    return renderer.get("type") == "graduated" and len(renderer.get("ranges") or []) == count


def _renderer_has(layer: dict[str, Any], wanted: dict[str, Any]) -> bool:
    renderer = _renderer(layer)
    return all(renderer.get(k) == v for k, v in wanted.items())


def _filtered(layer: dict[str, Any], count: int) -> bool:
    return layer.get("filteredFeatureCount") == count


# Per-layer expectations: key -> test(layer detail, wanted value).
PER_LAYER: dict[str, Callable[[dict[str, Any], Any], bool]] = {
    "visible": lambda layer, shown: layer["visible"] is shown,
    "colour": _colour,
    "opacity_below": _opacity_below,
    "renderer": _renderer_has,
    "range_count": _range_count,
    "size_by": _size_by,
    "heatmap": _heatmap,
    "label": _label,
    "filtered_count": _filtered,
    "paint": lambda layer, w: all(_paint(layer).get(k) == v for k, v in w.items()),
    "paint_above": lambda layer, w: all(
        (_paint(layer).get(k) is not None and _paint(layer)[k] > v) for k, v in w.items()
    ),
    "paint_below": lambda layer, w: all(
        (_paint(layer).get(k) is not None and _paint(layer)[k] < v) for k, v in w.items()
    ),
}


def judge(expect: dict[str, Any], state: State, reply: dict[str, Any], before: State) -> list[str]:
    """What differs from the expectation (empty: the case passed)."""
    problems = _question(expect, reply) + _view(expect, state["mapState"], before["mapState"])
    layers = state["layers"]
    for key, test in PER_LAYER.items():
        for name, wanted in (expect.get(key) or {}).items():
            if name not in layers:
                problems.append(f"{key}: no layer {name!r}")
            elif not test(layers[name], wanted):
                problems.append(f"{key} {name}: {_shown(key, layers[name])}")
    if "layers" in expect and list(layers) != expect["layers"]:
        problems.append(f"layers {list(layers)}")
    if "layer_count" in expect and len(layers) != expect["layer_count"]:
        problems.append(f"{len(layers)} layers")
    if "new_layer" in expect and not _derived(expect["new_layer"], state, before):
        problems.append("no such derived layer")
    if expect.get("unchanged") and (state["mapState"], state["layers"]) != (
        before["mapState"],
        before["layers"],
    ):
        problems.append("the project changed")
    problems += _reply(expect, str(reply.get("reply") or ""))
    return problems


def _question(expect: dict[str, Any], reply: dict[str, Any]) -> list[str]:
    if expect.get("question") and reply.get("question") is None:
        return ["no question"]
    if not expect.get("question") and reply.get("question") is not None:
        return [f"asked {reply['question']['text']!r}"]
    return []


def _view(expect: dict[str, Any], view: dict[str, Any], before: dict[str, Any]) -> list[str]:
    problems = []
    if "center" in expect and km(view["center"], expect["center"]) > expect.get("within_km", 60):
        problems.append(f"center {view['center']}")
    for key in ("zoom", "bearing", "pitch"):
        if key in expect and not expect[key][0] <= view.get(key, 0) <= expect[key][1]:
            problems.append(f"{key} {view.get(key)}")
    if "moved" in expect and not _moved(expect["moved"], before["center"], view["center"]):
        problems.append(f"center {view['center']} did not move {expect['moved']}")
    if "basemap" in expect and view["basemap"]["style"] != expect["basemap"]:
        problems.append(f"basemap {view['basemap']['style']}")
    categories = view["basemap"].get("categories") or {}
    for key, wanted in (expect.get("category") or {}).items():
        found = categories.get(key, {})
        if any(found.get(k) != v for k, v in wanted.items()):
            problems.append(f"category {key} {found}")
    for key in expect.get("category_set") or []:
        if not categories.get(key):
            problems.append(f"category {key} not set")
    if "mask" in expect:
        found = (view.get("countryMask") or {}).get("countryCode")
        if found != expect["mask"]:
            problems.append(f"mask {found}")
    return problems


def _moved(way: str, start: list[float], end: list[float]) -> bool:
    lng, lat = end
    return {
        "north": lat > start[1],
        "south": lat < start[1],
        "east": lng > start[0],
        "west": lng < start[0],
    }[way]


def _derived(wanted: dict[str, Any], state: State, before: State) -> bool:
    names = {layer["layer_id"]: name for name, layer in state["layers"].items()}
    names |= {layer["layer_id"]: name for name, layer in before["layers"].items()}
    for layer in state["layers"].values():
        made = layer.get("derivedFrom") or {}
        if made.get("operation") != wanted.get("operation"):
            continue
        sources = sorted(names.get(i, i) for i in made.get("layerIds") or [])
        if "from" not in wanted or sources == sorted(wanted["from"]):
            return True
    return False


def _reply(expect: dict[str, Any], text: str) -> list[str]:
    problems = []
    if "reply_number" in expect:
        wanted = float(expect["reply_number"])
        if not any(abs(n - wanted) <= abs(wanted) * 0.005 + 1e-9 for n in numbers_in(text)):
            problems.append(f"reply lacks {expect['reply_number']}: {text[:120]!r}")
    for word in expect.get("reply_has") or []:
        if word.casefold() not in text.casefold():
            problems.append(f"reply lacks {word!r}: {text[:120]!r}")
    return problems


def _shown(key: str, layer: dict[str, Any]) -> str:
    """What a failed per-layer check saw."""
    if key == "visible":
        return f"visible {layer['visible']}"
    if key == "filtered_count":
        return f"filteredFeatureCount {layer.get('filteredFeatureCount')}"
    if key == "label":
        return f"label {(layer.get('style') or {}).get('label')}"
    renderer = _renderer(layer)
    return (
        f"renderer { ({k: v for k, v in renderer.items() if k not in ('ranges', 'categories')}) }"
    )
