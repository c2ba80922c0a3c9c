"""Doing again what was just done, on something else: "do the same for the sites", "and the
rivers too" (the last thing done, in this message or the turn before: docs/chat.md
"References")."""

from __future__ import annotations

from maproom.domain.chat.builtin import targets
from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Done, Outcome

# What can be done again to another layer: the kinds of readings that take a layer.
ON_A_LAYER = frozenset(
    {"colour", "size", "opacity", "heatmap", "classify", "size_by", "label", "show", "hide",
     "toggle", "remove", "zoom_layer", "move_layer", "outline", "plain_style", "colour_each",
     "unfilter", "buffer", "clip", "dissolve"}
)  # fmt: skip


# What "X instead" takes back from the layer it was done to before doing it to X: the last
# turn's restyling or hiding, when that was the last change to the project.
TAKEN_BACK = frozenset(
    {"colour", "size", "opacity", "heatmap", "classify", "size_by", "label", "hide", "toggle",
     "outline", "plain_style", "colour_each"}
)  # fmt: skip

# What can be done again to another place.
ON_A_PLACE = frozenset({"goto", "mask", "zoom_there", "place"})


@resolves("same")
def same(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """The last thing done, on the layer this clause names."""
    last = mind.done[-1] if mind.done else mind.memory.intent
    target = (slots.get("layer") or "").strip()
    if slots.get("restated"):
        return _restated(mind, slots["by"])
    if slots.get("bare"):  # only a layer's exact name, after a clause of this very message
        found = targets.named(mind, slots["bare"])
        if not mind.done or not isinstance(found, list) or len(found) != 1:
            return None
        if not targets.exactly(mind, slots["bare"], found):
            return None
        last, target = mind.done[-1], slots["bare"]
    if not last or not target:
        return None
    if last.get("kind") in ON_A_PLACE and "place" in last["slots"]:  # "the same for Berlin"
        return redo(mind, str(last["kind"]), {**last["slots"], "place": target})
    if last.get("kind") == "filter" and targets.named(mind, target) is None:
        # "only the monuments", then "make that monuments and museums": another condition
        kept = {key: value for key, value in last["slots"].items()
                if key in ("hide", "narrow", "clause")}  # fmt: skip
        return redo(mind, "filter", {**kept, "rest": target})
    if last.get("kind") not in ON_A_LAYER:
        return None
    again = {**last["slots"], "layer": target}
    if slots.get("by"):  # "the same for the sites, weighted by visitors"
        again.update({key: slots["by"] for key in ("field", "weight") if key in again})
    before = list(mind.memory.layers)
    outcome = redo(mind, str(last["kind"]), again)
    if (
        slots.get("instead")
        and isinstance(outcome, Done)
        and _replaces(mind, last, before, outcome)
    ):
        return Done(outcome.actions, outcome.said, undo=1)
    return outcome


def _restated(mind: Mind, said: str) -> Outcome | None:
    """ "By the length" after "make the rivers thicker when they are longer" in the same
    message: the field the clause before used, said again (nothing more to do)."""
    last = mind.done[-1] if mind.done else None
    if last is None or last.get("kind") not in ON_A_LAYER:
        return None
    used = [last["slots"].get(key) for key in ("field", "weight") if last["slots"].get(key)]
    layer = next((x for x in mind.layers if x["layer_id"] in mind.memory.layers), None)
    fields = (layer or {}).get("fields") or []
    wanted = targets.field_named(said, fields)
    if wanted is not None and any(targets.field_named(u, fields) == wanted for u in used):
        return Done([], [])
    return None


def _replaces(mind: Mind, last: dict[str, object], before: list[str], outcome: Done) -> bool:
    """Whether "X instead" takes the last turn's change back: it restyled or hid another
    layer, and it is still the project's last change."""
    if mind.done or not mind.memory.acted or last.get("kind") not in TAKEN_BACK:
        return False
    now = {action.get("layer_id") for action in outcome.actions}
    return bool(now) and not now & set(before)


@resolves("instead")
def instead(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """The last thing done, with another number of classes or another field: "use 3 classes
    instead", "use the kind field for them instead", "the same but in 3 classes"."""
    last = mind.done[-1] if mind.done else mind.memory.intent
    if not last or last.get("kind") not in ON_A_LAYER:
        return None
    again = dict(last["slots"])
    if slots.get("classes"):
        again["opts"] = f"in {slots['classes']} classes"
        again["clause"] = f"in {slots['classes']} classes"
    elif slots.get("field"):
        again["field"] = slots["field"]
    else:
        return None
    return redo(mind, str(last["kind"]), again)


# What "and the smallest?" asks again: a ranking, a superlative value, or a ranking of the
# layer a count was about.
RANKINGS = frozenset({"top", "goto_top"})
ASKED_AGAIN = RANKINGS | {"stat", "count"}


@resolves("other_end")
def other_end(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """The last question about the data, asked of the other superlative: "and the smallest?"
    after "which city has the most people"."""
    asked = [done for done in mind.done if done.get("kind") in ASKED_AGAIN]
    last = asked[-1] if asked else mind.memory.intent
    if not last:
        return None
    kind, before = str(last.get("kind")), dict(last.get("slots") or {})
    sup = slots["sup"]
    if kind in RANKINGS:
        keys = [key for key in before if key.startswith("sup") and before[key]]
        again = {key: value for key, value in before.items() if key not in keys}
        layer = next((before[k] for k in before if k.startswith("layer") and before[k]), "")
        field = next((before[k] for k in before if k.startswith("field") and before[k]), "")
        again.update({"sup": sup, "layer": layer, "field": field, "n": slots.get("n") or ""})
        return redo(mind, kind, again)
    if kind == "stat" and before.get("stat"):
        return redo(mind, kind, {**before, "stat": sup})
    if kind == "count" and mind.memory.layers:
        layer = next((x["name"] for x in mind.layers if x["layer_id"] in mind.memory.layers), "")
        return redo(mind, "top", {"sup": sup, "layer": layer, "n": slots.get("n") or ""})
    return None


def redo(mind: Mind, kind: str, slots: dict[str, str]) -> Outcome | None:
    """A reading resolved again with other slots, remembered as what was done (the next
    follow-up builds on the ranking or the colouring, not on "and the smallest")."""
    outcome = mind.resolve(kind, slots)
    if isinstance(outcome, Done):
        mind.redone = {"kind": kind, "slots": slots}
    return outcome
