"""Questions about the data, answered from the data (docs/analysis.md's features and stats):
"how many cities have more than 10 million people", "which fields do the sites have", "what's
the smallest value in the districts", "the 3 biggest cities", "what kinds of sites are there";
and acting on an answer: "take me to the biggest city", "zoom to District D".

An answer changes nothing on the map. It remembers what it found (the layer, and the place of
the feature it named) so that "take me there" or "hide them" can follow.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from rapidfuzz import fuzz, process

from maproom.domain.chat.builtin import conditions, targets
from maproom.domain.chat.builtin.gazetteer import Place, as_json, fold
from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import (
    Ask,
    DataKey,
    Done,
    Fail,
    Need,
    Outcome,
    Phrase,
    phrase,
)
from maproom.domain.chat.builtin.targets import Layer, singular
from maproom.domain.chat.builtin.text import number
from maproom.geo import camera

# Superlatives: the field words they mean, and which end of the order they want.
MEASURES = {
    "big": ("population", "pop", "size", "area", "value", "visitors", "length"),
    "populous": ("population", "pop", "inhabitants"),
    "populated": ("population", "pop", "inhabitants"),
    "people": ("population", "pop", "inhabitants"),
    "visited": ("visitors", "visits"), "popular": ("visitors", "visits", "rating"),
    "busi": ("visitors", "visits"),
    "long": ("length", "length_km", "km"), "high": ("value", "height", "elevation"),
    "rated": ("rating", "score", "stars"), "expensive": ("price", "cost"),
}  # fmt: skip
UP = ("biggest", "largest", "most", "highest", "longest", "top", "greatest", "best", "max",
      "busiest",
      "maximum", "most populous", "most visited", "most popular", "highest rated", "best rated",
      "most expensive")  # fmt: skip
DOWN = ("smallest", "least", "fewest", "lowest", "shortest", "bottom", "min", "minimum",
        "least populous", "least visited", "least popular", "worst", "cheapest")  # fmt: skip
SUPERLATIVE = re.compile(
    r"(?P<sup>most populous|least populous|most visited|least visited|most popular|"
    r"least popular|highest rated|best rated|most expensive|biggest|largest|smallest|"
    r"highest|lowest|longest|shortest|greatest|top|bottom|most|least|fewest|best|worst|"
    r"cheapest|maximum|minimum|max|min|busiest)"
)
STATS = {"smallest": "min", "lowest": "min", "minimum": "min", "min": "min", "least": "min",
         "largest": "max", "biggest": "max", "highest": "max", "maximum": "max", "max": "max",
         "most": "max", "greatest": "max", "average": "mean", "mean": "mean", "avg": "mean",
         "total": "sum", "sum": "sum", "combined": "sum", "overall": "sum", "in total": "sum",
         "together": "sum", "altogether": "sum", "all together": "sum"}  # fmt: skip
# "how many are left?", "how many remain": what the last layer's filter keeps.
LEFT = re.compile(
    r"(?:of (?:them|those|these) )?(?:are |is )?(?:still )?(?:left|remaining|remain|"
    r"shown|visible|showing)(?: now)?(?: on the map)?|(?:is |are )(?:that|those|these|there now)"
)
# "how many people ...", "how many visitors ...": a total of a field, unless a layer is named so
PEOPLE_COUNTED = re.compile(r"(?:people|inhabitants|residents|visitors|tourists|citizens) ")
NAME_FIELDS = ("name", "title", "label", "nom", "nombre", "nome")


DANGLING = frozenset({"in", "on", "of", "from", "within", "inside", "at", "the", "my", "our",
                      "this", "that", "layer", "layers", "data", "dataset", "are", "is",
                      "there"})  # fmt: skip


def split(mind: Mind, text: str) -> tuple[list[Layer] | Ask | None, str]:
    """The layer a question names and the rest of it (a condition): "cities with more than
    10 million people" is Cities and "with more than 10 million people"."""
    words = text.split()
    found = targets.mention(mind, words)
    if found is None:
        return None, text
    start, end = found
    layers = targets.named(mind, " ".join(words[start:end]))
    words = words[:start] + words[end:]
    # "french cities in the cities layer": the layer named twice is named once
    again = targets.mention(mind, words) if isinstance(layers, list) else None
    if again is not None and targets.named(mind, " ".join(words[again[0] : again[1]])) == layers:
        words = words[: again[0]] + words[again[1] :]
    # "... are there in the layer": words left at the end once the layer is out
    while words and words[-1].lower().strip("?.!,") in DANGLING:
        words = words[:-1]
    rest = " ".join(words)
    # "how many places of the layer Cafes have rating 4": the layer's features
    rest = re.sub(r"^(?:the )?(?:places|features|points|items|entries|records|spots|locations|"
                  r"elements|objects) (?:of|in|on|from) (?:the )?(?:layer|dataset)?(?= |$)", "",
                  rest).strip()  # fmt: skip
    rest = re.sub(r"^(?:(?:are there|are|there are|there|do (?:i|we) have|exist|have|has|"
                  r"lie|lies|(?:are |is )?(?:located|situated)|our|my|"
                  r"in|on the map|layer|of) ?)+", "", rest).strip()  # fmt: skip
    return layers, rest


