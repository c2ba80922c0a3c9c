"""The tools a model may call during a chat turn, in the OpenAI chat-completions format.

- One tool per map action type, named after it, whose parameters are the action model's own
  JSON schema (`maproom.domain.actions.models`) without `type` (the name says it) and with its
  definitions inlined (local servers often cannot follow `$ref`). So the model and
  `POST .../map/actions` see the same parameters, bounds and descriptions. The calls of one
  model message are applied as one batch.
- Read tools: `list_layers`, `layer_fields` (a layer's fields and their statistics),
  `list_files`, `get_map_state`.
- `ask_user`: ends the turn with a question; the user's answer comes back as its result.

There is no tool to delete a project, a file or a key: the agent cannot.
"""

from __future__ import annotations

import copy
from typing import Any

from maproom.domain.actions import models

READ_TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "list_layers": (
        "The project's layers, top first: id, name, kind, geometry, visibility, feature count, "
        "field names.",
        {"type": "object", "properties": {}},
    ),
    "layer_fields": (
        "A layer's fields with their type, minimum, maximum and sample values.",
        {
            "type": "object",
            "properties": {"layer_id": {"type": "string", "description": "From list_layers"}},
            "required": ["layer_id"],
        },
    ),
    "list_files": (
        "The project's files: id, name, type, size.",
        {"type": "object", "properties": {}},
    ),
    "get_map_state": (
        "The map's view (center, zoom, bearing, pitch), basemap and masks.",
        {"type": "object", "properties": {}},
    ),
    "ask_user": (
        "Ask the user a question (when a request is ambiguous) and wait for the answer.",
        {
            "type": "object",
            "properties": {
                "question": {"type": "string"},
                "options": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Choices to offer (optional)",
                },
            },
            "required": ["question"],
        },
    ),
}
STYLE_HELP = (
    'A layer style: {"renderer": {"type": single|categorized|graduated|heatmap|interpolated, '
    '"paint": {circle-color, circle-radius, circle-opacity, line-color, line-width, '
    'line-opacity, fill-color, fill-opacity: CSS hex colours and numbers}, "field": a field '
    'name, "method": quantile|equal, "classes": 2..12, "ramp": Blues|Greens|Reds|YlOrRd|'
    "Viridis|...}}. Give a graduated or categorized renderer a field and no classes: the "
    "server computes them."
)


def definitions() -> list[dict[str, Any]]:
    """Every tool, as the chat-completions `tools` parameter wants them."""
    tools = [_action_tool(kind, model) for kind, model in models.MODELS.items()]
    tools += [
        {"type": "function", "function": {"name": name, "description": text, "parameters": schema}}
        for name, (text, schema) in READ_TOOLS.items()
    ]
    return tools


def _action_tool(kind: str, model: type[models.BaseAction]) -> dict[str, Any]:
    schema = model.model_json_schema()
    definitions_ = schema.pop("$defs", {})
    schema = _inline(schema, definitions_)
    schema["properties"].pop("type", None)
    schema["required"] = [name for name in schema.get("required", []) if name != "type"]
    schema.pop("examples", None)
    schema.pop("title", None)
    description = schema.pop("description", "") or kind
    if "style" in schema["properties"]:
        schema["properties"]["style"] = {"type": "object", "description": STYLE_HELP}
    for prop in schema["properties"].values():
        prop.pop("title", None)
    return {
        "type": "function",
        "function": {"name": kind, "description": description, "parameters": schema},
    }


def _inline(node: Any, definitions_: dict[str, Any]) -> Any:
    """`node` with every `$ref` to a definition replaced by the definition."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = copy.deepcopy(definitions_[ref.rsplit("/", 1)[1]])
            return _inline(
                {**target, **{k: v for k, v in node.items() if k != "$ref"}}, definitions_
            )
        return {key: _inline(value, definitions_) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(value, definitions_) for value in node]
    return node


def layers_summary(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The layers as `list_layers` answers them."""
    return [
        {
            "id": layer["layer_id"],
            "name": layer["name"],
            "kind": layer["layer_type"],
            "geometry": layer["geometry_type"],
            "visible": layer["visible"],
            "feature_count": layer["feature_count"],
            "fields": [field["name"] for field in layer.get("fields") or []],
            "renderer": (layer.get("style") or {}).get("renderer", {}).get("type"),
        }
        for layer in view["layers"]
    ]


def read(name: str, arguments: dict[str, Any], view: dict[str, Any]) -> Any:
    """The answer of a read tool."""
    if name == "list_layers":
        return {"layers": layers_summary(view)}
    if name == "layer_fields":
        layer = next(
            (x for x in view["layers"] if x["layer_id"] == arguments.get("layer_id")), None
        )
        if layer is None:
            return {"error": "no layer with this id", "layers": layers_summary(view)}
        return {"layer": layer["name"], "fields": layer.get("fields")}
    if name == "list_files":
        return {"files": [{k: f[k] for k in ("id", "fileName", "fileType", "fileSize")}
                          for f in view["files"]]}  # fmt: skip
    return {"title": view["title"], "mapState": view["mapState"]}
