"""The tools a model may call during a chat turn, in the OpenAI chat-completions format.

Small local models read every token of the tools' schemas before each answer, so the tools
are few and compact (docs/chat.md, "A model behind an OpenAI-compatible server"):

- `map_actions`: a list of map actions, applied together as one batch (all or nothing). Its
  description is a catalogue of every action type with every parameter, generated from the
  action models (`maproom.domain.actions.models`), so nothing `POST .../map/actions` takes is
  out of the model's reach, and what a call gets wrong is answered with the same validation
  errors. A call of a tool named after an action type (`fly_to`), which models trained on
  other tools make, is read as that one action.
- Read tools: `list_layers`, `layer_fields` (a layer's fields and their statistics),
  `list_files`, `get_map_state`.
- `ask_user`: ends the turn with a question; the user's answer comes back as its result.
- Chosen per turn: an action the message names word for word ("zoom in", "undo") also as a
  tool of its own, with its exact parameters.

There is no tool to delete a project, a file or a key: the agent cannot.
"""

from __future__ import annotations

import copy
import functools
import re
from typing import Any

from maproom.domain.actions import models

READ_TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "read_project": (
        "Read the project: its layers (top first), one layer's fields with their statistics, "
        "its files, or the map's view, basemap and masks.",
        {
            "type": "object",
            "properties": {
                "what": {"enum": ["layers", "fields", "files", "map"]},
                "layer_id": {"type": "string", "description": "for fields"},
            },
            "required": ["what"],
        },
    ),
    "ask_user": (
        "Ask the user a question when a request is ambiguous; the answer comes back.",
        {
            "type": "object",
            "properties": {
                "question": {"type": "string"},
                "options": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["question"],
        },
    ),
}
# Earlier names of the read tools, still answered (models keep what they saw).
READ_ALIASES = {
    "list_layers": "layers", "layer_fields": "fields", "list_files": "files",
    "get_map_state": "map",
}  # fmt: skip
# The action parameters that name existing layers.
LAYER_KEYS = ("layer_id", "points_layer_id", "polygons_layer_id", "to_layer_id", "layer_ids")
ACTIONS_HELP = (
    "Change the map with a list of actions, applied together (all or nothing), each an "
    "object with type (one of the actions in the system message) and its parameters."
)
SHAPES = {
    "STYLE": (
        "{renderer?: {type: single|categorized|graduated|heatmap|interpolated, field?, "
        "classes?: 2..12, method?: quantile|equal, ramp?: Blues|Reds|Viridis|..., paint?: "
        "{circle-color|line-color|fill-color: #hex, circle-radius|line-width: px, "
        "fill-opacity: 0..1}, weightField? (heatmap), stops? (interpolated: [{value, paint}])}, "
        "label?: {field, visible}}; the server computes graduated and categorized classes"
    ),
    "FILTER": (
        "{field, op: ==|!=|<|<=|>|>=|in|not_in|contains|is_null|not_null, value?} or "
        "{all|any: [FILTER, ...]}"
    ),
}


def definitions(message: str = "") -> list[dict[str, Any]]:
    """The tools, as the chat-completions `tools` parameter wants them: `map_actions`, the
    read tools, `ask_user`, and, chosen per turn, each action whose name the message spells
    ("zoom in": `zoom_in`) as a tool of its own, whose exact schema lets a server that
    constrains its model's output to it (llama.cpp's) make a small model write it right."""
    actions = {
        "type": "object",
        "properties": {"actions": {"type": "array", "items": {"type": "object"}, "minItems": 1}},
        "required": ["actions"],
    }
    said = set(re.findall(r"[a-z]+", message.lower()))
    tools = [_action_tool(kind) for kind in models.MODELS if set(kind.split("_")) <= said]
    tools.append(_tool("map_actions", ACTIONS_HELP, actions))
    tools += [_tool(name, text, schema) for name, (text, schema) in READ_TOOLS.items()]
    return tools


def _action_tool(kind: str) -> dict[str, Any]:
    """One action as a tool of its own, its parameters the action model's JSON schema (its
    definitions inlined: local servers often cannot follow `$ref`)."""
    schema = models.MODELS[kind].model_json_schema()
    schema = _inline(schema, schema.pop("$defs", {}))
    schema["properties"].pop("type", None)
    schema["required"] = [name for name in schema.get("required", []) if name != "type"]
    for key in ("examples", "title", "description"):
        schema.pop(key, None)
    for prop in schema["properties"].values():
        prop.pop("title", None)
        prop.pop("description", None)
    return _tool(kind, kind.replace("_", " "), schema)