def one_layer(mind: Mind, text: str, field: str | None = None) -> Layer | Ask | Fail | None:
    """The one layer a question is about: named, else the one the conversation is about, else
    the only layer holding the field asked about (several: a question)."""
    found = targets.named(mind, text) if text.strip() else None
    if isinstance(found, Ask):
        return found
    if found:
        return found[0] if len(found) == 1 else targets.which(found, text)
    if text.strip():
        return None
    if field is not None:
        holding = [
            layer for layer in mind.layers
            if targets.field_named(field, list(layer.get("fields") or [])) is not None
        ]  # fmt: skip
        by_memory = [layer for layer in holding if layer["layer_id"] in mind.memory.layers]
        holding = by_memory or holding
        if len(holding) == 1:
            return holding[0]
        if len(holding) > 1:
            return targets.which(holding, field)
        return None
    found = targets.referred(mind) if mind.layers else None
    if isinstance(found, list):
        return found[0] if len(found) == 1 else targets.which(found)
    return found


def where_json(where: dict[str, Any] | None) -> str | None:
    """A filter as the queries take it (the key of its answer)."""
    return orjson.dumps(where, option=orjson.OPT_SORT_KEYS).decode() if where else None


def condition(mind: Mind, layer: Layer, text: str) -> dict[str, Any] | Fail | None:
    """The filter a question's condition means, combined with the layer's own (the map shows
    what its filter keeps; a question is about what is shown)."""
    text = text.strip()
    found = conditions.parse(mind, layer, text) if text else None
    if isinstance(found, Fail):
        return found
    if text and found is None:
        return Fail(phrase("no_condition", layer=layer["name"], said=text))
    own = (layer.get("style") or {}).get("filter")
    if own and found:
        return {"all": [own, found]}
    return own or found


def stats(mind: Mind, layer: Layer, field: str | None, where: dict[str, Any] | None) -> Any:
    """The layer's statistics (`Need` until fetched)."""
    return mind.answer(("stats", layer["layer_id"], field, where_json(where)))


def features(mind: Mind, layer: Layer, where: dict[str, Any] | None, sort: str | None,
             order: str, limit: int) -> list[dict[str, Any]]:  # fmt: skip
    """The layer's features, sorted (`Need` until fetched)."""
    found = mind.answer(("features", layer["layer_id"], where_json(where), sort, order, limit))
    return list(found) if isinstance(found, list) else []


def failed(answer: Any) -> Fail | None:
    """A data answer that is an error (a raster layer, a field that went away)."""
    if isinstance(answer, dict) and "error" in answer:
        return Fail(phrase("data_error", reason=answer["error"]))
    return None


