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
        return mind.resolve(str(last["kind"]), {**last["slots"], "place": target})
    if last.get("kind") not in ON_A_LAYER:
        return None
    again = {**last["slots"], "layer": target}
    if slots.get("by"):  # "the same for the sites, weighted by visitors"
        again.update({key: slots["by"] for key in ("field", "weight") if key in again})
    before = list(mind.memory.layers)
    outcome = mind.resolve(str(last["kind"]), again)
    if (
        slots.get("instead")
        and isinstance(outcome, Done)
        and _replaces(mind, last, before, outcome)
    ):
        return Done(outcome.actions, outcome.said, undo=1)
    return outcome


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
    return mind.resolve(str(last["kind"]), again)
