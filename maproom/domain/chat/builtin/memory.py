"""What the conversation has named so far, for "it", "them", "there" and "the same": kept with
each reply the agent stores (the message's `memory`, never shown by the API), read back from
the project's last reply when the next turn begins (docs/chat.md, "References")."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Memory:
    """The last place, the last layers named or changed, and the last thing done."""

    place: dict[str, Any] | None = None  # as `gazetteer.as_json` stores a place
    layers: list[str] = field(default_factory=list)  # layer ids
    intent: dict[str, Any] | None = None  # the last clause acted on: {"kind", "slots"}
    focus: str = ""  # what was named last: "place" or "layers"
    subset: dict[str, Any] | None = None  # the last features counted: {"layer", "filter"}
    field: str = ""  # the field the agent's last question was about
    acted: bool = False  # whether the last turn changed the project (its `intent` stands)

    def went(self, place: dict[str, Any]) -> None:
        """A place was named last."""
        self.place, self.focus = place, "place"

    def named(self, layer_ids: list[str]) -> None:
        """Layers were named last."""
        self.layers, self.focus = list(layer_ids), "layers"

    def json(self) -> dict[str, Any]:
        """What is stored with the reply."""
        return asdict(self)

    @classmethod
    def of(cls, data: Any) -> Memory:
        """A memory as stored (anything else: an empty one)."""
        if not isinstance(data, dict):
            return cls()
        layers = [str(i) for i in data.get("layers") or [] if isinstance(i, str)]
        place = data.get("place") if isinstance(data.get("place"), dict) else None
        intent = data.get("intent") if isinstance(data.get("intent"), dict) else None
        subset = data.get("subset") if isinstance(data.get("subset"), dict) else None
        focus, field = str(data.get("focus") or ""), str(data.get("field") or "")
        return cls(place, layers, intent, focus, subset, field, data.get("acted") is True)

    @classmethod
    def last(cls, history: list[dict[str, Any]]) -> Memory:
        """The memory the project's latest reply kept."""
        for message in reversed(history):
            if message.get("role") == "assistant" and message.get("memory"):
                return cls.of(message["memory"])
        return cls()

    def copy(self) -> Memory:
        """An independent copy (a reading that fails leaves the memory as it was)."""
        return Memory(
            dict(self.place) if self.place else None,
            list(self.layers),
            dict(self.intent) if self.intent else None,
            self.focus,
            dict(self.subset) if self.subset else None,
            self.field,
            self.acted,
        )
