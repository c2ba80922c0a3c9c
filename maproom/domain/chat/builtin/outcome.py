"""What resolving a clause against the project gives: actions and what the reply says of them
(`Done`), a question (`Ask`), a reason it cannot be done (`Fail`), or a request for data the
clause needs first (`Need`, raised: the agent fetches it and reads the message again).

What the reply says is a `Phrase`: a key of the reply catalogue (`lang/replies.py`) and its
values, said in the message's language when the turn ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Phrase:
    """One sentence of a reply: a catalogue key and the values it names."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)


def phrase(key: str, **values: Any) -> Phrase:
    """A sentence of the reply catalogue, with its values."""
    return Phrase(key, values)


@dataclass
class Done:
    """A clause resolved: its actions, and what the reply says of them."""

    actions: list[dict[str, Any]]
    said: list[Phrase]
    undo: int = 0  # steps of the project history to take back (each its own batch)
    redo: int = 0


@dataclass
class Ask:
    """A clause that needs the user to choose."""

    text: Phrase
    options: list[str]
    choices: list[dict[str, Any]]  # one per option: what choosing it resolves the clause to
    intent: dict[str, Any] = field(default_factory=dict)  # the clause's intent (kind, slots)


def offer(text: Phrase, options: list[str], build: Callable[[str], Outcome]) -> Ask | Fail:
    """Ask which of these options is meant, each worked out beforehand (`build`): "which
    colour?", "which of the numeric fields?" (the first failure if one cannot be done)."""
    choices = []
    for option in options:
        outcome = build(option)
        if not isinstance(outcome, Done):
            return outcome if isinstance(outcome, Fail) else Fail(text)
        said = [{"key": p.key, "values": p.values} for p in outcome.said]
        choices.append({"outcome": {"actions": outcome.actions, "said": said}})
    return Ask(text, options, choices)


@dataclass
class Fail:
    """A clause that reads as a command but names nothing that exists, or asks for something
    that cannot be done: the reply says why."""

    said: Phrase


Outcome = Done | Ask | Fail

DataKey = tuple[Any, ...]
"""A question to the layer's data: `("stats", layer_id, field, filter_json)` or
`("features", layer_id, filter_json, sort, order, limit)`."""


class Need(Exception):
    """Raised while resolving: the clause needs these answers from the data first."""

    def __init__(self, keys: list[DataKey]) -> None:
        super().__init__(keys)
        self.keys = keys
