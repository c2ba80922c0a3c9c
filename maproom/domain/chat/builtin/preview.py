"""What the actions of a clause will do to the project, as the agent sees it, so that the next
clause of the same message starts from there: "fly to Sydney then zoom to level 12" zooms on
Sydney, "set the counties to 50% opacity and colour them brown" keeps the opacity.

Nothing is applied here: the clauses' actions are applied together, as one batch, at the end of
the turn. The camera follows the rules of `domain.actions.apply` (its pan table and padding).
"""

from __future__ import annotations

from typing import Any

from maproom.domain import mapstate
from maproom.domain.actions.apply import LAYER_PADDING, PAN
from maproom.geo import camera


def follow(view: dict[str, Any], actions: list[dict[str, Any]]) -> None:
    """Update `view` (`{"mapState", "layers"}` as `Turn.view` reads it) with `actions`."""
    state = view["mapState"]
    layers: list[dict[str, Any]] = view["layers"]
    by_id = {layer["layer_id"]: layer for layer in layers}
    for action in actions:
        kind = action["type"]
        layer = by_id.get(action.get("layer_id", ""))
        if kind in ("fly_to", "jump_to"):
            state["center"] = list(action["center"])
            state["zoom"] = action.get("zoom", state["zoom"])
        elif kind in ("zoom_in", "zoom_out"):
            levels = action.get("levels") or 1
            state["zoom"] = camera.clamp_zoom(
                state["zoom"] + (levels if kind == "zoom_in" else -levels)
            )
        elif kind == "go_home":
            for key in mapstate.VIEW_KEYS:
                state[key] = mapstate.DEFAULT_MAP_STATE[key]
        elif kind == "pan":
            dx, dy = PAN[action["direction"]]
            amount = action.get("amount") or 256
            state["center"] = camera.pan(state["center"], state["zoom"], dx * amount, dy * amount)
        elif kind == "fit_bounds":
            state["center"], state["zoom"] = camera.fit(
                action["bbox"], camera.Padding.even(action.get("padding") or 0)
            )
        elif kind == "zoom_to_layer" and layer and layer.get("bbox"):
            state["center"], state["zoom"] = camera.fit(layer["bbox"], LAYER_PADDING)
        elif kind == "update_layer_style" and layer:
            layer["style"] = action["style"]
        elif kind == "set_layer_visibility" and layer:
            layer["visible"] = action["visible"]
        elif kind == "rename_layer" and layer:
            layer["name"] = action["name"]
        elif kind == "reorder_layers":
            layers.sort(key=lambda item: action["layer_ids"].index(item["layer_id"]))
        elif kind == "set_basemap_style":
            state["basemap"] = {**state["basemap"], "style": action["style"]}
        elif kind == "set_country_mask":
            code = action.get("country_code")
            state["countryMask"] = {"countryCode": code} if code else None
