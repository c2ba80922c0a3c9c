"""What an action does, as pure functions over plain data: the map state it leaves, a layer's
new values, the layer order it leaves.

The handlers (`apply.py`) apply these to the stored project; the chat agent applies the same
functions to its own copy of the project to see what a clause leaves for the next one ("fly to
Sydney then zoom to level 12"). So there is one rule for each, whoever asks.
"""

from __future__ import annotations

from typing import Any

from maproom.domain import mapstate
from maproom.domain.actions import models as m
from maproom.geo import camera
from maproom.limits import MASK_COLOR

View = dict[str, Any]  # a project's map state
LAYER_PADDING = camera.Padding.even(40)  # zoom_to_layer leaves this much room around it
PAN = {
    "up": (0, -1), "north": (0, -1), "down": (0, 1), "south": (0, 1),
    "left": (-1, 0), "west": (-1, 0), "right": (1, 0), "east": (1, 0),
}  # fmt: skip
# Action types whose whole effect is on the map state (`on_view`).
VIEW_ACTIONS = frozenset(
    ["fly_to", "jump_to", "fit_bounds", "go_home", "zoom_in", "zoom_out", "pan",
     "set_basemap_style", "set_basemap_category", "set_country_mask", "set_custom_mask"]
)  # fmt: skip


def on_view(view: View, action: m.BaseAction) -> View:
    """The map state after an action of `VIEW_ACTIONS` (a new dict; `view` is untouched)."""
    if isinstance(action, m.FlyTo | m.JumpTo):
        return _moved(view, action)
    if isinstance(action, m.FitBounds):
        center, zoom = camera.fit(action.bbox, _padding(action.padding))
        return {**view, "center": center, "zoom": zoom}
    if isinstance(action, m.GoHome):
        home = mapstate.DEFAULT_MAP_STATE
        return {**view, **{key: home[key] for key in mapstate.VIEW_KEYS}}
    if isinstance(action, m.ZoomIn | m.ZoomOut):
        levels = action.levels or 1
        delta = levels if isinstance(action, m.ZoomIn) else -levels
        return {**view, "zoom": camera.clamp_zoom(float(view.get("zoom", 0)) + delta)}
    if isinstance(action, m.Pan):
        amount = action.amount or 256
        dx, dy = PAN[action.direction]
        center = camera.pan(view["center"], float(view.get("zoom", 0)), dx * amount, dy * amount)
        return {**view, "center": center}
    return _on_basemap(view, action)


def _moved(view: View, action: m.FlyTo | m.JumpTo) -> View:
    moved = {**view, "center": list(action.center)}
    if action.zoom is not None:
        moved["zoom"] = action.zoom
    if action.bearing is not None:
        moved["bearing"] = mapstate.normalise_bearing(action.bearing)
    if action.pitch is not None:
        moved["pitch"] = action.pitch
    return moved


def _padding(pad: Any) -> camera.Padding:
    if isinstance(pad, m.Padding):
        return camera.Padding(pad.top, pad.right, pad.bottom, pad.left)
    return camera.Padding.even(pad or 0)


def _on_basemap(view: View, action: m.BaseAction) -> View:
    basemap = dict(view.get("basemap") or {"style": "light", "categories": {}})
    if isinstance(action, m.SetBasemapStyle):
        basemap["style"] = action.style
        if action.categories is not None:
            stored = mapstate.Basemap(categories=action.categories).stored()
            basemap["categories"] = stored["categories"]
        return {**view, "basemap": basemap}
    if isinstance(action, m.SetBasemapCategory):
        categories = dict(basemap.get("categories") or {})
        entry = dict(categories.get(action.category_key) or {})
        entry.update(action.model_dump(include={"color", "visible"}, exclude_none=True))
        categories[action.category_key] = entry
        return {**view, "basemap": {**basemap, "categories": categories}}
    if isinstance(action, m.SetCountryMask):
        return {**view, "countryMask": country_mask(action)}
    if isinstance(action, m.SetCustomMask):
        mask = None
        if action.geojson is not None:
            mask = {"geojson": action.geojson, "color": action.color or MASK_COLOR}
        return {**view, "customMask": mask}
    raise ValueError(f"{action.type} does not change the map state alone")


def country_mask(action: m.SetCountryMask) -> dict[str, Any] | None:
    """The stored country mask an action sets (None: it clears the mask)."""
    if action.country_code is None:
        return None
    return mapstate.country_mask(
        action.country_code,
        name=action.country_name,
        visible=True if action.visible is None else action.visible,
        color=action.color or MASK_COLOR,
    )


def fit_layer(view: View, bbox: list[float] | None) -> View:
    """The map state after `zoom_to_layer` on a layer with this extent (unchanged without)."""
    if not bbox:
        return view
    center, zoom = camera.fit(bbox, LAYER_PADDING)
    return {**view, "center": center, "zoom": zoom}


def order_after(order: list[str], action: m.BaseAction, layer_id: str) -> list[str]:
    """The layer ids, top first, after `move_layer_up` or `move_layer_down` of the layer
    `layer_id` (its canonical id); the top layer stays on top, the bottom one at the bottom."""
    found = list(order)
    at = found.index(layer_id)
    to = at - 1 if isinstance(action, m.MoveLayerUp) else at + 1  # up: toward the top
    if 0 <= to < len(found):
        found[at], found[to] = found[to], found[at]
    return found


def layer_values(action: m.BaseAction) -> dict[str, Any]:
    """The plain values an action gives its layer: `visible` or `name`."""
    if isinstance(action, m.SetLayerVisibility):
        return {"visible": action.visible}
    if isinstance(action, m.RenameLayer):
        return {"name": action.name}
    return {}
