"""The agent's copy of the project while it reads a message: what the clauses resolved so far
will have done, so that the next clause starts from there ("fly to Sydney then zoom to level
12" zooms on Sydney; "set the counties to 50% opacity and colour them brown" keeps the
opacity).

Nothing is applied here: the clauses' actions are applied together, as one batch, at the end
of the turn. What an action does is the command path's own rule (`actions.effects`), so the
copy never drifts from what the handlers will do.
"""

from __future__ import annotations

from typing import Any

from maproom.domain import styles
from maproom.domain.actions import effects, models


def follow(view: dict[str, Any], actions: list[dict[str, Any]]) -> None:
    """Update `view` (`{"mapState", "layers"}` as `Turn.view` reads it) with `actions`."""
    for raw in actions:
        action = models.parse(raw, "action")
        if action.type in effects.VIEW_ACTIONS:
            view["mapState"] = effects.on_view(view["mapState"], action)
        else:
            _on_layers(view, action, raw.get("layer_id"))


def _on_layers(view: dict[str, Any], action: models.BaseAction, layer_id: Any) -> None:
    layers: list[dict[str, Any]] = view["layers"]
    by_id = {layer["layer_id"]: layer for layer in layers}
    layer = by_id.get(layer_id or "")
    if isinstance(action, models.ZoomToLayer) and layer is not None:
        view["mapState"] = effects.fit_layer(view["mapState"], layer.get("bbox"))
    elif isinstance(action, models.UpdateLayerStyle) and layer is not None:
        layer["style"] = styles.replace(layer["style"], action.style)
    elif isinstance(action, models.SetLayerFilter) and layer is not None:
        style = {k: v for k, v in layer["style"].items() if k != "filter"}
        layer["style"] = style if action.filter is None else {**style, "filter": action.filter}
    elif isinstance(action, models.MoveLayerUp | models.MoveLayerDown) and layer is not None:
        order = effects.order_after([x["layer_id"] for x in layers], action, layer["layer_id"])
        layers.sort(key=lambda item: order.index(item["layer_id"]))
    elif isinstance(action, models.ReorderLayers):
        given = [str(i) for i in action.layer_ids]
        layers.sort(
            key=lambda item: given.index(item["layer_id"]) if item["layer_id"] in given else 0
        )
    elif isinstance(action, models.RemoveLayer) and layer is not None:
        layers.remove(layer)
    elif layer is not None:
        layer.update(effects.layer_values(action))
