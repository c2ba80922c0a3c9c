"""Filters and derived layers by chat: "only show cities with more than 10 million people",
"hide the districts with fewer than 1,000 people", "show all the cities again", "buffer the
cities by 50 km", "count the sites in each district", "dissolve the districts by region",
"clip the rivers to Portugal", "save the museums as a new layer" (docs/analysis.md)."""

from __future__ import annotations

import re
from typing import Any

from maproom.domain.chat.builtin import conditions, targets
from maproom.domain.chat.builtin.gazetteer import Place
from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Ask, Done, Fail, Outcome, phrase
from maproom.domain.chat.builtin.resolvers import data, places
from maproom.domain.chat.builtin.targets import Layer
from maproom.domain.chat.builtin.text import number

UNITS = {"km": "km", "kilometer": "km", "kilometre": "km", "kilometers": "km",
         "kilometres": "km", "m": "m", "meter": "m", "metre": "m", "meters": "m",
         "metres": "m", "mi": "mi", "mile": "mi", "miles": "mi"}  # fmt: skip
AGGREGATES = {"count": "count", "number": "count", "how many": "count", "sum": "sum",
              "total": "sum", "average": "mean", "mean": "mean", "max": "max",
              "maximum": "max", "highest": "max", "min": "min", "minimum": "min",
              "lowest": "min"}  # fmt: skip


def _one(mind: Mind, text: str) -> Layer | Outcome | None:
    found = targets.named(mind, text)
    if found is None or isinstance(found, Ask):
        return found
    if len(found) > 1:
        return targets.which(found, text)
    mind.memory.named([found[0]["layer_id"]])
    return found[0]


def _with_value(
    mind: Mind, text: str, chosen: list[str] | None = None
) -> tuple[Layer, dict[str, Any]] | Outcome | None:
    """A layer and condition from "cities with more than 10 million people", or from a value
    alone ("the museums": the layer whose data holds museums); a condition several layers
    could take ("population over 2000") asks which, unless the conversation named one."""
    if chosen is not None:
        picked = [layer for layer in mind.layers if layer["layer_id"] in chosen]
        where = conditions.parse(mind, picked[0], text) if len(picked) == 1 else None
        return (picked[0], where) if isinstance(where, dict) else where
    layers, rest = data.split(mind, text)
    rest = re.sub(r"^(?:(?:my|our|the|all|of|a|an|data|layers?|to)\b ?)+", "", rest).strip()
    if layers is not None and not rest:
        return None  # a layer and no condition: not a filter ("show only the counties")
    if isinstance(layers, Ask):
        return layers
    if layers:
        if len(layers) > 1:
            return targets.which(layers, text)
        where = conditions.parse(mind, layers[0], rest) if rest else None
        if where is None or isinstance(where, Fail):
            return where
        return layers[0], where
    fits = conditions.fitting(mind, text)
    named = [fit for fit in fits if fit[0]["layer_id"] in mind.memory.layers]
    if len(named) == 1 or len(fits) == 1:
        return (named or fits)[0]
    return targets.which([layer for layer, _ in fits], text) if fits else None


@resolves("filter")
def filter_layer(
    mind: Mind, slots: dict[str, str], chosen: list[str] | None = None
) -> Outcome | None:
    """ "only show cities with more than 10 million people", "hide the districts with fewer
    than 1,000 people" (the filter keeps the others, and what it kept before)."""
    rest = slots.get("rest", "")
    if slots.get("bare"):  # only as the answer to the question of `_no_condition`
        if not mind.memory.field:
            return None
        rest = slots["bare"]
    if slots.get("cond"):  # "filter cities to those between 1 and 10 million people"
        rest = f"{rest} {slots['cond']}"
    if chosen is None and re.fullmatch(r"(?:only |just )?(?:those|these|them|the ones|ones)",
                                       rest.strip()):  # fmt: skip
        return _the_answered(mind)
    if chosen is None:
        bare = _no_condition(mind, rest)
        if bare is not None:
            return bare
    found = _with_value(mind, rest, chosen)
    if not isinstance(found, tuple):
        return found
    layer, where = found
    hide = bool(slots.get("hide"))
    if hide:
        where = conditions.negate(where)
    own = (layer.get("style") or {}).get("filter")
    # "only the capitals", then "now just the european ones": the ones shown, narrowed
    if own and (hide or slots.get("narrow") or re.search(r"\bones\b", rest)):
        where = {"all": [own, where]}
    mind.memory.named([layer["layer_id"]])
    action = {"type": "set_layer_filter", "layer_id": layer["layer_id"], "filter": where}
    return Done([action], [phrase("filtered_hide" if hide else "filtered", layer=layer["name"])])


