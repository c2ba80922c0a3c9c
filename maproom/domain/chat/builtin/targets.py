"""Which layers and fields a clause names: "the cafes", "it", "cafes and parks", "the points",
"population", "people".

A phrase names layers by name (any case, singular or plural, typos), by a word of a name
("cafes" for "Cafes north"), by geometry ("the points") or by reference ("it", "them", "the
layer": what the conversation named last, docs/chat.md "References"). When several layers fit
as well, or a reference has nothing to refer to and the map has several layers, the agent asks;
it never guesses (docs/chat.md "Safety").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz, process

from maproom.domain.chat.builtin import colours
from maproom.domain.chat.builtin.gazetteer import fold
from maproom.domain.chat.builtin.outcome import Ask, Fail, Outcome, phrase
from maproom.domain.styles import main_colour

if TYPE_CHECKING:
    from maproom.domain.chat.builtin.mind import Mind

Layer = dict[str, Any]
PRONOUNS = frozenset({"it", "them", "this", "that", "these", "those", "this layer", "that layer",
                      "the layer", "layer", "it all", "their", "its", "they", "those layers",
                      "these layers", "this one", "that one", "the same layer"})  # fmt: skip
ONE = frozenset({"it", "this", "that", "this layer", "that layer", "the layer", "layer",
                 "this one", "that one"})  # fmt: skip
EVERYTHING = frozenset({"all", "everything", "every layer", "all of them", "layers", "all layers",
                        "data", "my data", "each layer"})  # fmt: skip
GEOMETRY_WORDS = {
    "Point": ("points", "point", "dots", "dot", "markers", "marker", "circles", "pins",
              "locations", "symbols"),
    "LineString": ("lines", "line", "routes", "paths", "tracks"),
    "Polygon": ("polygons", "polygon", "areas", "shapes", "zones", "boundaries", "squares",
                "square", "blocks", "patches", "rectangles"),
}  # fmt: skip
# How people describe a shape they see ("the little squares", "the long wiggly lines")
LOOKS = frozenset({"small", "little", "tiny", "big", "large", "round", "long", "thin", "thick",
                   "wiggly", "wavy", "squiggly", "curvy", "winding", "straight", "square",
                   "petits", "petites", "kleinen", "pequenos", "pequenas"})  # fmt: skip
ALL_GEOMETRY_WORDS = frozenset(word for words in GEOMETRY_WORDS.values() for word in words)
FIELD_SYNONYMS = {
    "type": ("kind", "category", "class", "group"), "kind": ("type", "category", "class"),
    "category": ("kind", "type", "class", "group"), "class": ("kind", "type", "category"),
    "name": ("title", "label"), "names": ("name",), "people": ("population", "pop"),
    "size": ("area", "population"), "pop": ("population",), "inhabitants": ("population",),
    "residents": ("population",), "population": ("pop", "inhabitants"),
    "populated": ("population", "pop"), "populous": ("population", "pop"),
    "visits": ("visitors",), "visitor": ("visitors",), "length": ("length_km", "len"),
    "long": ("length", "length_km"), "value": ("val", "score"), "values": ("value",),
    "star": ("rating", "stars", "score"), "stars": ("rating", "score"), "score": ("rating",),
    "rated": ("rating",), "grade": ("rating", "score"), "km": ("length_km", "length"),
    "kilometers": ("length_km", "length"), "kilometres": ("length_km", "length"),
    "longer": ("length", "length_km"), "bigger": ("population", "area", "size"),
    "larger": ("population", "area", "size"), "busier": ("visitors",),
    "more visited": ("visitors",), "more popular": ("visitors",),
    "more populated": ("population", "pop"), "more populous": ("population", "pop"),
}  # fmt: skip


def singular(word: str) -> str:
    """An English word's singular, roughly ("cities": city, "buses": bus)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def bare(text: str) -> str:
    """A layer phrase without its determiners and the word "layer" ("the layer of the cities":
    cities)."""
    phrase_ = fold(text)
    phrase_ = re.sub(r"^(?:the |my |our |(?:all|both)(?: of)? (?:the )?)+", "", phrase_)
    phrase_ = re.sub(r"^(?:layers?|data(?:set)?)(?: (?:of|called|named|with))?(?: the)? (?=\w)",
                     "", phrase_)  # fmt: skip
    return re.sub(r" (?:layers?|data(?:set)?)$", "", phrase_).strip()


def likeness(phrase_: str, name: str) -> float:
    """How well a phrase names a layer, 0..100: spelling (typos), word order, or every word of
    the phrase in the name ("cafes" for "Cafes north")."""
    words, named = singular(phrase_).split(), [singular(w) for w in name.split()]
    if (
        len(words) == 1 == len(named)
        and len(phrase_) >= len(named[0]) + 3
        and (phrase_.startswith(named[0]))
    ):
        return 0.0  # "riverside" is another word than "rivers", not a typo of it
    inside = 90.0 if words and all(singular(w) in named for w in phrase_.split()) else 0.0
    return max(
        fuzz.ratio(phrase_, name),
        fuzz.ratio(singular(phrase_), singular(name)),
        fuzz.token_sort_ratio(phrase_, name),
        inside,
    )


