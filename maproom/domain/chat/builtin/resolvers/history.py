"""Undo and redo by chat, through the project's history (docs/history.md): "undo", "go back",
"revert that", "undo the last two changes", "redo"."""

from __future__ import annotations

import re

from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Done, Outcome, phrase
from maproom.domain.chat.builtin.text import number

MAX_STEPS = 20
MOVES = frozenset(
    {"goto", "goto_top", "place", "zoom", "zoom_level", "zoom_there", "zoom_layer", "pan",
     "rotate", "tilt", "home", "coordinates", "mask"}
)  # fmt: skip


def _steps(slots: dict[str, str]) -> int | None:
    said = (slots.get("count") or "").strip()
    said = re.sub(r"^(?:the )?(?:last|latest|previous)\b ?", "", said)
    said = re.sub(r"(?:^| )(?:again|please|once more)$", "", said)  # "undo again"
    if not said or re.fullmatch(
        r"(?:that|it|this|the|one|change|action|step|edit|thing|move|(?:that|this|the|my) "
        r"(?:change|action|step|edit|thing|move|one)|(?:the |that |this |my )?(?:rename|renaming|"
        r"recolou?r(?:ing)?|colou?r change|restyl(?:e|ing)|buffer|zoom|resize|reorder(?:ing)?))"
        r"(?: please| again)?",
        said,
    ):
        return 1
    found = re.search(r"(\S+)(?: (?:times|changes|steps|things|actions|edits))?$", said)
    value = number(found.group(1)) if found else None
    if value is None or value != int(value) or not 1 <= value <= MAX_STEPS:
        return None
    return int(value)


@resolves("undo")
def undo(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "undo", "undo the last 2 changes"; "go back to where we were" when the last change was
    a move."""
    if slots.get("view") is not None:
        last = mind.memory.intent or {}
        if not mind.memory.acted or last.get("kind") not in MOVES:
            return None
        return Done([], [phrase("undone", steps=1)], undo=1)
    steps = _steps(slots)
    if steps is None:
        return None
    return Done([], [phrase("undone", steps=steps)], undo=steps)


@resolves("redo")
def redo(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "redo", "redo that"; "bring it back" after a layer was hidden shows it."""
    last = mind.memory.intent or {}
    if slots.get("back") and any(done.get("kind") == "undo" for done in mind.done):
        return Done([], [])  # "undo that, bring it back": one request said twice
    if slots.get("back") and mind.memory.acted and last.get("kind") in ("remove", "remove_all"):
        return Done([], [phrase("undone", steps=1)], undo=1)  # "remove the sites" "bring it back"
    if slots.get("back"):
        hidden = [layer for layer in mind.layers
                  if layer["layer_id"] in mind.memory.layers and not layer["visible"]]  # fmt: skip
        if hidden:
            return mind.resolve("show", {"layer": "it"})
    steps = _steps(slots)
    if steps is None:
        return None
    return Done([], [phrase("redone", steps=steps)], redo=steps)