def _the_answered(mind: Mind) -> Outcome | None:
    """ "show only those": the features the last question counted ("how many cities are in
    France?")."""
    subset = mind.memory.subset
    layer = next((item for item in mind.layers if subset and item["layer_id"] == subset["layer"]),
                 None)  # fmt: skip
    if layer is None or subset is None:
        return None
    mind.memory.named([layer["layer_id"]])
    action = {"type": "set_layer_filter", "layer_id": layer["layer_id"], "filter": subset["filter"]}
    return Done([action], [phrase("filtered", layer=layer["name"])])


def _no_condition(mind: Mind, rest: str) -> Outcome | None:
    """ "filter by population": a field and no condition, so ask what to keep."""
    bare = re.fullmatch(r"(?:(?:the )?(?P<layer>[^\d]+?) )?(?:by|on|using|according to)"
                        r"(?: the| their| its)? (?P<field>[^\W\d]+(?: [^\W\d]+)?)(?: field)?",
                        rest.strip())  # fmt: skip
    if bare is None:
        return None
    named = targets.named(mind, bare["layer"]) if bare["layer"] else list(mind.layers)
    if isinstance(named, Ask) and bare["layer"] in targets.PRONOUNS:
        named = list(mind.layers)  # "filter it by population" with nothing named: the field tells
    if not isinstance(named, list):
        return None
    fields = [(layer, targets.field_named(bare["field"], layer.get("fields") or []))
              for layer in named]  # fmt: skip
    holding = [(layer, field) for layer, field in fields if field is not None]
    if not holding:
        return None
    field = holding[0][1]
    mind.memory.field = str(field["name"])
    mind.memory.named([layer["layer_id"] for layer, _ in holding])
    layers = targets.names_of([layer for layer, _ in holding])
    return Ask(phrase("filter_how", layers=layers, field=field["name"]), [], [])