def which(layers: list[Layer], text: str | None = None) -> Ask:
    """Ask which of these layers is meant."""
    return Ask(
        phrase("which_layer", said=text) if text else phrase("which_layer_plain"),
        [layer["name"] for layer in layers],
        [{"layers": [layer["layer_id"]]} for layer in layers],
    )


def referred(mind: Mind) -> list[Layer] | Ask | None:
    """What "it" or "the layer" means: the layers the conversation named last, the only layer,
    or a question."""
    memory = mind.memory
    if memory.focus == "place" and (memory.place or {}).get("kind") != "feature":
        return None  # "fly to Japan and show it": "it" is the place
    by_id = {layer["layer_id"]: layer for layer in mind.layers}
    named = [by_id[i] for i in memory.layers if i in by_id]
    if named:
        return named
    if len(mind.layers) == 1:
        return list(mind.layers)
    return which(mind.layers)


def named(mind: Mind, text: str) -> list[Layer] | Ask | None:
    """The layers a phrase names, a question when it is not clear which, or None when it names
    none."""
    if not mind.layers or re.search(r"[.?!;] +\w", text):
        return None  # "... the landmarks. Draw a buffer around the sites": two sentences
    said = bare(text)
    if said in ("the", "a", "an"):  # "zoom to the layer": the rule kept only the article
        said = "the layer"
    if text.strip().lower() in PRONOUNS or said in PRONOUNS or (not said and text.strip()):
        found = referred(mind)
        if isinstance(found, list) and len(found) > 1 and said in ONE:
            return which(found, text)  # "make it bigger" after two layers: which one?
        return found
    if said in EVERYTHING:
        return list(mind.layers)
    names = {layer["layer_id"]: mind.gloss(layer["name"]) for layer in mind.layers}
    by_id = {layer["layer_id"]: layer for layer in mind.layers}
    glossed = singular(mind.gloss(said))
    exact = [by_id[i] for i, name in names.items() if singular(name) in (singular(said), glossed)]
    if exact:
        return exact
    for geometry, kinds in GEOMETRY_WORDS.items():
        if said in kinds:
            same = [layer for layer in mind.layers if layer["geometry_type"] == geometry]
            # "the dots" right after the cities were named: the cities
            talked = [layer for layer in same if layer["layer_id"] in mind.memory.layers]
            if len(talked) == 1 and len(same) > 1 and not re.match(r"(?:all|both)\b", fold(text)):
                return talked
            if re.match(r"(?:all|both)\b", fold(text)):  # "both the points": every layer of them
                return same or None
            if same:
                return same if len(same) == 1 else which(same, text)
    words = said.split()
    if len(words) > 1 and words[-1] in ALL_GEOMETRY_WORDS:  # "the city dots": the cities
        found = named(mind, " ".join(words[:-1]))
        if found:
            return found
        coloured = _by_colour(mind, " ".join(words[:-1]), words[-1])  # "the blue dots"
        if coloured:
            return coloured if len(coloured) == 1 else which(coloured, text)
        if set(words[:-1]) <= LOOKS:  # "the little squares", "the wiggly lines": their shape
            return named(mind, words[-1])
    parts = [p for p in re.split(r",? and |, ", said) if p]
    if len(parts) > 1:
        every = [named(mind, part) for part in parts]
        if all(isinstance(found, list) for found in every):
            return [layer for found in every if isinstance(found, list) for layer in found]
        return None
    return _closest(mind, said, text, names)


def _by_colour(mind: Mind, colour: str, shape: str) -> list[Layer]:
    """The layers of a shape drawn in one colour of the family named ("the blue dots")."""
    wanted = colours.parse(colour)
    if wanted is None:
        return []
    geometry = next(g for g, kinds in GEOMETRY_WORDS.items() if shape in kinds)
    family = colours.family(wanted)
    found = []
    for layer in mind.layers:
        renderer = (layer.get("style") or {}).get("renderer") or {}
        drawn = main_colour(layer.get("style"), geometry)
        if (layer["geometry_type"] == geometry and renderer.get("type") in ("single", None)
                and drawn is not None and colours.family(drawn) == family):  # fmt: skip
            found.append(layer)
    return found


def _closest(mind: Mind, said: str, text: str, names: dict[str, str]) -> list[Layer] | Ask | None:
    by_id = {layer["layer_id"]: layer for layer in mind.layers}
    scored = sorted(((likeness(said, name), key) for key, name in names.items()), reverse=True)
    matches = [(score, key) for score, key in scored if score >= 80][:3]
    if not matches:
        return None
    if len(matches) > 1 and matches[1][0] >= matches[0][0] - 4:
        return which([by_id[key] for score, key in matches if score >= matches[0][0] - 4], text)
    return [by_id[matches[0][1]]]


