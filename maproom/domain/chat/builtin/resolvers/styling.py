"""How layers are drawn: colour, size, opacity, classes by a field, size by a field, heatmaps
and labels ("make the cafes green", "thicker rivers", "colour the counties by population in 3
classes", "size the cities by population", "heatmap weighted by population", "label the
cities with their names").

Every change is one `update_layer_style` with the layer's whole style: a new colour makes a
classified layer one colour again; a new size or opacity keeps its classes.
"""

from __future__ import annotations

import re
from typing import Any

from maproom.domain.chat.builtin import colours, targets
from maproom.domain.chat.builtin.gazetteer import fold
from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Ask, Done, Fail, Outcome, offer, phrase
from maproom.domain.chat.builtin.resolvers import data
from maproom.domain.chat.builtin.targets import Layer, names_of, with_layers
from maproom.domain.chat.builtin.text import number
from maproom.domain.styles import default_style

COLOUR_KEYS = {"Point": ("circle-color",), "LineString": ("line-color",),
               "Polygon": ("fill-color",)}  # fmt: skip
OPACITY_KEYS = {"Point": ("circle-opacity",), "LineString": ("line-opacity",),
                "Polygon": ("fill-opacity",)}  # fmt: skip
SIZE_KEYS = {"Point": "circle-radius", "LineString": "line-width", "Polygon": "_outline-width"}
DEFAULT_SIZE = {"circle-radius": 5.0, "line-width": 2.0, "_outline-width": 1.0}
SIZE_RANGE = {"circle-radius": (3.0, 18.0), "line-width": (1.0, 8.0)}  # size by a field
DEFAULT_OPACITY = 0.9
RAMP_WORDS = {
    "blue": "Blues", "blues": "Blues", "green": "Greens", "greens": "Greens", "grey": "Greys",
    "gray": "Greys", "greys": "Greys", "orange": "Oranges", "oranges": "Oranges",
    "purple": "Purples", "purples": "Purples", "red": "Reds", "reds": "Reds",
    "heat": "YlOrRd", "yellow to red": "YlOrRd", "yellow": "YlOrRd", "viridis": "Viridis",
    "spectral": "Spectral", "rainbow": "Spectral", "diverging": "RdYlBu",
    "red to blue": "RdYlBu", "yellow to blue": "YlGnBu", "ylgnbu": "YlGnBu",
}  # fmt: skip
# The colours offered when a colour change names none.
OFFERED_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "black", "grey")
# Words for a layer's numbers in general ("by their numbers"): which field, when several.
NUMBERS = frozenset({"number", "numbers", "value", "values", "figures", "numeric values",
                     "numeric fields", "amounts", "quantities"})  # fmt: skip
CLASS_WORDS = r"classes|colou?rs|groups|bins|buckets|categories|steps|breaks|intervals|levels"


def restyle(
    layer: Layer,
    paint: dict[str, Any],
    renderer: dict[str, Any] | None = None,
    *,
    recolour: bool = False,
    **top: Any,
) -> dict[str, Any]:
    """An `update_layer_style`: the layer's style with a new paint, renderer or top-level key
    (`label`). A new colour makes a classified layer one colour again, unless its classes vary
    only the size ("size the cities by population and make them purple"); a new size or
    opacity keeps its classes (it goes to the renderer's shared paint, or a heatmap's
    opacity)."""
    style = {key: value for key, value in layer["style"].items() if key != "_meta"}
    current = dict(style.get("renderer") or {})
    sized_only = current.get("type") == "interpolated" and not any(
        key.endswith("color")
        for stop in current.get("stops") or []
        for key in stop.get("paint", {})
    )
    if renderer is None:
        kind = current.get("type") or "single"
        recolour = recolour and not sized_only
        if kind == "heatmap" and not recolour:
            opacity = [v for k, v in paint.items() if k.endswith("opacity")]
            renderer = {**current, **({"opacity": opacity[0]} if opacity else {})}
        elif kind != "single" and not recolour:
            renderer = {**current, "paint": {**(current.get("paint") or {}), **paint}}
        else:
            base = dict(current.get("paint") or {}) if kind == "single" else {}
            renderer = {"type": "single", "paint": {**base, **paint}}
            if kind != "single" and current.get("outline"):
                renderer["outline"] = current["outline"]
    style["renderer"] = renderer
    style.update(top)
    return {"type": "update_layer_style", "layer_id": layer["layer_id"], "style": style}