def _tool(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


@functools.cache
def catalogue() -> str:
    """One line per action type: its parameters ("?": optional) and the first words of what
    it does; then the shapes of a style and a filter. Plain text without quotes: some servers
    escape the system message as HTML, and a quote costs a small model five tokens."""
    lines = [_signature(kind, model) for kind, model in models.MODELS.items()]
    text = "\n".join([*lines, *(f"{name} = {text}" for name, text in SHAPES.items())])
    return text.replace("'s ", " ").replace("`", "")


def _signature(kind: str, model: type[models.BaseAction]) -> str:
    schema = model.model_json_schema()
    definitions_ = schema.get("$defs", {})
    required = set(schema.get("required", []))
    parts = []
    for name, prop in schema["properties"].items():
        if name == "type":
            continue
        prop = _inline(prop, definitions_)
        shape = {"style": "STYLE", "filter": "FILTER"}.get(name)
        hint = _hint(prop)
        if shape and hint in ("object", "any"):
            hint = shape
        hint = "" if hint == "text" else f": {hint}"  # a parameter is text unless it says
        parts.append(f"{name}{'' if name in required else '?'}{hint}")
    what = (schema.get("description") or "").split("\n\n")[0].replace("\n", " ")
    what = re.split(r"[.;:(]", what)[0].strip()
    if set(kind.split("_")) <= set(what.lower().split()) or len(what.split()) > 10:
        what = ""  # the name says it, or it takes more words than it is worth
    return f"{kind}({', '.join(parts)}){': ' + what if what else ''}"


def _hint(prop: dict[str, Any]) -> str:
    """A parameter's type in a few characters."""
    options = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    prop = options[0] if options else prop
    if "enum" in prop:
        return "|".join(str(v) for v in prop["enum"])
    kind = prop.get("type", "any")
    if kind == "array":
        items = prop.get("items", {})
        if prop.get("minItems") == prop.get("maxItems") == 2:
            return "[lng, lat]"
        if prop.get("minItems") == prop.get("maxItems") == 4:
            return "[west, south, east, north]"
        return f"[{_hint(items)}]" if items else "[...]"
    if kind in ("number", "integer"):
        low, high = prop.get("minimum"), prop.get("maximum")
        return f"{low:g}..{high:g}" if low is not None and high is not None else "number"
    if kind == "string" and "pattern" in prop and "#" in prop["pattern"]:
        return "#hex"
    described = str(prop.get("description", ""))
    if kind == "string" and described.startswith("One of "):
        return described.removeprefix("One of ").replace(", or ", "|").replace(", ", "|")
    return {"string": "text", "boolean": "true|false", "object": "object"}.get(kind, str(kind))


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


def short_ids(view: dict[str, Any]) -> dict[str, str]:
    """Each layer's id by a short form of it (its first characters, at least six, as many as
    tell it from the others): a UUID costs a small model some 25 tokens, the short form 4."""
    ids = [layer["layer_id"] for layer in view["layers"]]
    short: dict[str, str] = {}
    for layer_id in ids:
        size = 6
        while any(o != layer_id and o.startswith(layer_id[:size]) for o in ids) and size < 36:
            size += 2
        short[layer_id[:size]] = layer_id
    return short


def full_ids(raw: Any, view: dict[str, Any]) -> Any:
    """An action as a model wrote it, with the short layer ids it used made whole."""
    if not isinstance(raw, dict):
        return raw
    whole = short_ids(view)
    out = dict(raw)
    for key in LAYER_KEYS:
        value = out.get(key)
        if isinstance(value, str):
            out[key] = whole.get(value, value)
        elif isinstance(value, list):
            out[key] = [whole.get(v, v) if isinstance(v, str) else v for v in value]
    return out


def project_text(view: dict[str, Any]) -> str:
    """The project as the system message shows it: a few plain lines (see `catalogue`)."""
    state = view["mapState"]
    basemap = state.get("basemap") or {}
    lines = [
        f"Title: {_plain(view['title'])}",
        f"View: center {state['center'][0]:g},{state['center'][1]:g}, zoom {state['zoom']:g}, "
        f"bearing {state.get('bearing', 0):g}, pitch {state.get('pitch', 0):g}; "
        f"basemap {_plain(str(basemap.get('style', 'light')))}"
        + (
            f"; mask {state['countryMask'].get('country_code')}" if state.get("countryMask") else ""
        ),
        "Layers (id name: details), top first:" if view["layers"] else "No layers.",
    ]
    for layer in layers_summary(view):
        details = [
            str(layer.get("geometry") or layer.get("kind", "")),
            f"{layer.get('features', 0)} features",
        ]
        if layer.get("fields"):
            details.append("fields " + ", ".join(_plain(f) for f in layer["fields"]))
        if layer.get("renderer") not in (None, "single"):
            details.append(f"renderer {layer['renderer']}")
        if layer.get("hidden"):
            details.append("hidden")
        lines.append(f"- {layer['id']} {_plain(layer['name'])}: {'; '.join(details)}")
    return "\n".join(lines)


def _plain(text: str) -> str:
    """A name on one line, without the characters a server may escape."""
    return " ".join(re.sub(r"[\"'<>&]", " ", text).split())[:120]


def layers_summary(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The layers as the model sees them: short ids, and only what is not the default."""
    short = {whole: alias for alias, whole in short_ids(view).items()}
    summary = []
    for layer in view["layers"]:
        item: dict[str, Any] = {
            "id": short[layer["layer_id"]],
            "name": layer["name"],
            "geometry": layer["geometry_type"],
            "features": layer["feature_count"],
            "fields": [field["name"] for field in layer.get("fields") or []],
            "renderer": (layer.get("style") or {}).get("renderer", {}).get("type"),
        }
        if layer["layer_type"] != "geojson":
            item["kind"] = layer["layer_type"]
        if not layer["visible"]:
            item["hidden"] = True
        summary.append({key: value for key, value in item.items() if value not in (None, [])})
    return summary


def read(name: str, arguments: dict[str, Any], view: dict[str, Any]) -> Any:
    """The answer of a read tool."""
    what = READ_ALIASES.get(name) or arguments.get("what")
    if what == "layers":
        return {"layers": layers_summary(view)}
    if what == "fields":
        wanted = full_ids(arguments, view).get("layer_id")
        layer = next((x for x in view["layers"] if x["layer_id"] == wanted), None)
        if layer is None:
            return {"error": "no layer with this id", "layers": layers_summary(view)}
        return {"layer": layer["name"], "fields": layer.get("fields")}
    if what == "files":
        return {"files": [{k: f[k] for k in ("id", "fileName", "fileType", "fileSize")}
                          for f in view["files"]]}  # fmt: skip
    return {"title": view["title"], "mapState": view["mapState"]}