def exactly(mind: Mind, text: str, found: list[Layer]) -> bool:
    """Whether a phrase names these layers for sure (by name, all of them, or a reference to
    what the conversation named), not by a guess at a typo."""
    said = bare(text)
    if said in EVERYTHING or said in PRONOUNS or text.strip().lower() in PRONOUNS:
        return True
    names = {singular(mind.gloss(layer["name"])) for layer in found}
    parts = {singular(bare(p)) for p in re.split(r",? and |, ", said) if p}
    return parts <= names or said in ALL_GEOMETRY_WORDS


def with_layers(
    mind: Mind,
    text: str | None,
    chosen: list[str] | None,
    make: Callable[[list[Layer]], Outcome],
    *,
    single: bool = False,
) -> Outcome | None:
    """Resolve the layers a clause names (or the ones the user chose), then let `make` build
    the outcome; a question when it is not clear which."""
    if chosen is not None:
        found: list[Layer] | Ask | None = [
            layer for layer in mind.layers if layer["layer_id"] in chosen
        ]
    elif not mind.layers:
        return Fail(phrase("no_layers")) if text else None
    else:
        found = named(mind, text or "it")
    if found is None or isinstance(found, Ask):
        return found
    if single and len(found) > 1:
        return which(found, text)
    mind.memory.named([layer["layer_id"] for layer in found])
    return make(found)


def mention(mind: Mind, words: list[str]) -> tuple[int, int] | None:
    """Where (a word span) a clause names a layer: the longest run of words that names one,
    words of the grammar aside ("make the cafe dots bigger": "cafe dots")."""
    if not mind.layers:
        return None
    plain = [w.strip(",.;:!?'\"").lower() for w in words]
    for size in (4, 3, 2, 1):
        for start in range(len(words) - size + 1):
            chunk = plain[start : start + size]
            if chunk[0] in mind.edge or chunk[-1] in mind.edge:
                continue
            if chunk[0] in PRONOUNS and (size > 1 or not mind.memory.layers):
                continue
            if size == 1 and chunk[0] in ALL_GEOMETRY_WORDS and start and plain[start - 1] not in (
                "the", "my", "our", "all", "those", "these", "this", "that", "its", "their",
            ):  # fmt: skip
                continue  # "the road lines" names no layer of lines
            found = named(mind, " ".join(chunk))
            if isinstance(found, list) and found and len(found) <= len(mind.layers):
                return start, start + size
    return None


def field_named(text: str, fields: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Which of a layer's fields a phrase names: by name (any case, typos), by a word of it
    ("county name": county; "length": length_km), or by a synonym ("people": population)."""
    names = [fold(f["name"]) for f in fields]
    said = re.sub(r"^(?:the|their|its|a|an) ", "", fold(text)).strip()
    # "how many visitors they get", "the number of people living there": visitors, people
    said = re.sub(r"^(?:how many|how much|(?:the )?number of|amount of) (\w+)\b.*$", r"\1", said)
    if not said:
        return None
    for candidate in (said, singular(said), said.replace(" ", "_")):
        if candidate in names:
            return fields[names.index(candidate)]
    match = process.extractOne(said, names, scorer=fuzz.ratio, score_cutoff=80)
    if match is not None:
        return fields[int(match[2])]
    words = [singular(word) for word in said.split()]
    if len(words) <= 3:
        for index, name in enumerate(names):
            parts = [singular(p) for p in re.split(r"[_\s]+", name) if p]
            if parts and (singular(name) in words or parts[0] in words):
                return fields[index]
    for synonym in FIELD_SYNONYMS.get(said, ()) + FIELD_SYNONYMS.get(singular(said), ()):
        for index, name in enumerate(names):
            if name == synonym or name.startswith(synonym + "_"):
                return fields[index]
    return None


def numeric_fields(layer: Layer) -> list[dict[str, Any]]:
    """The layer's fields that hold numbers."""
    return [f for f in layer.get("fields") or [] if f.get("type") == "number"]


def kind_of(layer: Layer) -> str:
    """What a layer holds, in words ("points", "raster")."""
    kinds = {"Point": "points", "LineString": "lines", "Polygon": "polygons", "mixed": "mixed"}
    if layer["layer_type"] != "geojson":
        return "image tiles" if layer["layer_type"] == "tile" else "raster"
    return kinds.get(layer["geometry_type"] or "", "features")


def names_of(found: list[Layer]) -> str:
    """Layer names joined for a reply ("Cafes, Counties and Rivers")."""
    return join([layer["name"] for layer in found])


def join(items: list[str], word: str = "and") -> str:
    """ "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def by_value(mind: Mind, text: str) -> tuple[Layer, dict[str, Any]] | None:
    """The layer whose features a word names by a value of one of its text fields ("the
    bars": Cafes whose kind is "bar"), with that condition; None unless exactly one does."""
    words = fold(re.sub(r"^(?:the|all(?: the)?|any) ", "", text.strip().lower())).strip()
    if not words:
        return None
    wanted = {words, singular(words)}
    found = [
        (layer, {"field": field["name"], "op": "==", "value": value})
        for layer in mind.layers
        for field in layer.get("fields") or ()
        if field.get("type") == "string"
        for value in field.get("sample") or ()
        if isinstance(value, str) and fold(value).lower() in wanted
    ]
    return found[0] if len(found) == 1 else None