def _geojson(found: list[Layer]) -> Fail | None:
    image = [layer for layer in found if layer["layer_type"] != "geojson"]
    return Fail(phrase("image_layer", layer=image[0]["name"])) if image else None


@resolves("colour")
def colour(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "make the cafes green", "colour it #ff8800"; "change the colour of the cities" asks
    which colour."""
    if slots.get("uncoloured"):  # no colour said
        return with_layers(mind, slots["layer"], chosen, lambda found: offer(
            phrase("which_colour", layers=names_of(found)), list(OFFERED_COLOURS),
            lambda said: painted(found, said),
        ))  # fmt: skip
    said = slots.get("color", "").split(" ")
    for cut in range(1, min(len(said), 4)):  # "the sites and the | cities blue": cities too
        if colours.parse(slots.get("color", "")) is None and colours.parse(" ".join(said[cut:])):
            layer = " ".join([slots.get("layer") or "", *said[:cut]]).strip()
            slots = {**slots, "layer": layer, "color": " ".join(said[cut:])}
            break
    if colours.parse(slots.get("color", "")) is None:
        return None
    return with_layers(
        mind, slots.get("layer"), chosen, lambda found: painted(found, slots["color"])
    )


def painted(found: list[Layer], said: str) -> Outcome:
    """These layers in one colour, as said ("green", "#ff8800")."""
    value = colours.parse(said)
    actions = []
    for layer in found:
        if layer["layer_type"] != "geojson":
            return Fail(phrase("image_layer", layer=layer["name"]))
        keys = COLOUR_KEYS.get(layer["geometry_type"], sum(COLOUR_KEYS.values(), ()))
        actions.append(restyle(layer, {key: value for key in keys}, recolour=True))
    return Done(actions, [phrase("coloured", layers=names_of(found), colour=colours.words(said))])


@resolves("size")
def size(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "make the cafes bigger", "thicker rivers", "set the radius to 10", "more transparent"."""
    how = (slots.get("how") or "").lower()
    verb, what = (slots.get("verb") or "").lower(), (slots.get("what") or "").lower()
    if verb:
        grow = verb in ("increase", "enlarge", "grow", "boost", "raise")
        how = {"opacity": "more opaque" if grow else "more transparent",
               "transparency": "more transparent" if grow else "more opaque",
               "visibility": "more opaque" if grow else "more transparent",
               }.get(what, "bigger" if grow else "smaller")  # fmt: skip
    value = number(slots.get("value") or "")
    if value is not None:
        if not 0 < value <= 200:
            return None
        how = f"{value:g}"
    if not how:
        return None

    def make(found: list[Layer]) -> Outcome:
        actions = [sized(layer, how) for layer in found]
        if any(a is None for a in actions) or _geojson(found):
            return _geojson(found) or Fail(phrase("cannot_size", layers=names_of(found), how=how))
        return Done([a for a in actions if a], [phrase("sized", layers=names_of(found), how=how)])

    return with_layers(mind, slots.get("layer") or None, chosen, make)


def sized(layer: Layer, how: str) -> dict[str, Any] | None:
    """The style action that makes a layer `how` ("bigger", "12", "times 2", "more opaque")."""
    geometry = layer["geometry_type"] or "Point"
    paint = ((layer["style"].get("renderer") or {}).get("paint")) or {}
    if re.search(r"transparent|opaque|faint|visible|see", how):
        keys = OPACITY_KEYS.get(geometry, ("circle-opacity", "line-opacity", "fill-opacity"))
        current = float(next((paint[k] for k in keys if k in paint), DEFAULT_OPACITY))
        return restyle(layer, {key: _opacity(how, current) for key in keys})
    key = SIZE_KEYS.get(geometry)
    if key is None:
        return None
    current = float(paint.get(key, DEFAULT_SIZE[key]))
    if number(how) is not None:  # a size in pixels ("set the radius to 10")
        return restyle(layer, {key: number(how)})
    if how.startswith("times "):  # "twice as big", "half the size"
        return restyle(layer, {key: round(max(0.5, current * float(how[6:])), 2)})
    grow = bool(re.search(r"bigger|larger|thicker|wider|fatter|biggest|largest", how))
    factor = 1.5 if grow else 1 / 1.5
    if "much" in how:
        factor = factor**2
    if "bit" in how or "little" in how:
        factor = factor**0.5
    return restyle(layer, {key: round(max(0.5, current * factor), 2)})


def _opacity(how: str, current: float) -> float:
    if how in ("semi-transparent", "semi transparent", "see-through", "see through"):
        value = 0.5
    elif how == "transparent":
        value = 0.3
    elif how == "opaque":
        value = 1.0
    else:
        see_through = "more transparent" in how or "less opaque" in how or "faint" in how
        value = current - 0.25 if see_through else current + 0.25
    return round(max(0.05, min(1.0, value)), 2)


TOO = {"small": "bigger", "tiny": "bigger", "thin": "thicker", "big": "smaller",
       "large": "smaller", "huge": "smaller", "thick": "thinner", "bold": "thinner",
       "faint": "more opaque", "transparent": "more opaque", "see-through": "more opaque",
       "opaque": "more transparent", "strong": "more transparent"}  # fmt: skip


@resolves("too")
def too(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "the city dots are too small": the other way."""
    how = TOO.get((slots.get("too") or "").lower())
    if how is None:
        return None
    return size(mind, {**slots, "how": how}, chosen)


@resolves("opacity")
def opacity(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "opacity 50%", "make the counties 30% transparent"."""
    value = number(slots.get("value", ""))
    if value is None:
        return None
    if slots.get("pct") or value > 1:
        value /= 100
    if "transparen" in (slots.get("unit") or ""):
        value = 1 - value
    if not 0 <= value <= 1:
        return None

    def make(found: list[Layer]) -> Outcome:
        actions = []
        for layer in found:
            keys = OPACITY_KEYS.get(layer["geometry_type"] or "", ("circle-opacity",
                                    "line-opacity", "fill-opacity"))  # fmt: skip
            actions.append(restyle(layer, {key: round(value, 3) for key in keys}))
        percent = round(value * 100)
        return Done(actions, [phrase("opacity", layers=names_of(found), percent=percent)])

    return with_layers(mind, slots.get("layer") or None, chosen, make)


def _field_or_fail(layer: Layer, text: str, numeric: bool = False) -> dict[str, Any] | Fail:
    fields = targets.numeric_fields(layer) if numeric else list(layer.get("fields") or [])
    found = targets.field_named(text, fields)
    if found is not None:
        return found
    names = ", ".join(f["name"] for f in fields) or "-"
    return Fail(phrase("no_field", layer=layer["name"], field=text, fields=names))


@resolves("heatmap")
def heatmap(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "heatmap of the cafes", "show the cities as a heatmap weighted by population"."""
    weight = (slots.get("weight") or "").strip()

    def make(found: list[Layer]) -> Outcome:
        layer = found[0]
        if layer["geometry_type"] != "Point":
            return Fail(phrase("heatmap_points", layer=layer["name"]))
        renderer: dict[str, Any] = {"type": "heatmap", "radius": 20, "opacity": 0.8}
        if weight:
            field = _field_or_fail(layer, weight, numeric=True)
            if isinstance(field, Fail):
                return field
            renderer["weightField"] = field["name"]
            said = phrase("heatmap_weighted", layer=layer["name"], field=field["name"])
            return Done([restyle(layer, {}, renderer)], [said])
        return Done([restyle(layer, {}, renderer)], [phrase("heatmap", layer=layer["name"])])

    return with_layers(mind, slots.get("layer"), chosen, make, single=True)


@resolves("classify")
def classify(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "colour the counties by population in 7 classes", "colour the cafes by kind"."""
    field_text = slots.get("field", "").strip()
    if not field_text:
        return None

    def make(found: list[Layer], field_text: str = field_text) -> Outcome:
        layer = found[0]
        if not layer.get("fields"):
            return Fail(phrase("no_fields", layer=layer["name"]))
        field = _field_or_fail(layer, field_text)
        if isinstance(field, Fail):
            numeric = [f["name"] for f in targets.numeric_fields(layer)]
            if fold(re.sub(r"^(?:the|their|its) ", "", field_text)) in NUMBERS and numeric:
                # "by their numbers": which of them
                which = phrase("which_number", layer=layer["name"], fields=", ".join(numeric))
                return offer(which, numeric, lambda name: make(found, name))
            return field
        renderer = classes(field, slots.get("opts", "") + " " + slots.get("clause", ""))
        if renderer["type"] == "graduated":
            said = phrase("classified", layer=layer["name"], field=field["name"],
                          classes=renderer.get("classes", 5),
                          method=renderer.get("method", "quantile"))  # fmt: skip
        else:
            said = phrase("categorized", layer=layer["name"], field=field["name"])
        return Done([restyle(layer, {}, renderer)], [said])

    if not slots.get("layer") and chosen is None:  # "shade by population": whose population?
        holder = data.one_layer(mind, "", field_text)
        if not isinstance(holder, dict):
            # "colour by district" with no such field: each district its own colour
            named = targets.named(mind, field_text)
            if isinstance(named, list) and len(named) == 1 and data.name_fields(named[0]):
                return make(named, data.name_fields(named[0])[0]["name"])
            return holder
        chosen = [holder["layer_id"]]
    return with_layers(mind, slots.get("layer"), chosen, make, single=True)


def classes(field: dict[str, Any], options: str) -> dict[str, Any]:
    """A classified renderer on a field: graduated for numbers (its classes, method and ramp
    from the words), categorized otherwise. The server computes the classes."""
    words = options.lower()
    renderer: dict[str, Any] = {"field": field["name"]}
    if field["type"] == "number":
        renderer |= {"type": "graduated", "method": "quantile"}
        if re.search(r"equal|interval|even", words):
            renderer["method"] = "equal"
        count = re.search(rf"(\S+) (?:{CLASS_WORDS})\b", words)
        found = number(count.group(1)) if count else None
        if found is not None and 2 <= found <= 12:
            renderer["classes"] = int(found)
    else:
        renderer["type"] = "categorized"
    for word, ramp in sorted(RAMP_WORDS.items(), key=lambda item: -len(item[0])):
        if re.search(rf"\b{re.escape(word)}\b", words.replace(field["name"].lower(), " ")):
            renderer["ramp"] = ramp
            break
    return renderer


@resolves("size_by")
def size_by(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "size the cities by population", "line width by length": the symbol grows with the
    field, from its smallest value to its largest (an interpolated renderer)."""
    field_text = (slots.get("field") or "").strip()
    if not field_text:
        return None

    def make(found: list[Layer]) -> Outcome:
        layer = found[0]
        key = {"Point": "circle-radius", "LineString": "line-width"}.get(layer["geometry_type"])
        if key is None:
            return Fail(phrase("cannot_size_by", layer=layer["name"]))
        field = _field_or_fail(layer, field_text, numeric=True)
        if isinstance(field, Fail):
            return field
        low, high = field.get("min"), field.get("max")
        if low is None or high is None or high <= low:
            return Fail(phrase("field_constant", layer=layer["name"], field=field["name"]))
        small, big = SIZE_RANGE[key]
        current = (layer["style"].get("renderer") or {}).get("paint") or {}
        renderer = {
            "type": "interpolated", "field": field["name"], "interpolation": "linear",
            "paint": {k: v for k, v in current.items() if k != key},
            "stops": [{"value": low, "paint": {key: small}}, {"value": high, "paint": {key: big}}],
        }  # fmt: skip
        return Done([restyle(layer, {}, renderer)],
                    [phrase("sized_by", layer=layer["name"], field=field["name"])])  # fmt: skip

    return with_layers(mind, slots.get("layer"), chosen, make, single=True)


@resolves("label")
def label(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "label the cities with their names", "show the names of the sites", "hide the labels"."""
    off = bool(slots.get("off"))
    field_text = (slots.get("field") or "name").strip()
    if not slots.get("layer") and chosen is None and (off or not mind.memory.layers):
        if off or field_text != "names":
            return None  # "turn off the labels": the basemap's
        # "show the names": of the features of which layer?
        named = [layer for layer in mind.layers if layer["layer_type"] == "geojson"
                 and any(f.get("type") == "string" for f in layer.get("fields") or [])]  # fmt: skip
        if len(named) != 1:
            return targets.which(named) if named else None
        chosen = [named[0]["layer_id"]]

    def make(found: list[Layer]) -> Outcome:
        actions = []
        used: list[str] = []
        for layer in found:
            if layer["layer_type"] != "geojson":
                return Fail(phrase("image_layer", layer=layer["name"]))
            if off:
                actions.append(restyle(layer, {}, layer["style"].get("renderer"),
                                       label={"visible": False}))  # fmt: skip
                continue
            field = _label_field(layer, field_text)
            if isinstance(field, Fail):
                return field
            shown = {**(layer["style"].get("label") or {}), "field": field, "visible": True}
            actions.append(restyle(layer, {}, layer["style"].get("renderer"), label=shown))
            used.append(field)
        if off:
            return Done(actions, [phrase("labels_off", layers=names_of(found))])
        said = used[0] if len(set(used)) == 1 else field_text  # the field it found
        return Done(actions, [phrase("labelled", layers=names_of(found), field=said)])

    return with_layers(mind, slots.get("layer"), chosen, make)


def _label_field(layer: Layer, text: str) -> str | Fail:
    fields = list(layer.get("fields") or [])
    found = targets.field_named(text, fields)
    of = re.fullmatch(r"(?:names?|titles?) of (?:the |each |every |their )?(?P<what>[\w ]+)", text)
    if found is None and of:  # "the name of the county": the county field, else the name
        found = targets.field_named(of.group("what"), fields)
        text = "name" if found is None else text
    if found is None and text in ("name", "names", "title", "titles", "label", "labels"):
        strings = [f for f in fields if f.get("type") == "string"]
        found = strings[0] if strings else None
    if found is None:
        names = ", ".join(f["name"] for f in fields) or "-"
        return Fail(phrase("no_field", layer=layer["name"], field=text, fields=names))
    return str(found["name"])


@resolves("colour_each")
def colour_each(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "give every county a different colour": one colour per feature, by its name field."""
    layers = targets.named(mind, slots.get("layer") or "")
    if not isinstance(layers, list) or len(layers) != 1:
        return layers if isinstance(layers, Ask) else None
    texts = [f for f in layers[0].get("fields") or [] if f.get("type") == "string"]
    named = [f for f in texts if fold(f["name"]) in ("name", "title", "label")] or texts
    if not named:
        return None
    return mind.resolve("classify", {"layer": layers[0]["name"], "field": named[0]["name"]})


@resolves("plain_style")
def plain_style(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "turn the heatmap off", "reset the style of the cafes": the layer's default style
    (of its geometry), its filter and labels kept; without a layer named, the heatmaps."""
    text = slots.get("layer") or ""
    if text:
        found = targets.named(mind, text)
        if not isinstance(found, list):
            return found
    else:
        found = [
            layer
            for layer in mind.layers
            if (layer.get("style") or {}).get("renderer", {}).get("type") == "heatmap"
        ]
        if len(found) != 1:
            return targets.which(found or list(mind.layers)) if mind.layers else None
    actions = []
    for layer in found:
        style = {**(layer.get("style") or {}),
                 **default_style(layer["layer_type"], layer["geometry_type"])}  # fmt: skip
        actions.append({"type": "update_layer_style", "layer_id": layer["layer_id"],
                        "style": style})  # fmt: skip
    mind.memory.named([layer["layer_id"] for layer in found])
    return Done(actions, [phrase("style_reset", layers=names_of(found))])


OUTLINE_KEYS = {"Point": "circle-stroke-color", "Polygon": "_outline-color"}


@resolves("outline")
def outline(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "outline the counties in black", "give the cafes a white border", "... with a white
    border" (after a colour: the same layer)."""
    value = colours.parse(slots.get("color", ""))
    if value is None:
        return None

    def make(found: list[Layer]) -> Outcome:
        actions = []
        for layer in found:
            key = OUTLINE_KEYS.get(layer["geometry_type"] or "")
            if layer["layer_type"] != "geojson" or key is None:  # a line has no outline
                return Fail(phrase("no_outline", layer=layer["name"]))
            actions.append(restyle(layer, {key: value}))
        said = colours.words(slots["color"])
        return Done(actions, [phrase("outlined", layers=names_of(found), colour=said)])

    return with_layers(mind, slots.get("layer") or "it", chosen, make)
