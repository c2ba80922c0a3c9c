"""The built-in agent: plain English map commands, offline, in a few milliseconds.

A message is read in three steps:

1. **Refuse** what is not map work ("what is the weather", "tell me a joke") and messages that
   carry instructions of their own ("ignore previous instructions..."): a reply, no change.
2. **Understand**: the message is cut into clauses (`grammar.clauses`), each clause read by the
   grammar (`grammar.parse`: every rule it fits, best first), and each reading *resolved*
   against the project and the gazetteer: "the cafes" must name a layer, "Lisbon" a place,
   "population" a field of the layer. The first cut whose every clause resolves wins; a clause
   may also resolve to a question (two places or layers fit about as well).
3. **Act**: the clauses' actions go to `turn.apply` as one batch (all or nothing), the reply
   says what was done ("Flew to Paris, France."), and a question, if any, ends the turn; the
   answer resumes it with the clauses that were still to come.

Resolution is pure: nothing changes until step 3.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz, process

from maproom.domain.chat.builtin import colours, grammar, keywords, scene
from maproom.domain.chat.builtin.gazetteer import DEMONYMS, Found, Gazetteer, Place, fold
from maproom.domain.chat.builtin.text import COMMAND_WORDS, COMMON, Spelled, normalise, number
from maproom.domain.chat.turn import Turn, bad_actions
from maproom.errors import BadRequest
from maproom.geo import camera

HELP = (
    'I can move the map ("fly to Lisbon", "zoom in a bit", "pan north", "reset the view"), '
    'switch the basemap ("dark mode", "satellite imagery", "hide the roads on the basemap"), '
    'highlight a country ("highlight Japan"), and work with your layers ("list the layers", '
    '"hide the cafes", "show only the parks", "rename cafes to Coffee", "colour the '
    'regions by population", "make the points bigger", "opacity 50%").'
)
REFUSALS = {
    "injection": "I only follow map commands, not instructions written into a message, so I "
    "changed nothing.",
    "off-topic": "I can only help with this map, so I changed nothing. " + HELP,
    "unknown": "I didn't understand that, so I changed nothing. " + HELP,
}
FILLER = frozenset("the one in of a an i mean meant please that this near by at".split())  # noqa: SIM905
PRONOUNS = frozenset({"it", "them", "this", "that", "these", "those", "this layer", "that layer",
                      "the layer", "the data", "layer", "data", "it all", "their", "its",
                      "they", "those layers", "these layers"})  # fmt: skip
WIDE = 90.0  # degrees: a place this wide is centred on its box, not on its label point
# "Rome at street level": the zoom of each scale.
SCALES = {"street": 16, "block": 17, "building": 18, "neighbourhood": 14, "neighborhood": 14,
          "city": 11, "town": 12, "region": 6, "state": 6, "country": 5}  # fmt: skip
COMMAND_VERBS = ("hide", "show", "zoom", "fly", "go", "make", "colou?r", "paint", "remove",
                 "delete", "move", "switch", "turn", "set", "change", "highlight", "pan",
                 "rename", "bring", "send", "put")  # fmt: skip
# Around a place name: words that are not part of it.
PLACE_HEAD = re.compile(
    r"^(?:the map of|a map of|the city of|the country of|the state of|(?:the )?whole of|where|"
    r"all of|the entire|the whole|(?:a|the) view of) ",
    re.I,
)
PLACE_TAIL = re.compile(
    r"(?:,? (?:on|in) (?:the|a) map|,? instead|,? too|,? as well|,? again|,? please|,? now|"
    r" (?:is|are|lies|located|is located)|,? (?:next|this|last) (?:week|month|year|weekend)|"
    r",? (?:today|tomorrow|tonight|soon|later)|,? on (?:mon|tues|wednes|thurs|fri|satur|sun)day)+$",
    re.I,
)
PLACE_KIND = re.compile(
    r",? (?:province|state|county|city|town|region|country|prefecture|department|island|"
    r"islands|district|territory|area|municipality|oblast|canton)$",
    re.I,
)
# Words that never begin or end the name of a layer in a sentence ("the", "make", "bigger").
MENTION_EDGE = (COMMAND_WORDS | COMMON) - {"layer", "data", "points", "lines", "it", "them"}
GEOMETRY_WORDS = {
    "Point": ("points", "point", "dots", "markers", "circles", "pins", "locations"),
    "LineString": ("lines", "line", "routes", "paths", "tracks"),
    "Polygon": ("polygons", "polygon", "areas", "shapes", "zones", "regions", "boundaries"),
}
DETERMINERS = frozenset("the my our all those these this that of its their".split())  # noqa: SIM905
ALL_GEOMETRY_WORDS = frozenset(word for words in GEOMETRY_WORDS.values() for word in words)
CATEGORIES = {
    "road": "roads", "street": "roads", "highway": "roads", "label": "labels", "name": "labels",
    "place name": "labels", "text": "labels", "water": "water", "ocean": "water", "sea": "water",
    "lake": "water", "river": "water", "park": "parks", "green space": "parks",
    "greenspace": "parks", "building": "buildings", "boundarie": "boundaries",
    "boundary": "boundaries", "border": "boundaries", "land": "land",
}  # fmt: skip
STYLES = {
    "dark": "dark", "darker": "dark", "night": "dark", "black": "dark", "light": "light",
    "lighter": "light", "day": "light", "white": "light", "bright": "light", "default": "light",
    "normal": "light", "satellite": "satellite", "aerial": "satellite", "imagery": "satellite",
    "satellite imagery": "satellite", "aerial imagery": "satellite", "photo": "satellite",
    "photos": "satellite", "satellite view": "satellite", "street": "streets",
    "streets": "streets", "street map": "streets", "road map": "streets", "osm": "streets",
    "openstreetmap": "streets", "blank": "blank", "none": "blank", "empty": "blank",
    "plain": "blank", "nothing": "blank", "no basemap": "blank", "no map": "blank",
    "offline": "offline",
}  # fmt: skip
FIELD_SYNONYMS = {
    "type": ("kind", "category", "class", "group"), "kind": ("type", "category", "class"),
    "category": ("kind", "type", "class", "group"), "class": ("kind", "type", "category"),
    "name": ("title", "label"), "people": ("population", "pop"), "size": ("area", "population"),
    "pop": ("population",), "inhabitants": ("population",),
}  # fmt: skip
RAMP_WORDS = {
    "blue": "Blues", "blues": "Blues", "green": "Greens", "greens": "Greens", "grey": "Greys",
    "gray": "Greys", "greys": "Greys", "orange": "Oranges", "oranges": "Oranges",
    "purple": "Purples", "purples": "Purples", "red": "Reds", "reds": "Reds",
    "heat": "YlOrRd", "yellow to red": "YlOrRd", "yellow": "YlOrRd", "viridis": "Viridis",
    "spectral": "Spectral", "rainbow": "Spectral", "diverging": "RdYlBu",
    "red to blue": "RdYlBu", "yellow to blue": "YlGnBu", "ylgnbu": "YlGnBu",
}  # fmt: skip
COLOUR_KEYS = {
    "Point": ("circle-color",),
    "LineString": ("line-color",),
    "Polygon": ("fill-color",),
}
OPACITY_KEYS = {"Point": ("circle-opacity",), "LineString": ("line-opacity",),
                "Polygon": ("fill-opacity",)}  # fmt: skip
SIZE_KEYS = {"Point": "circle-radius", "LineString": "line-width", "Polygon": "_outline-width"}
DEFAULT_SIZE = {"circle-radius": 5.0, "line-width": 2.0, "_outline-width": 1.0}
DEFAULT_OPACITY = 0.9


@dataclass
class Memory:
    """What "it" and "them" refer to, as the clauses of a turn go by."""

    place: dict[str, Any] | None = None  # the last place, as `_place_json` stores it
    layers: list[str] = field(default_factory=list)  # the last layers named (ids)


@dataclass
class Done:
    """A clause resolved: its actions and what the reply says of them."""

    actions: list[dict[str, Any]]
    said: str


@dataclass
class Ask:
    """A clause that needs the user to choose."""

    text: str
    options: list[str]
    choices: list[dict[str, Any]]  # one per option: what choosing it resolves the clause to
    intent: dict[str, Any]  # the clause's intent (kind, slots)


@dataclass
class Fail:
    """A clause that reads as a command but names nothing that exists."""

    said: str


Outcome = Done | Ask | Fail


class BuiltinAgent:
    """The offline agent (see the module docstring)."""

    def __init__(self, gazetteer: Callable[[], Gazetteer] = Gazetteer.load) -> None:
        self._gazetteer = gazetteer

    def prepare(self) -> None:
        """Read the gazetteer (about a second), so the first turn does not wait for it."""
        self._gazetteer()

    async def run(self, turn: Turn) -> None:
        """Take a turn (see the module docstring)."""
        mind = Mind(turn, await turn.view(), self._gazetteer())
        if turn.resume:
            await mind.resume(turn.resume)
        else:
            await mind.answer(turn.message)


class Mind:
    """One turn's understanding of the project and the message."""

    def __init__(self, turn: Turn, view: dict[str, Any], places: Gazetteer) -> None:
        self.turn = turn
        self.view = view
        self.places = places
        self.layers: list[dict[str, Any]] = view["layers"]
        self.memory = Memory()
        self._protected = [layer["name"] for layer in self.layers]
        named = {word for name in self._protected for word in fold(name).split()}
        self._edge = MENTION_EDGE - named

    # --- the turn ------------------------------------------------------------------------------

    async def answer(self, message: str) -> None:
        """Understand a message and act on it."""
        reason = grammar.refusal(message.casefold())
        if reason is not None:
            await self.turn.say(REFUSALS[reason])
            return
        read = self.understand(normalise(message))
        if read is None:
            await self.turn.say(REFUSALS["unknown"])
            return
        await self.act(read)

    async def resume(self, state: dict[str, Any]) -> None:
        """Go on from the user's answer to our question."""
        self.memory = Memory(state.get("place"), list(state.get("layers") or []))
        ask = state["ask"]
        choice = self._choice(ask["options"], ask["choices"])
        if choice is None:  # not an answer to the question: a new message
            await self.answer(self.turn.message)
            return
        chosen = self.resolve_choice(ask["intent"], choice)
        if isinstance(chosen, Done):
            scene.follow(self.view, chosen.actions)
        read = [("", chosen)]
        for clause in state.get("rest", []):
            outcome = self.understand_clause(clause)
            if outcome is not None:
                read.append((clause, outcome))
        await self.act(read)

    def _choice(self, options: list[str], choices: list[dict[str, Any]]) -> dict[str, Any] | None:
        if self.turn.option is not None:
            return choices[options.index(self.turn.option)]
        said = self.turn.message.strip()
        ordinal = re.fullmatch(
            r"(?:the )?(first|second|third|fourth|fifth|\d)(?: one)?", said.lower()
        )
        if ordinal:
            words = ["first", "second", "third", "fourth", "fifth"]
            word = ordinal.group(1)
            index = int(word) - 1 if word.isdigit() else words.index(word)
            return choices[index] if 0 <= index < len(choices) else None
        said = fold(said)
        for people, country in DEMONYMS.items():  # "the Spanish one": the one in Spain
            said = re.sub(rf"\b{people}\b", country, said)
        words = [w for w in re.findall(r"[a-z0-9]+", said) if w not in FILLER]
        if not words:
            return None
        scores = [
            sum(fuzz.partial_ratio(word, fold(option)) >= 85 for word in words) / len(words)
            for option in options
        ]
        best = max(scores)
        if best < 0.5 or scores.count(best) > 1:
            return None
        return choices[scores.index(best)]

    async def act(self, read: list[tuple[str, Outcome]]) -> None:
        """Apply what the clauses resolved to, up to the first question, and say so; the
        clauses after a question are read again once it is answered."""
        batch: list[dict[str, Any]] = []
        said: list[str] = []
        for index, (_, outcome) in enumerate(read):
            if isinstance(outcome, Ask):
                await self._apply(batch, said)
                self.turn.ask(
                    outcome.text,
                    outcome.options,
                    {
                        "ask": {
                            "options": outcome.options,
                            "choices": outcome.choices,
                            "intent": outcome.intent,
                        },
                        "rest": [clause for clause, _ in read[index + 1 :]],
                        "place": self.memory.place,
                        "layers": self.memory.layers,
                    },
                )
                return
            if isinstance(outcome, Done):
                batch.extend(outcome.actions)
            said.append(outcome.said)
        await self._apply(batch, said)

    async def _apply(self, batch: list[dict[str, Any]], said: list[str]) -> None:
        if batch:
            try:
                await self.turn.apply(batch)
            except BadRequest as error:
                await self.turn.say(f"I couldn't do that: {bad_actions(error)}")
                return
            if self.turn.ended:  # a removal waits for the user's yes
                said = [s for s in said if not s.startswith("Removed")]
        for sentence in said:
            await self.turn.say(sentence)

    # --- understanding -------------------------------------------------------------------------

    def understand(self, message: str) -> list[tuple[str, Outcome]] | None:
        """The clauses of the best cut of a message with their outcomes, or None if nothing
        reads. Rules first, over every cut; then keywords too, finest cut first (a guess over
        a clause that holds two commands reads one of them at best)."""
        best: tuple[int, list[tuple[str, Outcome]]] | None = None
        cuts = list(grammar.clauses(message))
        passes = ((False, False, cuts), (True, False, cuts[1:] + cuts[:1]), (True, True, cuts[1:]))
        for guess, lenient, order in passes:
            for cut in order:
                read = self._read_cut(cut, guess, lenient)
                if read is None:
                    continue
                resolved = sum(not isinstance(o, Fail) for _, o in read)
                if resolved == len(read):
                    return read
                if best is None or resolved > best[0]:
                    best = (resolved, read)
        return best[1] if best else None

    def _read_cut(
        self, cut: list[str], guess: bool, lenient: bool = False
    ) -> list[tuple[str, Outcome]] | None:
        """Every clause of a cut with its outcome, or None (and nothing remembered) if one
        does not read. `lenient`: a clause that reads as nothing is passed over when another
        does something ("I need to see Reykjavik, I have a meeting there on monday")."""
        memory = Memory(self.memory.place, list(self.memory.layers))
        view = copy.deepcopy(self.view)
        read: list[tuple[str, Outcome]] = []
        for clause in cut:
            outcome = self.understand_clause(clause, guess=guess)
            if outcome is None:
                if lenient:
                    continue
                break
            read.append((clause, outcome))
        else:
            if all(not isinstance(o, Fail) for _, o in read) and (not lenient or _acts(read)):
                return read
        self.memory = memory
        self.view, self.layers = view, view["layers"]
        if lenient:
            return read if _acts(read) else None
        return read if len(read) == len(cut) else None

    def understand_clause(self, clause: str, *, guess: bool = True) -> Outcome | None:
        """The first reading of a clause that resolves (a failure if only failures do): by
        the grammar's rules, else (with `guess`) by its keywords (`keywords.guess`), unless a
        rule read it and found nothing ("zoom to Zarblenstan" is not a zoom in)."""
        spelled = Spelled(normalise(clause), self._protected)
        outcome = self._first(grammar.parse(spelled), clause)
        if outcome is None and guess:
            outcome = self._first(self._guesses(spelled), clause)
        return outcome

    def _first(self, readings: Iterable[grammar.Intent], clause: str) -> Outcome | None:
        """The first reading that resolves, else the first failure, else None."""
        failure: Outcome | None = None
        for intent in readings:
            resolve = getattr(self, f"r_{intent.kind}")
            outcome: Outcome | None = resolve(intent.slots)
            if outcome is None:
                continue
            if isinstance(outcome, Ask):
                outcome.intent = {"kind": intent.kind, "slots": intent.slots, "clause": clause}
            if isinstance(outcome, Done):
                scene.follow(self.view, outcome.actions)
            if not isinstance(outcome, Fail):
                return outcome
            failure = failure or outcome
        return failure

    def _guesses(self, spelled: Spelled) -> Iterator[grammar.Intent]:
        """Readings of a clause from its keywords, around the layer it names if any."""
        found = self._mention(spelled.words)
        if found is None:
            yield from keywords.guess(spelled.text, None)
            if self.memory.layers:  # "make the rivers thicker and dark blue"
                yield from keywords.guess(spelled.text, "it", spelled.text)
            return
        start, end = found
        layer = " ".join(spelled.words[start:end])
        after = " ".join(spelled.words[end:]).lower()
        yield from keywords.guess(spelled.text, layer, after)
        yield from keywords.guess(spelled.text, None)

    def _mention(self, words: list[str]) -> tuple[int, int] | None:
        """Where (word span) a clause names a layer: the longest run of words that names one,
        words of the grammar aside ("make the cafe dots bigger": "cafe dots")."""
        if not self.layers:
            return None
        bare = [w.strip(",.;:!?'\"").lower() for w in words]
        for size in (4, 3, 2, 1):
            for start in range(len(words) - size + 1):
                chunk = bare[start : start + size]
                if chunk[0] in self._edge or chunk[-1] in self._edge:
                    continue
                if chunk[0] in PRONOUNS and (size > 1 or not self.memory.layers):
                    continue
                if (
                    size == 1
                    and chunk[0] in ALL_GEOMETRY_WORDS
                    and start
                    and (bare[start - 1] not in DETERMINERS)
                ):
                    continue  # "the road lines" names no layer of lines
                found = self._layers(" ".join(chunk))
                if isinstance(found, list) and found and len(found) < len(self.layers) + 1:
                    return start, start + size
        return None

    def resolve_choice(self, intent: dict[str, Any], choice: dict[str, Any]) -> Outcome:
        """A clause that asked, resolved with the option chosen."""
        if "place" in choice:
            place = self._place_from(choice["place"])
            return self._to_place(intent["kind"], intent["slots"], place)
        resolve = getattr(self, f"r_{intent['kind']}")
        outcome: Outcome = resolve(intent["slots"], chosen=choice.get("layers"))
        return outcome

    # --- places --------------------------------------------------------------------------------

    def _find_place(self, text: str, *, fuzzy: bool = True) -> Found | Place:
        back = ("it", "there", "that", "that place", "this place", "that country")
        if fold(text) in back and self.memory.place:
            return self._place_from(self.memory.place)
        return self.places.find(text, fuzzy=fuzzy)

    def _place_json(self, place: Place) -> dict[str, Any]:
        return {
            "kind": place.kind, "code": place.code, "name": place.name, "country": place.country,
            "country_name": place.country_name, "region": place.region,
            "region_name": place.region_name, "lng": place.lng, "lat": place.lat,
            "box": list(place.box) if place.box else None, "population": place.population,
        }  # fmt: skip

    def _place_from(self, data: dict[str, Any]) -> Place:
        box = tuple(data["box"]) if data.get("box") else None
        return Place(**{**data, "box": box})

    def _place_outcome(
        self, kind: str, slots: dict[str, str], text: str, fuzzy: bool = True
    ) -> Outcome | None:
        """Where a place phrase leads. When it names no place it is a failure (nothing else
        is tried), unless it holds words of other commands or a layer's name ("move east by
        500 km", "zoom to the extent of the rivers"): then the clause may mean something else."""
        text = PLACE_TAIL.sub("", PLACE_HEAD.sub("", text.strip())).strip(" ,")
        found = self._find_place(text, fuzzy=fuzzy)
        if isinstance(found, Found) and not found.candidates and PLACE_KIND.search(text):
            found = self._find_place(PLACE_KIND.sub("", text).strip(), fuzzy=fuzzy)
        if isinstance(found, Place):
            return self._to_place(kind, slots, found)
        if not found.candidates:
            other = self._mention(text.split()) is not None
            spelled = Spelled(text).text
            commands = set(spelled.split()) & COMMAND_WORDS
            if not fuzzy or other or commands or any(keywords.guess(spelled, None)):
                return None
            return Fail(f'I couldn\'t find a place called "{text}".')
        if found.clear:
            return self._to_place(kind, slots, found.candidates[0])
        options = found.candidates[:4]
        return Ask(
            f"Which {options[0].name} do you mean?",
            [place.label for place in options],
            [{"place": self._place_json(place)} for place in options],
            {},
        )

    def _to_place(self, kind: str, slots: dict[str, str], place: Place) -> Outcome:
        been_there = self.memory.place == self._place_json(place)
        self.memory.place = self._place_json(place)
        zoom = slots.get("zoom") or str(SCALES.get(slots.get("scale") or "", "")) or None
        fly = self._fly_to(place, zoom)
        if kind == "mask":
            if place.kind != "country":
                return Fail(f"I can only highlight whole countries, and {place.label} is a "
                            f"{place.kind}.")  # fmt: skip
            mask: dict[str, Any] = {"type": "set_country_mask", "country_code": place.code}
            colour = colours.parse(slots["color"]) if slots.get("color") else None
            if colour:
                mask["color"] = colour
            return Done([mask] if been_there else [mask, fly], f"Highlighted {place.label}.")
        return Done([fly], f"Flew to {place.label}.")

    def _fly_to(self, place: Place, zoom_text: str | None = None) -> dict[str, Any]:
        if place.box is not None:  # centred on its label point (the populated part)
            center = [place.lng, place.lat]
            if place.box[2] - place.box[0] > WIDE:  # Russia: the middle of all of it
                center = [(place.box[0] + place.box[2]) / 2, (place.box[1] + place.box[3]) / 2]
            zoom = camera.fit_around(center, place.box, camera.Padding.even(20))
        else:
            center = [place.lng, place.lat]
            people = place.population
            zoom = (
                10.0
                if people >= 5e6
                else 11.0
                if people >= 1e6
                else 12.0
                if people >= 2e5
                else 13.0
            )
        if zoom_text and number(zoom_text) is not None:
            zoom = camera.clamp_zoom(float(number(zoom_text) or 0))
        center[1] = max(-85.0, min(85.0, center[1]))
        return {"type": "fly_to", "center": center, "zoom": zoom}

    # --- layers --------------------------------------------------------------------------------

    def _layers(self, text: str) -> list[dict[str, Any]] | Ask | None:
        """The layers a phrase names ("the cafes", "it", "cafes and parks"), a question when two
        fit as well, or None when it names none."""
        phrase = re.sub(r"^(?:the|my|our|all(?: the)?) ", "", fold(text))
        phrase = re.sub(r" (?:layers?|data(?:set)?)$", "", phrase).strip()
        if not self.layers or not phrase:
            return None
        by_id = {layer["layer_id"]: layer for layer in self.layers}
        if phrase in PRONOUNS or text.strip().lower() in PRONOUNS:
            named = [by_id[i] for i in self.memory.layers if i in by_id]
            if not named and phrase in ("data", "layers"):  # "just my data": all of it
                return list(self.layers)
            return named or self.layers[:1]
        if phrase in ("all", "everything", "every layer", "all of them", "layers"):
            return list(self.layers)
        names = {layer["layer_id"]: fold(layer["name"]) for layer in self.layers}
        exact = [by_id[i] for i, name in names.items() if name in (phrase, _singular(phrase))
                 or _singular(name) == _singular(phrase)]  # fmt: skip
        if exact:
            return exact
        for geometry, words in GEOMETRY_WORDS.items():
            if phrase in words:
                found = [layer for layer in self.layers if layer["geometry_type"] == geometry]
                if len(found) == 1:
                    return found
        parts = [p for p in re.split(r",? and |, ", phrase) if p]
        if len(parts) > 1:
            every = [self._layers(part) for part in parts]
            if all(isinstance(found, list) for found in every):
                return [layer for found in every if isinstance(found, list) for layer in found]
            return None
        scored = sorted(
            ((_likeness(phrase, name), key) for key, name in names.items()), reverse=True
        )
        matches = [(score, key) for score, key in scored if score >= 80][:3]
        if not matches:
            return None
        if len(matches) > 1 and matches[1][0] >= matches[0][0] - 4:
            close = [by_id[key] for score, key in matches if score >= matches[0][0] - 4]
            return Ask(
                f'Which layer do you mean by "{text}"?',
                [layer["name"] for layer in close],
                [{"layers": [layer["layer_id"]]} for layer in close],
                {},
            )
        return [by_id[matches[0][1]]]

    def _with_layers(
        self,
        text: str | None,
        chosen: list[str] | None,
        make: Callable[[list[dict[str, Any]]], Outcome],
        *,
        single: bool = False,
    ) -> Outcome | None:
        """Resolve the layers a clause names, then let `make` build its outcome."""
        if chosen is not None:
            found: list[dict[str, Any]] | Ask | None = [
                layer for layer in self.layers if layer["layer_id"] in chosen
            ]
        elif not self.layers:
            return Fail("There are no layers on this map yet.") if text else None
        else:
            found = self._layers(text or "it")
        if found is None:
            return None
        if isinstance(found, Ask):
            return found
        if single and len(found) > 1:
            return Ask(
                "Which layer do you mean?",
                [layer["name"] for layer in found],
                [{"layers": [layer["layer_id"]]} for layer in found],
                {},
            )
        self.memory.layers = [layer["layer_id"] for layer in found]
        return make(found)

    # --- readings ------------------------------------------------------------------------------

    def r_help(self, slots: dict[str, str]) -> Outcome:
        return Done([], HELP)

    def r_greet(self, slots: dict[str, str]) -> Outcome:
        return Done([], "Hello! " + HELP)

    def r_thanks(self, slots: dict[str, str]) -> Outcome:
        return Done([], "You're welcome.")

    def r_list(self, slots: dict[str, str]) -> Outcome:
        if not self.layers:
            return Done([], "There are no layers on this map yet.")
        hidden = [layer for layer in self.layers if not layer["visible"]]
        if hidden and re.match(r"(?:show|display)(?: me)? all", slots.get("clause", "")):
            return self._visibility({"layer": "all"}, None, True) or Done([], "")
        described = [
            f"{layer['name']} ({_kind_of(layer)}{'' if layer['visible'] else ', hidden'})"
            for layer in self.layers
        ]
        count = len(described)
        return Done([], f"This map has {count} layer{'s' if count != 1 else ''}, top first: "
                        f"{', '.join(described)}.")  # fmt: skip

    def r_home(self, slots: dict[str, str]) -> Outcome:
        return Done([{"type": "go_home"}], "Reset the view to the whole world.")

    def r_zoom_level(self, slots: dict[str, str]) -> Outcome | None:
        level = number(slots.get("level", ""))
        if level is None or not 0 <= level <= 24:
            return None
        center = self.view["mapState"]["center"]
        return Done([{"type": "jump_to", "center": center, "zoom": level}],
                    f"Zoomed to level {level:g}.")  # fmt: skip

    def r_zoom(self, slots: dict[str, str]) -> Outcome | None:
        direction = (slots.get("dir") or "").strip()
        inward = direction in ("in", "closer", "zoom in") or direction == ""
        if direction in ("out", "further", "farther", "back", "away", "further away",
                         "farther away", "zoom out", "off"):  # fmt: skip
            inward = False
        if direction.startswith("too "):  # "too close": out; "too far away": in
            inward = bool(re.search(r"far|zoomed out", direction))
        if slots.get("sign"):  # "zoom +2", "zoom -1"
            inward = slots["sign"] == "+"
        most = re.search(r"all the way|\bmax(?:imum)?\b|\bfull zoom", slots.get("clause", ""))
        levels = 24.0 if most else _levels(slots.get("amount", ""))
        if levels is None:
            return None
        kind = "zoom_in" if inward else "zoom_out"
        action: dict[str, Any] = {"type": kind}
        if levels != 1:
            action["levels"] = levels
        said = f"Zoomed {'in' if inward else 'out'}"
        if levels >= 24:
            said += " all the way"
        elif levels < 1:
            said += " a little"
        elif levels != 1:
            said += f" {levels:g} levels"
        return Done([action], said + ".")

    def r_pan(self, slots: dict[str, str]) -> Outcome | None:
        direction = slots.get("dir", "").strip().lower()
        if direction in ("northeast", "northwest", "southeast", "southwest"):
            first, second = direction[:5], direction[5:]
            return Done([{"type": "pan", "direction": first}, {"type": "pan", "direction": second}],
                        f"Panned {direction}.")  # fmt: skip
        amount = 256.0
        said = (slots.get("amount") or slots.get("amount_before") or "").strip().lower()
        distance = keywords.DISTANCE.search(said)
        if distance:  # "by 500 km": in pixels at the view's zoom and latitude
            amount = self._pixels(float(distance.group("number")), distance.group("unit"))
        elif re.search(r"bit|little|slightly|tad", said):
            amount = 128.0
        elif re.search(r"lot|far|way|much", said):
            amount = 512.0
        elif said and _levels(said) is None:
            return None
        names = {"up": "north", "down": "south", "left": "west", "right": "east"}
        return Done([{"type": "pan", "direction": direction, "amount": amount}],
                    f"Panned {names.get(direction, direction)}.")  # fmt: skip

    def _pixels(self, distance: float, unit: str) -> float:
        """How many pixels of the view a distance on the ground is."""
        state = self.view["mapState"]
        metres = distance * (1609.34 if unit.startswith("mi") else 1000.0)
        if unit.startswith("deg") or unit == "°":
            metres = distance * 111_320.0
        per_pixel = camera.metres_per_pixel(state["center"][1], state["zoom"])
        return round(max(1.0, min(100_000.0, metres / per_pixel)), 1)

    def r_goto(self, slots: dict[str, str]) -> Outcome | None:
        text = slots.get("place", "").strip()
        if not text:
            return None
        layers = self._layers(text) if fold(text) not in PRONOUNS else None
        if isinstance(layers, list) and layers and _named_exactly(text, layers):
            return self.r_zoom_layer({"layer": text})
        return self._place_outcome("goto", slots, text)

    def r_place(self, slots: dict[str, str]) -> Outcome | None:
        """A message that is only a place name ("Mexico", "Amsterdm"): typos are read in one
        or two words that are not words of commands; never a layer's name."""
        text = slots.get("place", "").strip()
        words = set(re.findall(r"[a-z]+", text.lower()))
        if len(text.split()) > 5 or self._mention(text.split()) is not None:
            return None
        fuzzy = len(text.split()) <= 2 and not words & (COMMAND_WORDS | COMMON)
        return self._place_outcome("goto", slots, text, fuzzy=fuzzy)

    def r_mask(self, slots: dict[str, str]) -> Outcome | None:
        return self._place_outcome("mask", slots, slots.get("place", "").strip())

    def r_unmask(self, slots: dict[str, str]) -> Outcome:
        state = self.view["mapState"]
        actions: list[dict[str, Any]] = [{"type": "set_country_mask", "country_code": None}]
        if state.get("customMask"):
            actions.append({"type": "set_custom_mask"})
        return Done(actions, "Cleared the highlight.")

    def r_basemap(self, slots: dict[str, str]) -> Outcome | None:
        style = "blank" if slots.get("off") else STYLES.get(fold(slots.get("style", "")), "")
        if not style:
            return None
        return Done([{"type": "set_basemap_style", "style": style}],
                    f"Switched the basemap to {style}.")  # fmt: skip

    def _categories(self, text: str) -> list[str] | None:
        found = []
        for part in re.split(r",? and |, ", fold(text)):
            part = re.sub(r"^the ", "", part).strip()
            key = CATEGORIES.get(part) or CATEGORIES.get(_singular(part))
            if key is None:
                return None
            found.append(key)
        return list(dict.fromkeys(found))

    def r_basemap_category(self, slots: dict[str, str]) -> Outcome | None:
        cats = self._categories(slots.get("cats", ""))
        if not cats:
            return None
        explicit = re.search(r"basemap|base map|background", self.turn.message, re.IGNORECASE)
        if not explicit and isinstance(self._layers(slots.get("cats", "")), list):
            return None  # a layer of that name: "hide the roads" hides the layer
        visible = slots.get("verb", "").strip() in (
            "show",
            "turn on",
            "switch on",
            "enable",
            "display",
        )
        actions = [{"type": "set_basemap_category", "category_key": cat, "visible": visible}
                   for cat in cats]  # fmt: skip
        verb = "Showed" if visible else "Hid"
        return Done(actions, f"{verb} the {_join(cats)} on the basemap.")

    def r_category_colour(self, slots: dict[str, str]) -> Outcome | None:
        cats = self._categories(slots.get("cats", ""))
        colour = colours.parse(slots.get("color", ""))
        if not cats or not colour:
            return None
        explicit = re.search(r"basemap|base map|background", self.turn.message, re.IGNORECASE)
        if not explicit and isinstance(self._layers(slots.get("cats", "")), list):
            return None
        actions = [{"type": "set_basemap_category", "category_key": cat, "color": colour}
                   for cat in cats]  # fmt: skip
        said = _colour_words(slots["color"])
        return Done(actions, f"Coloured the {_join(cats)} on the basemap {said}.")

    def _visibility(
        self, slots: dict[str, str], chosen: list[str] | None, visible: bool
    ) -> Outcome | None:
        def make(found: list[dict[str, Any]]) -> Outcome:
            actions = [{"type": "set_layer_visibility", "layer_id": layer["layer_id"],
                        "visible": visible} for layer in found]  # fmt: skip
            return Done(actions, f"{'Showed' if visible else 'Hid'} {_names(found)}.")

        return self._with_layers(slots.get("layer"), chosen, make)

    def r_show(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        return self._visibility(slots, chosen, True)

    def r_hide(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        return self._visibility(slots, chosen, False)

    def r_toggle(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        def make(found: list[dict[str, Any]]) -> Outcome:
            actions = [{"type": "set_layer_visibility", "layer_id": layer["layer_id"],
                        "visible": not layer["visible"]} for layer in found]  # fmt: skip
            return Done(actions, f"Toggled {_names(found)}.")

        return self._with_layers(slots.get("layer"), chosen, make)

    def r_only(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        def make(found: list[dict[str, Any]]) -> Outcome:
            keep = {layer["layer_id"] for layer in found}
            actions = [
                {"type": "set_layer_visibility", "layer_id": layer["layer_id"],
                 "visible": layer["layer_id"] in keep}
                for layer in self.layers
                if layer["visible"] != (layer["layer_id"] in keep)
            ]  # fmt: skip
            hidden = len([a for a in actions if not a["visible"]])
            extra = f" (hid {hidden} other{'s' if hidden != 1 else ''})" if hidden else ""
            return Done(actions, f"Showing only {_names(found)}{extra}.")

        return self._with_layers(slots.get("layer"), chosen, make)

    def r_rename(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        name = slots.get("name", "").strip().strip("\"'")
        if not name or re.search(r" (?:and|then) (?:" + "|".join(COMMAND_VERBS) + r")\b", name):
            return None  # "rename rivers to Streams and hide them": two clauses

        def make(found: list[dict[str, Any]]) -> Outcome:
            layer, new = found[0], name[:200]
            return Done([{"type": "rename_layer", "layer_id": layer["layer_id"], "name": new}],
                        f"Renamed {layer['name']} to {new}.")  # fmt: skip

        return self._with_layers(slots.get("layer"), chosen, make, single=True)

    def r_remove(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        def make(found: list[dict[str, Any]]) -> Outcome:
            actions = [{"type": "remove_layer", "layer_id": layer["layer_id"]} for layer in found]
            return Done(actions, f"Removed {_names(found)}.")

        return self._with_layers(slots.get("layer"), chosen, make)

    def r_remove_all(self, slots: dict[str, str]) -> Outcome:
        if not self.layers:
            return Done([], "There are no layers to remove.")
        return self.r_remove(
            {"layer": "all"}, [layer["layer_id"] for layer in self.layers]
        ) or Done([], "")

    def r_clear_ai(self, slots: dict[str, str]) -> Outcome:
        made = [layer for layer in self.layers if layer["source"] == "ai"]
        if not made:
            return Done([], "There are no layers made by the assistant to clear.")
        return Done([{"type": "clear_layers"}], f"Removed {_names(made)}.")

    def r_move_layer(
        self, slots: dict[str, str], chosen: list[str] | None = None
    ) -> Outcome | None:
        where = slots.get("where", "").lower()
        other: list[dict[str, Any]] | None = None
        if slots.get("rel"):  # "move the counties above the rivers"
            found_other = self._layers(slots.get("other", ""))
            if not isinstance(found_other, list) or len(found_other) != 1:
                return None
            other = found_other

        def make(found: list[dict[str, Any]]) -> Outcome:
            layer = found[0]
            order = [item["layer_id"] for item in self.layers]
            if other is not None:
                if other[0]["layer_id"] == layer["layer_id"]:
                    return Fail(f"{layer['name']} can't move relative to itself.")
                above = not re.search(r"below|under|beneath|behind", slots["rel"])
                order.remove(layer["layer_id"])
                at = order.index(other[0]["layer_id"]) + (0 if above else 1)
                order.insert(at, layer["layer_id"])
                side = "above" if above else "below"
                return Done([{"type": "reorder_layers", "layer_ids": order}],
                            f"Moved {layer['name']} {side} {other[0]['name']}.")  # fmt: skip
            if re.search(r"top|front|above|in front", where):
                order = [layer["layer_id"], *[i for i in order if i != layer["layer_id"]]]
                return Done([{"type": "reorder_layers", "layer_ids": order}],
                            f"Moved {layer['name']} to the top.")  # fmt: skip
            if re.search(r"bottom|back|below|behind", where):
                order = [*[i for i in order if i != layer["layer_id"]], layer["layer_id"]]
                return Done([{"type": "reorder_layers", "layer_ids": order}],
                            f"Moved {layer['name']} to the bottom.")  # fmt: skip
            up = bool(re.search(r"up|higher|forward", where))
            kind = "move_layer_up" if up else "move_layer_down"
            return Done([{"type": kind, "layer_id": layer["layer_id"]}],
                        f"Moved {layer['name']} {'up' if up else 'down'}.")  # fmt: skip

        return self._with_layers(slots.get("layer"), chosen, make, single=True)

    def r_zoom_layer(
        self, slots: dict[str, str], chosen: list[str] | None = None
    ) -> Outcome | None:
        def make(found: list[dict[str, Any]]) -> Outcome:
            boxes = [layer["bbox"] for layer in found if layer.get("bbox")]
            if not boxes:
                return Fail(f"{_names(found)} has no extent to zoom to.")
            if len(found) == 1:
                return Done([{"type": "zoom_to_layer", "layer_id": found[0]["layer_id"]}],
                            f"Zoomed to {found[0]['name']}.")  # fmt: skip
            box = [min(b[0] for b in boxes), min(b[1] for b in boxes),
                   max(b[2] for b in boxes), max(b[3] for b in boxes)]  # fmt: skip
            return Done([{"type": "fit_bounds", "bbox": box, "padding": 40}],
                        f"Zoomed to {_names(found)}.")  # fmt: skip

        return self._with_layers(slots.get("layer"), chosen, make)

    # --- styles --------------------------------------------------------------------------------

    def _restyle(
        self,
        layer: dict[str, Any],
        paint: dict[str, Any],
        renderer: dict[str, Any] | None = None,
        *,
        recolour: bool = False,
    ) -> dict[str, Any]:
        """An update_layer_style action: the layer's style with a new paint (or renderer). A
        new colour makes a classified layer one colour again; a new size or opacity keeps its
        classes (it goes to the renderer's shared paint, or a heatmap's opacity)."""
        style = {key: value for key, value in layer["style"].items() if key != "_meta"}
        current = dict(style.get("renderer") or {})
        if renderer is None:
            kind = current.get("type") or "single"
            if kind == "heatmap" and not recolour:
                opacity = [v for k, v in paint.items() if k.endswith("opacity")]
                renderer = {**current, **({"opacity": opacity[0]} if opacity else {})}
            elif kind != "single" and not recolour:
                renderer = {**current, "paint": {**(current.get("paint") or {}), **paint}}
            else:
                base = dict(current.get("paint") or {}) if kind == "single" else {}
                renderer = {"type": "single", "paint": {**base, **paint}}
                if kind != "single" and current.get("outline"):
                    renderer["outline"] = current["outline"]
        style["renderer"] = renderer
        return {"type": "update_layer_style", "layer_id": layer["layer_id"], "style": style}

    def r_colour(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        colour = colours.parse(slots.get("color", ""))
        if colour is None:
            return None

        def make(found: list[dict[str, Any]]) -> Outcome:
            actions = []
            for layer in found:
                if layer["layer_type"] != "geojson":
                    return Fail(f"{layer['name']} is an image layer; its colours are its own.")
                keys = COLOUR_KEYS.get(layer["geometry_type"], sum(COLOUR_KEYS.values(), ()))
                actions.append(self._restyle(layer, {key: colour for key in keys}, recolour=True))
            return Done(actions, f"Coloured {_names(found)} {_colour_words(slots['color'])}.")

        return self._with_layers(slots.get("layer"), chosen, make)

    def r_size(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        how = (slots.get("how") or "").lower()
        verb, what = (slots.get("verb") or "").lower(), (slots.get("what") or "").lower()
        if verb:
            grow = verb in ("increase", "enlarge", "grow", "boost", "raise")
            how = {"opacity": "more opaque" if grow else "more transparent",
                   "transparency": "more transparent" if grow else "more opaque",
                   "visibility": "more opaque" if grow else "more transparent",
                   }.get(what, "bigger" if grow else "smaller")  # fmt: skip
        value = number(slots.get("value") or "")
        if value is not None:
            if not 0 < value <= 200:
                return None
            how = f"{value:g}"
        if not how:
            return None

        def make(found: list[dict[str, Any]]) -> Outcome:
            actions = [self._sized(layer, how) for layer in found]
            if any(a is None for a in actions):
                return Fail(f"I can't make {_names(found)} {how}.")
            return Done([a for a in actions if a], f"Made {_names(found)} {how}.")

        return self._with_layers(slots.get("layer") or None, chosen, make)

    def _sized(self, layer: dict[str, Any], how: str) -> dict[str, Any] | None:
        geometry = layer["geometry_type"] or "Point"
        paint = ((layer["style"].get("renderer") or {}).get("paint")) or {}
        if re.search(r"transparent|opaque|faint|visible|see", how):
            keys = OPACITY_KEYS.get(geometry, ("circle-opacity", "line-opacity", "fill-opacity"))
            current = float(next((paint[k] for k in keys if k in paint), DEFAULT_OPACITY))
            if how in ("semi-transparent", "semi transparent", "see-through", "see through"):
                value = 0.5
            elif how == "transparent":
                value = 0.3
            elif how == "opaque":
                value = 1.0
            else:
                more_see_through = (
                    "more transparent" in how or "less opaque" in how or "faint" in how
                )
                value = current - 0.25 if more_see_through else current + 0.25
            value = round(max(0.05, min(1.0, value)), 2)
            return self._restyle(layer, {key: value for key in keys})
        key = SIZE_KEYS.get(geometry)
        if key is None:
            return None
        current = float(paint.get(key, DEFAULT_SIZE[key]))
        if number(how) is not None:  # a size in pixels ("set the radius to 10")
            return self._restyle(layer, {key: number(how)})
        if how.startswith("times "):  # "twice as big", "half the size"
            return self._restyle(layer, {key: round(max(0.5, current * float(how[6:])), 2)})
        grow = bool(re.search(r"bigger|larger|thicker|wider|fatter", how))
        factor = 1.5 if grow else 1 / 1.5
        if "much" in how:
            factor = factor**2
        if "bit" in how or "little" in how:
            factor = factor**0.5
        return self._restyle(layer, {key: round(max(0.5, current * factor), 2)})

    def r_opacity(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        value = number(slots.get("value", ""))
        if value is None:
            return None
        if slots.get("pct") or value > 1:
            value /= 100
        if "transparen" in (slots.get("unit") or ""):
            value = 1 - value
        if not 0 <= value <= 1:
            return None

        def make(found: list[dict[str, Any]]) -> Outcome:
            actions = []
            for layer in found:
                keys = OPACITY_KEYS.get(layer["geometry_type"] or "", ("circle-opacity",
                                        "line-opacity", "fill-opacity"))  # fmt: skip
                actions.append(self._restyle(layer, {key: round(value, 3) for key in keys}))
            return Done(actions, f"Set the opacity of {_names(found)} to {round(value * 100)}%.")

        return self._with_layers(slots.get("layer") or None, chosen, make)

    def r_heatmap(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        def make(found: list[dict[str, Any]]) -> Outcome:
            layer = found[0]
            if layer["geometry_type"] != "Point":
                return Fail(f"A heatmap needs points, and {layer['name']} has none.")
            renderer = {"type": "heatmap", "radius": 20, "opacity": 0.8}
            return Done([self._restyle(layer, {}, renderer)],
                        f"Showing {layer['name']} as a heatmap.")  # fmt: skip

        return self._with_layers(slots.get("layer"), chosen, make, single=True)

    def r_classify(self, slots: dict[str, str], chosen: list[str] | None = None) -> Outcome | None:
        field_text = slots.get("field", "").strip()
        if not field_text:
            return None

        def make(found: list[dict[str, Any]]) -> Outcome:
            layer = found[0]
            fields = layer.get("fields") or []
            if not fields:
                return Fail(f"{layer['name']} has no fields to colour by.")
            names = [f["name"] for f in fields]
            index = _field_named(field_text, names)
            if index is None:
                return Fail(f"{layer['name']} has no field like \"{field_text}\"; its fields are "
                            f"{', '.join(names)}.")  # fmt: skip
            info = fields[index]
            renderer = self._classes(info, slots.get("opts", ""))
            kind = "graduated" if renderer["type"] == "graduated" else "categorized"
            what = (f"{renderer.get('classes', 5)} {renderer.get('method', 'quantile')} classes"
                    if kind == "graduated" else "category")  # fmt: skip
            return Done([self._restyle(layer, {}, renderer)],
                        f"Coloured {layer['name']} by {info['name']} ({what}).")  # fmt: skip

        return self._with_layers(slots.get("layer"), chosen, make, single=True)

    def _classes(self, info: dict[str, Any], options: str) -> dict[str, Any]:
        words = options.lower()
        renderer: dict[str, Any] = {"field": info["name"]}
        if info["type"] == "number":
            renderer |= {"type": "graduated", "method": "quantile"}
            if re.search(r"equal|interval|even", words):
                renderer["method"] = "equal"
            count = re.search(r"(\S+) (?:classes|colou?rs|groups|bins|buckets|categories|steps)",
                              words)  # fmt: skip
            classes = number(count.group(1)) if count else None
            if classes is not None and 2 <= classes <= 12:
                renderer["classes"] = int(classes)
        else:
            renderer["type"] = "categorized"
        for word, ramp in sorted(RAMP_WORDS.items(), key=lambda item: -len(item[0])):
            if re.search(rf"\b{re.escape(word)}\b", words):
                renderer["ramp"] = ramp
                break
        return renderer


ONE_LEVEL = frozenset(
    ["more", "again", "once", "one more", "in", "out", "further", "farther", "some more",
     "even more", "further out", "further in"]
)  # fmt: skip


def _levels(text: str) -> float | None:
    """Zoom levels an amount phrase means ("a bit": 0.5, "twice": 2, "all the way": 24)."""
    said = text.strip().lower()
    if not said or said in ONE_LEVEL:
        return 1.0
    if "all the way" in said:
        return 24.0
    if re.search(r"bit|little|slightly|tad", said):
        return 0.5
    if re.search(r"lot|much|way|far", said):
        return 3.0
    found = re.search(
        r"(?:by )?(\S+)(?: more)?(?: levels?| times?| steps?| notches?| clicks?)?$", said
    )
    value = number(found.group(1)) if found else None
    if value is None or not 0 < value <= 24:
        return None
    return value


def _colour_words(typed: str) -> str:
    """A colour as the user said it ("dark blue", "#ff8800")."""
    return re.sub(r"^(?:in|to|with) ", "", typed.strip().lower())


def _likeness(phrase: str, name: str) -> float:
    """How well a phrase names a layer, 0..100: spelling (typos), word order, or every word of
    the phrase in the name ("cafes" for "Cafes north")."""
    words, named = _singular(phrase).split(), [_singular(w) for w in name.split()]
    inside = 90.0 if words and all(w in named for w in words) else 0.0
    return max(
        fuzz.ratio(phrase, name),
        fuzz.ratio(_singular(phrase), _singular(name)),
        fuzz.token_sort_ratio(phrase, name),
        inside,
    )


def _acts(read: list[tuple[str, Outcome]]) -> bool:
    """Whether some clause changes the map or asks."""
    return any(isinstance(o, Ask) or (isinstance(o, Done) and o.actions) for _, o in read)


def _field_named(text: str, names: list[str]) -> int | None:
    """Which of a layer's fields a phrase names: by name (any case, typos), by a word of a
    short phrase ("county name": county), or by a synonym ("type": kind)."""
    folded = [fold(name) for name in names]
    said = fold(text)
    if said in folded:
        return folded.index(said)
    match = process.extractOne(said, folded, scorer=fuzz.ratio, score_cutoff=80)
    if match is not None:
        return int(match[2])
    words = [_singular(word) for word in said.split()]
    if len(words) <= 3:
        for index, name in enumerate(folded):
            if _singular(name) in words:
                return index
    for synonym in FIELD_SYNONYMS.get(said, ()):
        if synonym in folded:
            return folded.index(synonym)
    return None


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _named_exactly(text: str, layers: list[dict[str, Any]]) -> bool:
    phrase = re.sub(r"^(?:the|my|our) ", "", fold(text))
    phrase = re.sub(r" (?:layers?|data(?:set)?)$", "", phrase)
    return any(_singular(fold(layer["name"])) == _singular(phrase) for layer in layers)


def _kind_of(layer: dict[str, Any]) -> str:
    kinds = {"Point": "points", "LineString": "lines", "Polygon": "polygons", "mixed": "mixed"}
    if layer["layer_type"] != "geojson":
        return "image tiles" if layer["layer_type"] == "tile" else "raster"
    return kinds.get(layer["geometry_type"] or "", "features")


def _names(found: list[dict[str, Any]]) -> str:
    return _join([layer["name"] for layer in found])


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
