"""Undo and redo by chat, through the project's history (docs/history.md): "undo", "go back",
"revert that", "undo the last two changes", "redo"."""

from __future__ import annotations

import re

from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Done, Outcome, phrase
from maproom.domain.chat.builtin.text import number

MAX_STEPS = 20


def _steps(slots: dict[str, str]) -> int | None:
    said = (slots.get("count") or "").strip()
    said = re.sub(r"^(?:the )?(?:last|latest|previous)\b ?", "", said)
    if not said or re.fullmatch(
        r"(?:that|it|this|the|one|change|action|step|edit|thing|move|(?:that|this|the|my) "
        r"(?:change|action|step|edit|thing|move|one))(?: please| again)?",
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
    """ "undo", "undo the last 2 changes"."""
    steps = _steps(slots)
    if steps is None:
        return None
    return Done([], [phrase("undone", steps=steps)], undo=steps)


@resolves("redo")
def redo(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "redo", "redo that"; "bring it back" after a layer was hidden shows it."""
    if slots.get("back"):
        hidden = [layer for layer in mind.layers
                  if layer["layer_id"] in mind.memory.layers and not layer["visible"]]  # fmt: skip
        if hidden:
            return mind.resolve("show", {"layer": "it"})
    steps = _steps(slots)
    if steps is None:
        return None
    return Done([], [phrase("redone", steps=steps)], redo=steps)
