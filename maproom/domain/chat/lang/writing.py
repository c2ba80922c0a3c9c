"""What the reply catalogues of the other languages share: the same reading of what a
resolver said (a number written in English, a size change, basemap parts), each catalogue
giving its own words (`Writing`)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Writing:
    """How a language writes values: its number format, list join and the tables the
    shared readings look words up in."""

    shown: Callable[[Any], Any]
    join: Callable[[list[str]], str]
    parts: dict[str, str]
    sizing: dict[str, tuple[str, str]]
    much: dict[str, str]

    def number(self, text: Any) -> Any:
        """A number the resolvers wrote in English ("2.5"), as this language writes it."""
        try:
            value = float(text)
        except (TypeError, ValueError):
            return self.shown(text)
        return self.shown(value) if math.isfinite(value) else text

    def distance(self, text: Any) -> str:
        """ "0.5 km" as this language writes it ("0,5 km")."""
        number, _, unit = str(text).partition(" ")
        return f"{self.number(number)} {unit}".strip()

    def basemap_parts(self, text: Any) -> str:
        """Basemap parts named in English ("roads, labels and water"), in this language."""
        found = [p for p in re.split(r",? and |, ", str(text)) if p]
        return self.join([self.parts.get(p.strip().lower(), p) for p in found])

    def filled(
        self, template: str, **said: Callable[[Any], Any]
    ) -> Callable[[dict[str, Any]], str]:
        """A template whose values named in `said` are put in this language first (the rest
        as `shown`)."""

        def fill(v: dict[str, Any]) -> str:
            values = {name: self.shown(value) for name, value in v.items() if name != "_"}
            values.update((name, turn(v[name])) for name, turn in said.items())
            return template.format(**values)

        return fill

    def helpers(self) -> tuple[Callable[..., Any], ...]:
        """`number`, `distance`, `basemap_parts`, `filled`, `sized`, and `sizing` with this
        language's numbers, as a catalogue names them."""
        return (self.number, self.distance, self.basemap_parts, self.filled, self.sized,
                lambda how: sizing(how, self.number))  # fmt: skip

    def sized(self, v: dict[str, Any]) -> str:
        """What a size or opacity change did."""
        kind, much, number = sizing(v["how"], self.number)
        return self.sizing[kind][0].format(layers=v["layers"], much=self.much[much], n=number)


def word(table: dict[str, str]) -> Callable[[Any], Any]:
    """A value looked up in a table (kept as it is when the table does not have it)."""
    return lambda value: table.get(str(value).strip().lower(), value)


def plural(count: Any, one: str, many: str) -> str:
    return one if count == 1 else many


def sizing(how: Any, number: Callable[[Any], Any]) -> tuple[str, str, Any]:
    """What a size or opacity change does (a key of SIZING), how much, and its number."""
    text = str(how).strip().lower()
    much = "much" if "much" in text else "little" if re.search(r"\b(?:bit|little)\b", text) else ""
    if re.search(r"transparent|opaque|faint|visible|see", text):
        if text in ("semi-transparent", "semi transparent", "see-through", "see through"):
            return "half", "", ""
        if text in ("transparent", "opaque"):
            return ("clear" if text == "transparent" else "solid"), "", ""
        fade = re.search(r"more transparent|less opaque|faint", text)
        return ("fade" if fade else "unfade"), much, ""
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return "value", "", number(text)
    if text.startswith("times "):
        return "times", "", number(text[6:])
    for kind, words in (("thicken", "thicker|wider|fatter"), ("thin", "thinner|narrower|slimmer"),
                        ("grow", "bigger|larger|biggest|largest"),
                        ("shrink", "smaller|tinier|smallest")):  # fmt: skip
        if re.search(words, text):
            return kind, much, ""
    return "other", "", how