@resolves("count")
def count(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "how many cities are there", "how many districts have fewer than 1,000 people"."""
    if slots.get("inside"):  # "how many cities does Germany have" (or "... the cities have")
        inside = slots["inside"]
        found = count(mind, {"rest": f"{slots.get('rest', '')} in {inside}"})
        return found if isinstance(found, Done | Ask) else count(mind, {"rest": inside})
    if slots.get("answered"):  # "how many have that?" after a ranking: its value
        subset = mind.memory.subset or {}
        layer = next((x for x in mind.layers if x["layer_id"] == subset.get("layer")), None)
        if layer is None or not subset.get("filter"):
            return None
        answer = stats(mind, layer, None, subset["filter"])
        if failed(answer):
            return failed(answer)
        said = phrase("count_where", count=answer["count"], total=layer.get("feature_count"),
                      layer=layer["name"])  # fmt: skip
        return Done([], [said])
    if PEOPLE_COUNTED.match(slots.get("rest", "")) and not targets.named(mind, "people"):
        return None  # "how many inhabitants have the German cities": a total, not a count
    layers, rest = split(mind, slots.get("rest", ""))
    valued = targets.by_value(mind, re.sub(r" (?:are there|do (?:i|we) have|exist)$", "",
                                           slots.get("rest", "")))  # fmt: skip
    if layers is None and valued is not None:  # "how many bakeries are there"
        answer = stats(mind, valued[0], None, valued[1])
        if failed(answer):
            return failed(answer)
        mind.memory.named([valued[0]["layer_id"]])
        mind.memory.subset = {"layer": valued[0]["layer_id"], "filter": valued[1]}
        total = valued[0].get("feature_count")
        return Done([], [phrase("count_where", count=answer["count"], total=total,
                                layer=valued[0]["name"]),
                         *_which(mind, valued[0], valued[1], answer["count"])])  # fmt: skip
    if re.fullmatch(
        r"(?:the )?(?:features|items|records|rows|entries|objects|things|elements|"
        r"points|polygons|shapes|lines)",
        rest.strip(),
    ):
        rest = ""  # "how many features are in the Cities layer"
    if LEFT.fullmatch(rest.strip()):  # "how many are left?": what the filter keeps
        rest = ""
        if layers is None:  # of the layer the conversation is about
            referred = one_layer(mind, "")
            if not isinstance(referred, dict):
                return referred
            layers = [referred]
    if layers is None and rest.strip():  # "how many capitals are there": Cities, capital true
        bare = re.sub(r" (?:are there|do (?:i|we) have|exist|are on the map)$", "", rest.strip())
        fits = conditions.fitting(mind, bare)
        if len(fits) == 1:
            layers, rest = [fits[0][0]], bare
    if layers is None:
        return None
    if isinstance(layers, Ask):
        return layers
    layer = layers[0] if len(layers) == 1 else None
    if layer is None:
        return targets.which(layers)
    where = condition(mind, layer, rest)
    if isinstance(where, Fail):
        return where
    answer = stats(mind, layer, None, where)
    if failed(answer):
        return failed(answer)
    mind.memory.named([layer["layer_id"]])
    total = layer.get("feature_count")
    if rest.strip():
        mind.memory.subset = {"layer": layer["layer_id"], "filter": where}
        said = phrase("count_where", count=answer["count"], total=total, layer=layer["name"])
        return Done([], [said, *_which(mind, layer, where, answer["count"])])
    return Done([], [phrase("count", count=answer["count"], layer=layer["name"])])


FEW = 5  # a count of at most this many features names them


def _which(mind: Mind, layer: Layer, where: dict[str, Any] | None, found: int) -> list[Phrase]:
    """The names of the few features a count found ("2 of 16 match: Paris, Marseille")."""
    if not 0 < found <= FEW or not name_fields(layer):
        return []
    rows = features(mind, layer, where, None, "asc", FEW)
    return [
        phrase("names", layer=layer["name"], names=[feature_name(layer, r) for r in rows], more=0)
    ]


@resolves("fields")
def fields(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "which fields do the cities have"."""
    layer = one_layer(mind, slots.get("layer") or "")
    if not isinstance(layer, dict):
        return layer
    found = list(layer.get("fields") or [])
    mind.memory.named([layer["layer_id"]])
    if not found:
        return Done([], [phrase("no_fields", layer=layer["name"])])
    described = [{"name": f["name"], "type": f.get("type"), "min": f.get("min"),
                  "max": f.get("max")} for f in found]  # fmt: skip
    return Done([], [phrase("fields", layer=layer["name"], count=len(found), fields=described)])


@resolves("stat")
def stat(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "what's the smallest value in the districts", "average population of the counties"."""
    kind = STATS.get((slots.get("stat") or "").lower(), "sum" if slots.get("stat") == "" else None)
    field_text = re.sub(
        r"^(?:number|amount|count|quantity) of ", "", (slots.get("field") or "").strip()
    )
    field_text = field_text or "value"
    layer_text = slots.get("layer") or ""
    # "their average length in km": a unit, no layer
    layer_text = re.sub(
        r" in (?:km|kilometers|kilometres|miles|meters|metres|m|%|percent)$", "", layer_text.strip()
    )  # "the total length of the rivers in km"
    layer_text = re.sub(r"^(?:km|kilometers|kilometres|miles|meters|metres|m|%|percent)$", "",
                        layer_text.strip())  # fmt: skip
    counted = re.match(r"(.+?) (?:at|in|of|for|across|among) (?:the |all(?: the)? )?(.+)$",
                       layer_text)  # fmt: skip
    if field_text in ("number", "amount", "count", "quantity") and counted:
        field_text, layer_text = counted.group(1), counted.group(2)  # "number of visitors at"
    if kind is None or not (slots.get("field") or slots.get("layer")):
        return None
    if not slots.get("layer") and re.search(r"\w by \w", field_text):
        return None  # "the smallest city by population": a feature, not a value
    layers, rest = split(mind, layer_text)
    layer = one_layer(mind, "", field_text) if layers is None and not rest else None
    valued = targets.by_value(mind, layer_text) if layers is None and rest else None
    if valued is not None:  # "how many visitors do the museums get": the museums of Sites
        (layer, where_valued), rest = valued, ""
    else:
        where_valued = None
    if layers is None and rest and valued is None:  # "of the capitals": the layer it fits
        layer = _fitting(mind, field_text, rest) or layer
    if isinstance(layers, list):
        layer = layers[0] if len(layers) == 1 else targets.which(layers)
    if isinstance(layers, Ask):
        return layers
    if not isinstance(layer, dict):
        return layer
    field = targets.field_named(field_text, targets.numeric_fields(layer))
    if field is None and " " in field_text:  # "smallest district value": the value
        field = targets.field_named(field_text.split()[-1], targets.numeric_fields(layer))
    if field is None:
        names = ", ".join(f["name"] for f in targets.numeric_fields(layer)) or "-"
        return Fail(phrase("no_field", layer=layer["name"], field=field_text, fields=names))
    where = condition(mind, layer, rest) if where_valued is None else where_valued
    if isinstance(where, Fail):
        return where
    subset = mind.memory.subset
    them = slots.get("their") or fold(layer_text) in ("them", "those", "these", "they", "their")
    if them and where is None and subset and subset.get("layer") == layer["layer_id"]:
        where = subset.get("filter")  # "how many counties are in state A?" "their total ...?"
    answer = stats(mind, layer, field["name"], where)
    if failed(answer):
        return failed(answer)
    mind.memory.named([layer["layer_id"]])
    value = answer.get(kind)
    said = phrase(f"stat_{kind}", layer=layer["name"], field=field["name"], value=value)
    if kind in ("min", "max") and value is not None:
        top = features(mind, layer, where, field["name"], "asc" if kind == "min" else "desc", 1)
        if top:
            remember(mind, layer, top[0])
            said = phrase(f"stat_{kind}_named", layer=layer["name"], field=field["name"],
                          value=value, name=feature_name(layer, top[0]))  # fmt: skip
    return Done([], [said])


def _fitting(mind: Mind, field_text: str, rest: str) -> Layer | None:
    """The one layer holding a numeric field that a condition reads on ("the average
    population of the capitals": Cities, whose capital is true)."""
    holding = [
        layer for layer in mind.layers
        if targets.field_named(field_text, targets.numeric_fields(layer)) is not None
    ]  # fmt: skip
    fits = conditions.fitting(mind, rest, holding)
    return fits[0][0] if len(fits) == 1 else None


def measure(layer: Layer, sup: str, field_text: str) -> dict[str, Any] | None:
    """The field a superlative ranks by: the one named ("by population"), else the one its
    word suggests ("most visited": visitors; "biggest": population or area), else the only
    numeric field."""
    numeric = targets.numeric_fields(layer)
    if field_text.strip():
        return targets.field_named(field_text, numeric)
    words = sup.split()
    for word in [*words[1:], words[0].removesuffix("est").removesuffix("g")]:
        for base, names in MEASURES.items():
            if word.startswith(base) or base.startswith(word):
                for name in names:
                    found = targets.field_named(name, numeric)
                    if found is not None:
                        return found
    return numeric[0] if len(numeric) == 1 else None


def order_of(sup: str) -> str:
    """ "desc" for the top ("biggest"), "asc" for the bottom ("smallest")."""
    first = sup.split()[0] if sup else ""
    return "asc" if sup in DOWN or first in ("least", "fewest", "fewer", "less") else "desc"


REFERRED = frozenset({"its", "her", "his", "it", "that", "this", "that one", "this one", "there",
                      "that city", "this city", "that town", "that place", "that district",
                      "that site", "that feature"})  # fmt: skip
TOP, TIES = 20, 5  # features a ranking names at most; those tying with the last, at most
ONE_OF_THEM = frozenset({"one", "ones", "of them", "one of them", "them", "those", "these"})


def ranked(
    mind: Mind, slots: dict[str, str]
) -> tuple[Layer, dict[str, Any], list[dict[str, Any]]] | Outcome | None:
    """The features a superlative question asks for: its layer, field and the features."""
    sup = (slots.get("sup") or "").lower()
    sup = {"more": "most", "fewer": "fewest", "less": "least"}.get(sup, sup)
    counted = re.match(r"(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten) (?P<layer>.+)",
                       slots.get("layer") or "")  # fmt: skip
    if counted and not slots.get("n"):  # "the top 3 sites by visitors"
        slots = {**slots, "n": counted["n"], "layer": counted["layer"]}
    by_field = re.fullmatch(
        r"(?P<layer>\w+) by (?:the |their )?(?P<f>\w+)", slots.get("layer") or ""
    )
    if by_field and not slots.get("field"):  # "the smallest city by population"
        slots = {**slots, "layer": by_field["layer"], "field": by_field["f"]}
    layers, rest = split(mind, slots.get("layer") or "")
    if fold(slots.get("layer") or "") in ONE_OF_THEM:  # "which one has the highest value?"
        before = mind.memory.intent or {}
        if not (slots.get("field") or "").strip() and before.get("kind") in ("top", "stat"):
            return None  # "and which one has the lowest?" after a ranking: its other end
        referred = one_layer(mind, "", (slots.get("field") or "").strip() or None)
        if not isinstance(referred, dict):
            return referred
        layers, rest = [referred], ""
    valued = targets.by_value(mind, slots.get("layer") or "") if layers is None else None
    if valued is not None:  # "the most visited monument": the monuments of Sites
        layers, rest = [valued[0]], slots.get("layer") or ""
    if layers is None:
        return None
    if isinstance(layers, Ask):
        return layers
    layer = layers[0]
    rest = re.sub(r"(?:(?:\b(?:in|of|from|on) |^)(?:the|this|that|my|our) (?:layer|map|data|dataset"
                  r"|list|table)|\b(?:on|in) here)$", "", rest).strip()  # fmt: skip
    field_text = re.sub(r" (?:in|of|on) (?:the|this|our|my) (?:map|layer|data|dataset)$", "",
                        (slots.get("field") or "").strip())  # fmt: skip
    by = re.search(r"\b(?:by|in terms of|based on|for|of) (?:the )?(?P<f>[\w ]+)$", rest)
    if by and not field_text:
        field_text, rest = by.group("f"), rest[: by.start()].strip()
    if not field_text and rest and targets.field_named(rest, targets.numeric_fields(layer)):
        field_text, rest = rest, ""  # "the smallest district value"
    field = measure(layer, sup, field_text)
    if field is None:
        names = ", ".join(f["name"] for f in targets.numeric_fields(layer)) or "-"
        return Fail(phrase("which_number", layer=layer["name"], fields=names))
    where = condition(mind, layer, rest)
    if isinstance(where, Fail):
        return where
    n = max(1, min(int(number(slots.get("n") or "") or 1), TOP))
    found = features(mind, layer, where, field["name"], order_of(sup), min(n + TIES, TOP))
    # "which cafes have the highest rating": every one that ties with the last one asked for
    last = (found[n - 1].get("properties") or {}).get(field["name"]) if len(found) >= n else None
    kept = [row for row in found[n:] if (row.get("properties") or {}).get(field["name"]) == last]
    return layer, field, found[:n] + kept


@resolves("top")
def top(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "what are the 3 biggest cities", "which city has the most people"."""
    found = ranked(mind, slots)
    if not isinstance(found, tuple):
        return found
    layer, field, rows = found
    mind.memory.named([layer["layer_id"]])
    if not rows:
        return Done([], [phrase("none_found", layer=layer["name"])])
    remember(mind, layer, rows[0])
    named = [{"name": feature_name(layer, row), "value": (row.get("properties") or {}).get(
        field["name"])} for row in rows]  # fmt: skip
    if len({str(row["value"]) for row in named}) == 1:  # "how many have that?" next
        same = {"field": field["name"], "op": "==", "value": named[0]["value"]}
        mind.memory.subset = {"layer": layer["layer_id"], "filter": same}
    sup = (slots.get("sup") or "").lower()
    return Done([], [phrase("top", layer=layer["name"], field=field["name"], sup=sup,
                            features=named)])  # fmt: skip


@resolves("goto_top")
def goto_top(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "take me to the biggest city", "zoom to the most visited site"."""
    found = ranked(mind, {**slots, "n": "1"})
    if not isinstance(found, tuple):
        return found
    layer, _, rows = found
    if not rows:
        return Done([], [phrase("none_found", layer=layer["name"])])
    return _go(mind, layer, rows[0])


@resolves("categories")
def categories(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "what kinds of sites are there", "which regions do the districts have"."""
    what = singular(fold(slots.get("what") or ""))
    kinds = ("kind", "type", "category", "class", "sort", "group")
    if what not in kinds and not any(
        targets.field_named(what, layer.get("fields") or []) for layer in mind.layers
    ):
        return None  # "show me the Portugal complete, ...": no field named
    layers, _ = split(mind, slots.get("layer") or "")
    if isinstance(layers, Ask):
        return layers
    candidates = layers or mind.layers
    for layer in candidates:
        strings = [f for f in layer.get("fields") or [] if f.get("type") in ("string", "boolean")]
        field = targets.field_named(what, strings)
        if field is None and what in kinds:
            field = next((f for f in strings if fold(f["name"]) in kinds), None)
        if field is None:
            continue
        answer = stats(mind, layer, field["name"], None)
        if failed(answer):
            return failed(answer)
        mind.memory.named([layer["layer_id"]])
        values = [{"value": item["value"], "count": item["count"]}
                  for item in answer.get("distinct") or []]  # fmt: skip
        return Done([], [phrase("categories", layer=layer["name"], field=field["name"],
                                values=values)])  # fmt: skip
    return None


def name_fields(layer: Layer) -> list[dict[str, Any]]:
    """The fields that name a layer's features: "name" and its like, else the text field
    called after the layer ("county" in Counties)."""
    fields = layer.get("fields") or []
    named = [f for f in fields if fold(f["name"]) in NAME_FIELDS]
    called = singular(fold(layer["name"]).split()[-1]) if layer["name"].strip() else ""
    return named or [f for f in fields if f.get("type") == "string" and fold(f["name"]) == called]


def feature_name(layer: Layer, feature: dict[str, Any]) -> str:
    """How a reply names a feature: its name field, else its first text value, else its id."""
    props = feature.get("properties") or {}
    for field in layer.get("fields") or []:
        if fold(field["name"]) in NAME_FIELDS and props.get(field["name"]) is not None:
            return str(props[field["name"]])
    for field in layer.get("fields") or []:
        if field.get("type") == "string" and props.get(field["name"]) is not None:
            return str(props[field["name"]])
    return f"#{feature.get('id')}"


def centre(geometry: dict[str, Any] | None) -> tuple[list[float], list[float]] | None:
    """A geometry's middle and box."""
    points: list[list[float]] = []

    def walk(node: Any) -> None:
        if isinstance(node, list) and node and isinstance(node[0], int | float):
            points.append([float(node[0]), float(node[1])])
        elif isinstance(node, list):
            for item in node:
                walk(item)

    if not geometry:
        return None
    walk(geometry.get("coordinates"))
    if not points:
        return None
    box = [min(p[0] for p in points), min(p[1] for p in points),
           max(p[0] for p in points), max(p[1] for p in points)]  # fmt: skip
    return [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], box


def remember(mind: Mind, layer: Layer, feature: dict[str, Any]) -> None:
    """Keep where a feature is, for "take me there"."""
    found = centre(feature.get("geometry"))
    if found is None:
        return
    (lng, lat), box = found
    wide = box[2] > box[0] or box[3] > box[1]
    frame = (box[0], box[1], box[2], box[3]) if wide else None
    place = Place("feature", "", feature_name(layer, feature), "", "", "", "", lng, lat, frame, 0)
    mind.memory.went(as_json(place))
    mind.memory.named([layer["layer_id"]])


def _go(mind: Mind, layer: Layer, feature: dict[str, Any]) -> Outcome:
    remember(mind, layer, feature)
    found = centre(feature.get("geometry"))
    if found is None:
        return Fail(phrase("no_extent", layers=feature_name(layer, feature)))
    center, box = found
    if box[2] > box[0] or box[3] > box[1]:
        center, zoom = camera.fit(box, camera.Padding.even(40))
    else:
        zoom = 12.0
    name = feature_name(layer, feature)
    return Done([{"type": "fly_to", "center": center, "zoom": zoom}], [phrase("flew", place=name)])


def feature_named(mind: Mind, text: str) -> Outcome | None:
    """A feature a phrase names by its name ("zoom to District D", "fly to Belém Tower")."""
    text = re.sub(r"^(?:the|a|an) ", "", text.strip(), flags=re.IGNORECASE)
    if len(text.split()) == 1 and mind.gloss(text) != fold(text):
        text = mind.gloss(text)  # "el Tajo": the Tagus
    wanted = fold(text)
    named = [(layer, fields[0]["name"]) for layer in mind.layers
             if layer["layer_type"] == "geojson" and (fields := name_fields(layer))]  # fmt: skip
    # the name as the data spells it, when it is among the most frequent (typed without its
    # accents: "jeronimos monastery" is Jerónimos Monastery); else names holding what was typed
    _names_known(mind, named)
    asked = []
    for layer, field in named:
        spelled = _spelled(mind, layer, field, wanted)
        where = (
            {"field": field, "op": "==", "value": spelled}
            if spelled is not None
            else {"field": field, "op": "contains", "value": text.strip()}
        )
        asked.append((layer, where))
    keys: list[DataKey] = [("features", layer["layer_id"], where_json(where), None, "asc", 5)
                           for layer, where in asked]  # fmt: skip
    missing = [key for key in keys if key not in mind.data]
    if missing:  # every layer's at once: one reading more, not one a layer
        raise Need(missing)
    for layer, where in asked:
        for row in features(mind, layer, where, None, "asc", 5):
            if where["op"] == "==" or fold(feature_name(layer, row)) == wanted:
                return _go(mind, layer, row)
    return None


def _names_known(mind: Mind, named: list[tuple[Layer, str]]) -> None:
    """The most frequent values of these name fields, fetched at once (`Need`) unless they
    are."""
    keys: list[DataKey] = [("stats", layer["layer_id"], field, None) for layer, field in named]
    missing = [key for key in keys if key not in mind.data]
    if missing:
        raise Need(missing)


def _spelled(mind: Mind, layer: Layer, field: str, wanted: str) -> str | None:
    """A name of the field's most frequent values that a folded phrase names: the same without
    accents ("jeronimos monastery": Jerónimos Monastery), or the one name close to it
    ("oceanario": Oceanarium)."""
    answer = mind.answer(("stats", layer["layer_id"], field, None))
    names = [item["value"] for item in (answer.get("distinct") if isinstance(answer, dict) else
             None) or [] if isinstance(item["value"], str)]  # fmt: skip
    spelled = [name for name in names if fold(name) == wanted]
    if spelled:
        return spelled[0]
    if len(wanted) < 6:
        return None
    close = process.extract(wanted, {name: fold(name) for name in names}, scorer=fuzz.ratio,
                            limit=2)  # fmt: skip
    if (
        close
        and close[0][1] >= NEAR_NAME
        and (len(close) == 1 or close[0][1] - close[1][1] >= NEAR_NAME_GAP)
    ):
        return str(close[0][2])
    return None


# A feature's name typed this close (rapidfuzz's ratio) is that feature, when no other name
# is nearly as close ("District J" is none of the districts)
NEAR_NAME = 80
NEAR_NAME_GAP = 10
NAMES_SHOWN = 15  # feature names listed in a reply at most
SIZE_WORDS = {"long": "length", "big": "area", "large": "area"}


@resolves("names")
def names(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "list the sites", "what are the names of the cities": their features' names."""
    text = (slots.get("layer") or "").strip()
    if fold(text) in targets.EVERYTHING or fold(text) in ("layers", "my layers", "the layers"):
        return None  # "list the layers" lists the layers
    layers, rest = split(mind, text)  # "which counties have more than 5000 people"
    if isinstance(layers, Ask):
        return layers
    found: Layer | Ask | Fail | None = (
        layers[0] if isinstance(layers, list) and len(layers) == 1 else None
    )
    if found is None:
        found, rest = one_layer(mind, text), ""
    if not isinstance(found, dict):
        return found
    layer = found
    if layer["layer_type"] != "geojson":
        return None
    where = condition(mind, layer, rest) if rest.strip() else None
    if isinstance(where, Fail):
        return where
    rows = features(mind, layer, where, None, "asc", NAMES_SHOWN + 1)
    if where is not None:
        matched = stats(mind, layer, None, where)
        if failed(matched):
            return failed(matched)
        names_ = [feature_name(layer, row) for row in rows[:NAMES_SHOWN]]
        mind.memory.named([layer["layer_id"]])
        more = max(0, int(matched.get("count") or 0) - len(names_))
        return Done([], [phrase("names", layer=layer["name"], names=names_ or ["-"], more=more)])
    shown_names = [feature_name(layer, row) for row in rows[:NAMES_SHOWN]]
    more = max(0, int(layer.get("feature_count") or 0) - len(shown_names))
    mind.memory.named([layer["layer_id"]])
    return Done([], [phrase("names", layer=layer["name"], names=shown_names, more=more)])


@resolves("feature_value")
def feature_value(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "how many people live in District A", "what is the length of the Tagus": a value of
    a feature named by its name."""
    wanted = fold(slots.get("feature") or "").removeprefix("the ").strip(" ?")
    if wanted in REFERRED:  # the feature the last answer named ("its population")
        last = mind.memory.place
        if not last or last.get("kind") != "feature":
            return None
        wanted = fold(str(last.get("name") or ""))
    field_text = slots.get("field") or ""
    field_text = SIZE_WORDS.get(field_text, field_text)
    if not wanted or not field_text:
        return None
    layers = mind.layers
    # "München in the cities layer": the feature, then the layer it is in
    within = re.fullmatch(r"(?P<name>.+?) (?:in|from|of|on) (?:the |my |our )?(?P<layer>.+?)"
                          r"(?: layer| data| dataset)?", wanted)  # fmt: skip
    named = targets.named(mind, within["layer"]) if within else None
    if within and isinstance(named, list):
        wanted, layers = within["name"], named
    _names_known(
        mind,
        [
            (layer, fields[0]["name"])
            for layer in layers
            if layer["layer_type"] == "geojson" and (fields := name_fields(layer))
        ],
    )
    for layer in layers:
        names_ = name_fields(layer)
        if layer["layer_type"] != "geojson" or not names_:
            continue
        field = targets.field_named(field_text, targets.numeric_fields(layer))
        if field is None:
            continue
        for name in _spellings(mind, wanted):
            spelled = _spelled(mind, layer, names_[0]["name"], name)
            where = {"field": names_[0]["name"], "op": "==" if spelled else "contains",
                     "value": spelled or name}  # fmt: skip
            for row in features(mind, layer, where, None, "asc", 5):
                if spelled or fold(feature_name(layer, row)) == name:
                    value = (row.get("properties") or {}).get(field["name"])
                    mind.memory.named([layer["layer_id"]])
                    return Done([], [phrase("feature_value", feature=feature_name(layer, row),
                                            field=field["name"], value=value)])  # fmt: skip
    return None


def _spellings(mind: Mind, name: str) -> list[str]:
    """A feature's name as said, and the English name of the town it names, folded ("münchen":
    munich)."""
    place = mind.places.find(name, fuzzy=False, language=mind.language).sure
    english = fold(place.name) if place is not None else mind.gloss(name)  # "tajo": tagus
    return [name] if english == name else [name, english]
