"""What is done to layers as a whole: list, show, hide, toggle, show only, rename, remove,
reorder and zoom to ("hide the cafes", "rename sites to Landmarks", "bring the rivers to the
front"). A removal is applied only to layers named for sure: a guess at a typo, or "the layer"
with several layers, is asked back (docs/chat.md "Safety")."""

from __future__ import annotations

import re
from typing import Any

from maproom.domain.chat.builtin import conditions, targets
from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Done, Fail, Outcome, phrase
from maproom.domain.chat.builtin.resolvers import data
from maproom.domain.chat.builtin.targets import Layer, names_of, with_layers
from maproom.domain.chat.builtin.text import COMMAND_WORDS

# "rename rivers to Streams and hide them": the new name ends before a second command.
SECOND_COMMAND = re.compile(
    r"(?: (?:and|then|,)|,? and) (?:also )?(?:" + "|".join(sorted(COMMAND_WORDS)) + r"|label|"
    r"labels|size|it|them|put|give|add|could you|can you|would you|please)\b",
    re.I,
)


@resolves("list")
def list_layers(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "list the layers", "what's on the map"."""
    if not mind.layers:
        return Done([], [phrase("no_layers")])
    hidden = [layer for layer in mind.layers if not layer["visible"]]
    if hidden and re.match(r"(?:show|display)(?: me)? all", slots.get("clause", "")):
        return visibility(mind, {"layer": "all"}, None, True) or Done([], [])
    described = [
        {"name": layer["name"], "kind": targets.kind_of(layer), "hidden": not layer["visible"]}
        for layer in mind.layers
    ]
    return Done([], [phrase("layers", count=len(described), layers=described)])


def visibility(
    mind: Mind, slots: dict[str, str], chosen: list[str] | None, visible: bool
) -> Outcome | None:
    """Show or hide the layers a clause names ("show it" after a place is that place)."""

    def make(found: list[Layer]) -> Outcome:
        actions = [{"type": "set_layer_visibility", "layer_id": layer["layer_id"],
                    "visible": visible} for layer in found]  # fmt: skip
        return Done(actions, [phrase("showed" if visible else "hid", layers=names_of(found))])

    present = {layer["layer_id"] for layer in mind.layers}
    if (
        (slots.get("layer") or "it") in ("it", "them")
        and mind.memory.layers
        and not (present & set(mind.memory.layers))
    ):  # "remove the rivers, I don't need it": what "it" was is gone
        return Done([], [])
    return with_layers(mind, slots.get("layer"), chosen, make)


@resolves("show")
def show(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "show the cafes", "bring the rivers back"; "show me the Oceanarium on the map" (no
    layer: a feature of one, by its name)."""
    text = re.sub(r" (?:on|in) (?:the|my|this) map$", "", slots.get("layer") or "")
    if (
        text.lower() in ("it", "it on the map")
        and mind.memory.focus == "place"
        and mind.memory.place
    ):
        return mind.resolve("goto", {"place": "it"})  # "... about Marseille, show it on the map"
    plain = 0 < len(text.split()) <= 4 and not re.match(r"(?:me|us|where|what|how)\b", text)
    last = mind.memory.intent or {}
    if (
        chosen is None
        and mind.memory.acted
        and last.get("kind") == "remove"
        and targets.named(mind, text) is None
        and targets.bare(text) == targets.bare(str(last["slots"].get("layer") or ""))
    ):  # "remove the rivers", then "bring back the rivers": the removal taken back
        return Done([], [phrase("undone", steps=1)], undo=1)
    if chosen is None and plain and targets.named(mind, text) is None:
        feature = data.feature_named(mind, text)
        if feature is not None:
            return feature
    # "see Brazil, the whole country", "show me the Portugal complete": a place, no layer
    named = re.sub(r"^(?:the|all|all the|the whole) ", "", text.split(",")[0].strip())
    named = re.sub(r" (?:complete|whole|entire)$", "", named)
    place = named[:1].isupper() and mind.places.find(named, fuzzy=False).candidates
    if chosen is None and place and targets.mention(mind, text.split()) is None:
        return None
    if chosen is None and plain and not re.search(rf"\b{re.escape(text)} layer\b",
                                                 slots.get("clause", ""), re.I):  # fmt: skip
        # "show the museums"; not "show me the area around Lisbon" (a name: a place)
        named_one = any(word[:1].isupper() for word in text.split())
        valued = None if place or named_one else _features(mind, text, keep=True)
        if valued is not None:
            return valued
    return visibility(mind, slots, chosen, True)


@resolves("hide")
def hide(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "hide the cafes", "turn the rivers off"; "hide the bars" (no layer of that name, but
    the Cafes' kind "bar") filters those features out."""
    text = slots.get("layer") or ""
    other = re.fullmatch(r"(?:the )?(?:other|remaining|rest of the) (.+)", text)
    found = targets.named(mind, other.group(1)) if other and chosen is None else None
    if (
        isinstance(found, list)
        and len(found) == 1
        and mind.memory.layers == [found[0]["layer_id"]]
        and (found[0].get("style") or {}).get("filter")
    ):  # "just see the museums, hide the other sites": the filter just set leaves them out
        return Done([], [])
    said_layer = re.search(rf"\b{re.escape(text)} layer\b", slots.get("clause", ""), re.I)
    if chosen is None and text and not said_layer:
        valued = _features(mind, text, keep=False)
        if valued is not None:
            return valued
    unknown = chosen is None and said_layer and targets.named(mind, text) is None
    if unknown and (targets.by_value(mind, text) or conditions.fitting(mind, text)):
        return targets.which(mind.layers, text)  # "hide the Lisbon layer": which one is it?
    return visibility(mind, slots, chosen, False)


def _features(mind: Mind, text: str, *, keep: bool) -> Outcome | None:
    """ "hide the bars", "drop the bars": no layer of that name, but features of one whose
    text field holds that value; a filter leaves them out (nothing is deleted). "show the
    museums" (`keep`): the filter keeps only those, or, when they were left out by an earlier
    filter, brings them back."""
    if targets.named(mind, text) is not None or re.search(r"\blayer$", text):
        return None  # "hide the Lisbon layer": a layer, even with no such name
    if keep and targets.mention(mind, text.split()) is not None:
        return None  # "show again the cafés": the layer
    valued = targets.by_value(mind, text)
    plain = len(text.split()) <= 4 and not set(text.lower().split()) & COMMAND_WORDS
    if valued is None and plain and re.fullmatch(r"[\w' -]+", text):
        fits = conditions.fitting(mind, text)  # "hide the capitals": Cities, capital true
        valued = fits[0] if len(fits) == 1 else None
    if valued is None:
        return None
    layer, where = valued
    own = (layer.get("style") or {}).get("filter")
    parts: list[Any] = []
    if own:
        parts = list(own["all"]) if isinstance(own, dict) and "all" in own else [own]
    if keep and conditions.negate(where) in parts:  # back in view: the part leaving them out goes
        rest = [part for part in parts if part != conditions.negate(where)]
        new = None if not rest else rest[0] if len(rest) == 1 else {"all": rest}
    else:
        where = where if keep else conditions.negate(where)
        new = {"all": [own, where]} if own else where
    action = {"type": "set_layer_filter", "layer_id": layer["layer_id"], "filter": new}
    mind.memory.named([layer["layer_id"]])
    if new is None:
        return Done([action], [phrase("unfiltered", layers=layer["name"])])
    return Done([action], [phrase("filtered" if keep else "filtered_hide", layer=layer["name"])])


@resolves("toggle")
def toggle(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "toggle the cafes"."""

    def make(found: list[Layer]) -> Outcome:
        actions = [{"type": "set_layer_visibility", "layer_id": layer["layer_id"],
                    "visible": not layer["visible"]} for layer in found]  # fmt: skip
        return Done(actions, [phrase("toggled", layers=names_of(found))])

    return with_layers(mind, slots.get("layer"), chosen, make)


@resolves("only")
def only(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "show only the counties", "just the rivers" (not "only the cafes rated 2 or more": a
    filter)."""
    if re.search(r" (?:with|whose|where|rated|over|under|above|below|more than|less than|fewer "
                 r"than|at least|at most|between|in|from|of|that|which)\b|\d|\bnon\b|\bnot ",
                 slots.get("layer") or ""):  # fmt: skip
        return None

    def make(found: list[Layer]) -> Outcome:
        keep = {layer["layer_id"] for layer in found}
        actions = [
            {"type": "set_layer_visibility", "layer_id": layer["layer_id"],
             "visible": layer["layer_id"] in keep}
            for layer in mind.layers
            if layer["visible"] != (layer["layer_id"] in keep)
        ]  # fmt: skip
        hidden = len([a for a in actions if not a["visible"]])
        return Done(actions, [phrase("only", layers=names_of(found), hidden=hidden)])

    return with_layers(mind, slots.get("layer"), chosen, make)


@resolves("hide_rest")
def hide_rest(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "show only the cities, hide the rest": every layer but those just named is hidden."""
    others = _the_rest(mind)
    if not others:
        return None
    shown = [layer for layer in others if layer["visible"]]
    actions = [{"type": "set_layer_visibility", "layer_id": layer["layer_id"], "visible": False}
               for layer in shown]  # fmt: skip
    return Done(actions, [phrase("hid", layers=names_of(shown))] if shown else [])


@resolves("remove_rest")
def remove_rest(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "hide the rivers", then "now delete all the other layers too": every layer but those
    just named (the turn asks first when that is more than one)."""
    others = _the_rest(mind)
    if not others:
        return None
    actions = [{"type": "remove_layer", "layer_id": layer["layer_id"]} for layer in others]
    return Done(actions, [phrase("removed", layers=names_of(others))])


def _the_rest(mind: Mind) -> list[Layer]:
    """The layers but those the conversation just named (none after a place: "dim the rest"
    is about the world)."""
    keep = set(mind.memory.layers)
    if not keep or mind.memory.focus != "layers":
        return []
    return [layer for layer in mind.layers if layer["layer_id"] not in keep]


@resolves("rename")
def rename(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "rename cafes to Coffee shops", "call the rivers layer Streams"."""
    raw = slots.get("name", "").strip()
    # "'Our Cafés' for the handout": the name ends at its closing quote
    quoted = re.match(r"[\"'\u201c\u00ab\u2018](.+?)[\"'\u201d\u00bb\u2019](?=\W|$)", raw)
    name = (quoted.group(1) if quoted else raw).strip().strip("\"'“”«»").strip()
    if not quoted:  # "Concelhos, que é como dizemos cá": the name, then why
        name = re.split(r"[,;.!?] +(?=\w+ \w+)", name, maxsplit=1)[0].strip()
    if not name or SECOND_COMMAND.search(raw):
        return None  # "rename rivers to Streams and hide them": two clauses
    if name.islower() and not any(char.isupper() for char in mind.message):
        name = name[0].upper() + name[1:]  # who writes no capitals says nothing of them

    def make(found: list[Layer]) -> Outcome:
        layer, new = found[0], name[:200]
        return Done([{"type": "rename_layer", "layer_id": layer["layer_id"], "name": new}],
                    [phrase("renamed", layer=layer["name"], name=new)])  # fmt: skip

    return with_layers(mind, slots.get("layer"), chosen, make, single=True)


@resolves("remove")
def remove(mind: Mind, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
    """ "remove the rivers"; a layer found by a guess is asked back, never removed; "remove
    the bars" (a value, no layer) leaves those features out."""
    text = slots.get("layer") or "it"
    # "the layers of rivers and of counties": the rivers and the counties
    text = re.sub(r"\band of (?:the )?", "and ", re.sub(r"^(?:the )?layers? (?:of )?", "", text))
    valued = _features(mind, text, keep=False) if chosen is None and slots.get("layer") else None
    if valued is not None:
        return valued

    def make(found: list[Layer]) -> Outcome:
        if chosen is None and not targets.exactly(mind, text, found):
            return targets.which(found, text)
        actions = [{"type": "remove_layer", "layer_id": layer["layer_id"]} for layer in found]
        return Done(actions, [phrase("removed", layers=names_of(found))])

    return with_layers(mind, text, chosen, make)


@resolves("remove_all")
def remove_all(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "delete everything": the turn asks to confirm before removing several layers."""
    if not mind.layers:
        return Done([], [phrase("nothing_to_remove")])
    every = [layer["layer_id"] for layer in mind.layers]
    if slots.get("keep"):  # "delete all layers except the cities"
        kept = targets.named(mind, slots["keep"])
        if not isinstance(kept, list) or not targets.exactly(mind, slots["keep"], kept):
            return None
        every = [i for i in every if i not in {layer["layer_id"] for layer in kept}]
        if not every:
            return Done([], [phrase("nothing_to_remove")])
    return remove(mind, {"layer": "all"}, every) or Done([], [])


@resolves("clear_ai")
def clear_ai(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "clear the AI layers"."""
    made = [layer for layer in mind.layers if layer["source"] == "ai"]
    if not made:
        return Done([], [phrase("no_ai_layers")])
    return Done([{"type": "clear_layers"}], [phrase("removed", layers=names_of(made))])


@resolves("move_layer")
def move_layer(
    mind: Mind, slots: dict[str, str], chosen: list[str] | None = None
) -> Outcome | None:
    """ "bring the cafes to the front", "move counties above rivers", "move the rivers down"."""
    other: list[Layer] | None = None
    if slots.get("rel"):  # "move the counties above the rivers"
        found_other = targets.named(mind, slots.get("other", ""))
        if not isinstance(found_other, list) or len(found_other) != 1:
            return None
        other = found_other

    def make(found: list[Layer]) -> Outcome:
        return _moved(mind, found[0], slots, other)

    return with_layers(mind, slots.get("layer"), chosen, make, single=True)


def _moved(mind: Mind, layer: Layer, slots: dict[str, str], other: list[Layer] | None) -> Outcome:
    where = slots.get("where", "").lower()
    order = [item["layer_id"] for item in mind.layers]
    rest = [i for i in order if i != layer["layer_id"]]
    name = layer["name"]
    if other is not None:
        if other[0]["layer_id"] == layer["layer_id"]:
            return Fail(phrase("move_itself", layer=name))
        above = not re.search(r"below|under|beneath|behind", slots["rel"])
        rest.insert(rest.index(other[0]["layer_id"]) + (0 if above else 1), layer["layer_id"])
        key = "moved_above" if above else "moved_below"
        return Done([{"type": "reorder_layers", "layer_ids": rest}],
                    [phrase(key, layer=name, other=other[0]["name"])])  # fmt: skip
    if re.search(r"top|front|above|in front", where):
        return Done([{"type": "reorder_layers", "layer_ids": [layer["layer_id"], *rest]}],
                    [phrase("moved_top", layer=name)])  # fmt: skip
    if re.search(r"bottom|back|below|behind", where):
        return Done([{"type": "reorder_layers", "layer_ids": [*rest, layer["layer_id"]]}],
                    [phrase("moved_bottom", layer=name)])  # fmt: skip
    up = bool(re.search(r"up|higher|forward", where))
    kind: dict[str, Any] = {"type": "move_layer_up" if up else "move_layer_down",
                            "layer_id": layer["layer_id"]}  # fmt: skip
    return Done([kind], [phrase("moved_up" if up else "moved_down", layer=name)])


@resolves("zoom_layer")
def zoom_layer(
    mind: Mind, slots: dict[str, str], chosen: list[str] | None = None
) -> Outcome | None:
    """ "zoom to the rivers layer", "fit the map to the cafes"."""

    def make(found: list[Layer]) -> Outcome:
        boxes = [layer["bbox"] for layer in found if layer.get("bbox")]
        if not boxes:
            return Fail(phrase("no_extent", layers=names_of(found)))
        if len(found) == 1:
            return Done([{"type": "zoom_to_layer", "layer_id": found[0]["layer_id"]}],
                        [phrase("zoomed_to", layers=found[0]["name"])])  # fmt: skip
        box = [min(b[0] for b in boxes), min(b[1] for b in boxes),
               max(b[2] for b in boxes), max(b[3] for b in boxes)]  # fmt: skip
        return Done([{"type": "fit_bounds", "bbox": box, "padding": 40}],
                    [phrase("zoomed_to", layers=names_of(found))])  # fmt: skip

    return with_layers(mind, slots.get("layer"), chosen, make)