@resolves("unfilter")
def unfilter(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "show all the cities again", "remove the filter"."""

    def make(found: list[Layer]) -> Outcome:
        filtered = [layer for layer in found if (layer.get("style") or {}).get("filter")]
        if not filtered and slots.get("layer") and not re.search(r"filter", slots["clause"]):
            return Fail(phrase("not_filtered", layers=targets.names_of(found)))
        actions = [{"type": "set_layer_filter", "layer_id": layer["layer_id"], "filter": None}
                   for layer in filtered or found]  # fmt: skip
        return Done(actions, [phrase("unfiltered", layers=targets.names_of(filtered or found))])

    if not slots.get("layer"):
        filtered = [layer for layer in mind.layers if (layer.get("style") or {}).get("filter")]
        if len(filtered) == 1:
            return make(filtered)
    return targets.with_layers(mind, slots.get("layer"), chosen, make)


def _named(slots: dict[str, str]) -> dict[str, str]:
    name = (slots.get("name") or "").strip().strip("\"'")
    return {"name": name[:200]} if name else {}


@resolves("buffer")
def buffer(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "buffer the cities by 50 km", "a 10 km buffer around the sites"."""
    distance = number(slots.get("distance") or "")
    unit = UNITS.get((slots.get("unit") or "").lower())
    if distance is None or unit is None or distance <= 0:
        return None
    layer = _one(mind, slots.get("layer") or "")
    if not isinstance(layer, dict):
        return layer
    action = {"type": "buffer_layer", "layer_id": layer["layer_id"], "distance": distance,
              "unit": unit, **_named(slots)}  # fmt: skip
    said = phrase("buffered", layer=layer["name"], distance=f"{distance:g} {unit}")
    return Done([action], [said])


@resolves("aggregate")
def aggregate(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "count the sites in each district", "sum of visitors per district"."""
    # "the number of sites that fall in each district": the sites
    points_text = re.sub(r" (?:that|which) (?:fall|falls|lie|lies|are|is|sit|sits)$", "",
                         slots.get("points") or "")  # fmt: skip
    if not points_text and slots.get("field"):  # "total visitors per district": the points
        having = [
            layer
            for layer in mind.layers
            if layer["geometry_type"] == "Point"
            and targets.field_named(slots["field"], targets.numeric_fields(layer))
        ]
        points_text = having[0]["name"] if len(having) == 1 else ""
    points = _one(mind, points_text)
    polygons = _one(mind, slots.get("polygons") or "")
    if not isinstance(points, dict) or not isinstance(polygons, dict):
        return points if isinstance(points, Ask | Fail) else polygons if not isinstance(
            polygons, dict) else None  # fmt: skip
    if points["geometry_type"] != "Point" or polygons["geometry_type"] != "Polygon":
        return Fail(phrase("aggregate_kinds", points=points["name"], polygons=polygons["name"]))
    stat = AGGREGATES.get((slots.get("stat") or "count").lower(), "count")
    action: dict[str, Any] = {"type": "aggregate_points", "points_layer_id": points["layer_id"],
                              "polygons_layer_id": polygons["layer_id"], "stat": stat,
                              **_named(slots)}  # fmt: skip
    if stat != "count":
        field = targets.field_named(slots.get("field") or "", targets.numeric_fields(points))
        if field is None:
            names = ", ".join(f["name"] for f in targets.numeric_fields(points)) or "-"
            return Fail(phrase("which_number", layer=points["name"], fields=names))
        action["field"] = field["name"]
    mind.memory.named([polygons["layer_id"]])
    said = phrase("aggregated", points=points["name"], polygons=polygons["name"], stat=stat)
    return Done([action], [said])


@resolves("dissolve")
def dissolve(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "dissolve the districts by region", "merge the districts into one"."""
    layer = _one(mind, slots.get("layer") or "")
    if not isinstance(layer, dict):
        return layer
    action: dict[str, Any] = {"type": "dissolve_layer", "layer_id": layer["layer_id"],
                              **_named(slots)}  # fmt: skip
    field_text = (slots.get("field") or "").strip()
    if field_text:
        field = targets.field_named(field_text, list(layer.get("fields") or []))
        if field is None:
            names = ", ".join(f["name"] for f in layer.get("fields") or []) or "-"
            return Fail(phrase("no_field", layer=layer["name"], field=field_text, fields=names))
        action["field"] = field["name"]
    return Done([action], [phrase("dissolved", layer=layer["name"], field=field_text)])


@resolves("clip")
def clip(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "clip the rivers to Portugal", "clip the cities to the districts"."""
    layer = _one(mind, slots.get("layer") or "")
    if not isinstance(layer, dict):
        return layer
    target = re.sub(r",? (?:only|too|as well|please)$", "", (slots.get("other") or "").strip())
    other = targets.named(mind, target)
    action: dict[str, Any] = {"type": "clip_layer", "layer_id": layer["layer_id"], **_named(slots)}
    if isinstance(other, list) and len(other) == 1 and other[0]["layer_id"] != layer["layer_id"]:
        action["to_layer_id"] = other[0]["layer_id"]
        said = phrase("clipped", layer=layer["name"], to=other[0]["name"])
    else:
        country = mind.places.country(re.sub(r"^the ", "", target))
        if country is None and mind.memory.place:  # "clip the rivers to this country"
            found = places.find(mind, target, fuzzy=False)
            if isinstance(found, Place) and found.kind == "country":
                country = found
        if country is None:
            return Fail(phrase("no_place", name=target))
        action["country_code"] = country.code
        said = phrase("clipped", layer=layer["name"], to=country.name)
    mind.memory.named([layer["layer_id"]])
    return Done([action], [said])


# What a filter shows, said as such ("save that as a new layer" after "only the monuments")
SHOWN = re.compile(
    r"that|this|it|them|those|these|the (?:result|selection|filtered (?:ones|features|"
    r"cafes|points)|ones shown)|what(?: is|'s) (?:shown|left|visible|on the map)"
)


@resolves("keep")
def keep(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "save the museums as a new layer", "make a new layer with the capitals"; "save that as
    its own layer" after a filter: what the filter keeps."""
    if chosen is None and SHOWN.fullmatch(slots.get("rest", "").strip()):
        referred = targets.referred(mind)
        if isinstance(referred, list) and len(referred) == 1:
            where = (referred[0].get("style") or {}).get("filter")
            if where:
                action = {"type": "filter_to_layer", "layer_id": referred[0]["layer_id"],
                          "filter": where, **_named(slots)}  # fmt: skip
                return Done([action], [phrase("kept", layer=referred[0]["name"])])
    found = _with_value(mind, slots.get("rest", ""), chosen)
    if not isinstance(found, tuple):
        return found
    layer, where = found
    action = {"type": "filter_to_layer", "layer_id": layer["layer_id"], "filter": where,
              **_named(slots)}  # fmt: skip
    return Done([action], [phrase("kept", layer=layer["name"])])
