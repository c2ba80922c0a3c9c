"""The built-in agent: plain map requests in five languages, offline, in a few milliseconds.

A turn goes:

1. **Language**: the message's language is told from its words (`lang.detect`) and the
   message is read in English (`lang.english`); the reply is said in that language.
2. **Refuse** what is not map work ("what is the weather", "delete my account"), and messages
   that carry instructions of their own: a reply that says why, no change.
3. **Understand** (`mind.Mind`): clauses, readings, and what each resolves to against the
   project, the gazetteer, the data (fetched when a reading needs it: `Need`) and what the
   conversation named before (`memory.Memory`, kept with each reply).
4. **Act**: the clauses' actions go to `turn.apply` as one batch (all or nothing; undo and
   redo as their own), the reply says what was done, and a question, if any, ends the turn;
   its answer resumes it with the clauses that were still to come. A batch that would remove
   several layers is asked back first.
"""

from __future__ import annotations

import asyncio
import copy
import re
from collections.abc import Callable
from typing import Any

import anyio.to_thread
from rapidfuzz import fuzz

from maproom.domain.chat import lang
from maproom.domain.chat.builtin import grammar, resolvers, targets
from maproom.domain.chat.builtin.gazetteer import DEMONYMS, Gazetteer, fold
from maproom.domain.chat.builtin.memory import Memory
from maproom.domain.chat.builtin.mind import TALK, Mind, Read, acts
from maproom.domain.chat.builtin.outcome import Ask, DataKey, Done, Fail, Need, Phrase
from maproom.domain.chat.builtin.text import clarified, normalise, without_emoji
from maproom.domain.chat.turn import Turn, bad_actions
from maproom.errors import BadRequest, MaproomError

__all__ = ["BuiltinAgent", "resolvers"]
FILLER = frozenset({
    "the", "one", "in", "of", "a", "an", "i", "mean", "meant", "please", "that", "this", "near",
    "by", "at", "layer", "layers", "ones", "option", "to", "with", "for",
    # small words of names left as typed ("La de Argentina")
    "de", "da", "do", "del", "la", "el", "le", "les", "der", "die", "das", "des",
})  # fmt: skip
ORDINALS = ["first", "second", "third", "fourth", "fifth"]
# What a place is, as an answer says it ("the country", "the state").
PLACE_KINDS = {"country": "country", "nation": "country", "state": "region", "region": "region",
               "province": "region", "city": "city", "town": "city"}  # fmt: skip
ATTEMPTS = 8  # readings of one message, each with more data fetched
# What an open question's answer is the object of ("which country?" "Spain": highlight Spain)
OPEN_ANSWERS = {"mask": "highlight", "which_ones": "only show"}


class BuiltinAgent:
    """The offline agent (see the module docstring)."""

    def __init__(self, gazetteer: Callable[[], Gazetteer] = Gazetteer.load) -> None:
        self._gazetteer = gazetteer
        self._ready = False

    def prepare(self) -> None:
        """Read the gazetteer (about a second; blocking)."""
        self._gazetteer()

    def protected(self, message: str, view: dict[str, Any]) -> frozenset[str]:
        """Words that do not tell a message's language: the layers' names (and their
        singulars), names of places of several words, and abbreviations ("LA")."""
        named = {w for layer in view["layers"] for w in lang.fold(layer["name"]).split()}
        named |= {w[:-1] for w in named if w.endswith("s")}
        # a place whose words name a layer in another language stays words ("los ríos"),
        # unless it is famous ("rio de janeiro")
        named |= self._gazetteer().names_in(message, avoid=frozenset(named), gloss=lang.gloss)
        named |= {lang.fold(w) for w in re.findall(r"\b[A-Z]{2,}\b", message)}
        return frozenset(named)

    async def run(self, turn: Turn) -> None:
        """Take a turn (see the module docstring)."""
        if not self._ready:  # the gazetteer is read on the first turn, off the event loop
            await anyio.to_thread.run_sync(self.prepare)
            self._ready = True
        view = await turn.view()
        protected = self.protected(turn.message, view)
        state = turn.resume or {}
        places = self._gazetteer().languages_of(turn.message)
        code = state.get("lang") or lang.detect(turn.message, protected, places)
        talk = Talk(turn, view, self._gazetteer(), code, protected)
        talk.memory = Memory.of(state["memory"]) if "memory" in state else Memory.last(turn.history)
        if "ask" not in state:  # what a question was about holds only for its answer
            talk.memory.field = ""
        if "confirm" in state:
            await talk.confirm(state)
        elif "ask" in state:
            await talk.resume(state)
        else:
            await talk.answer(turn.message)
        # the last intent stands for "X instead" only while nothing undid or followed it
        talk.memory.acted = bool(turn.applied) and not any(
            action.get("type") in ("undo", "redo") for action in turn.applied
        )
        turn.memory = talk.memory.json()


class Talk:
    """One turn of the built-in agent: reading, fetching data, acting, replying."""

    def __init__(
        self, turn: Turn, view: dict[str, Any], places: Gazetteer, code: str,
        protected: frozenset[str],
    ) -> None:  # fmt: skip
        self.turn, self.view, self.places, self.code = turn, view, places, code
        self.protected = protected
        self.memory = Memory()
        self.data: dict[DataKey, Any] = {}
        self.mind: Mind | None = None

    # --- reading -------------------------------------------------------------------------------

    async def answer(self, message: str) -> None:
        """Understand a message and act on it; an aside in parentheses ("(value)",
        "(monument, museum, park)") is left out unless the message is in quotes, once a layer
        it says was meant is put in place ("the countries (the district ones I mean)")."""
        message = without_emoji(message)
        if '"' not in message:
            message = clarified(message)
            message = re.sub(r"\s*\([^()]*\)", "", message).strip() or message
        message = grammar.without_quoted_orders(
            message, lambda quoted: normalise(lang.english(quoted, self.code, self.protected))
        )
        english = lang.english(message, self.code, self.protected)
        reason = grammar.refusal(english.casefold()) or grammar.refusal(lang.fold(message))
        if reason not in (None, "offtopic"):
            await self.say([Phrase(f"refused_{reason}")])
            return
        text = normalise(english)
        read = await self.read(lambda mind: mind.understand(text), english)
        # an off-topic word in a sentence of its own beside map work ("need the map on Kyiv,
        # the story goes live soon") is chatter; in the request itself, it is refused
        if reason is not None and not (
            read
            and acts(read)
            and resolved(read)
            and all(grammar.refusal(clause.casefold()) is None for clause, _ in read)
        ):
            await self.say([Phrase(f"refused_{reason}")])
            return
        if read is None:
            await self.say([Phrase("unknown"), Phrase("help")])
            return
        await self.act(read)

    async def read(self, how: Callable[[Mind], Read | None], english: str) -> Read | None:
        """Read with a fresh copy of the project, fetching the data readings ask for."""
        for _ in range(ATTEMPTS):
            mind = Mind(copy.deepcopy(self.view), self.places, memory=self.memory.copy(),
                        data=self.data, message=english, language=self.code)  # fmt: skip
            try:
                found = how(mind)
            except Need as need:  # the readings at once (each on a worker thread)
                keys = list(dict.fromkeys(need.keys))
                answers = await asyncio.gather(*(self.fetch(key) for key in keys))
                self.data.update(zip(keys, answers, strict=True))
                continue
            self.mind = mind
            return found
        return None

    async def fetch(self, key: DataKey) -> Any:
        """One answer from the layer's data (an error becomes an answer too)."""
        try:
            if key[0] == "stats":
                _, layer_id, field, where = key
                return await self.turn.stats(layer_id, field, where)
            _, layer_id, where, sort, order, limit = key
            return await self.turn.features(layer_id, where=where, sort=sort, order=order,
                                            limit=limit)  # fmt: skip
        except MaproomError as error:
            return {"error": error.message}

    async def resume(self, state: dict[str, Any]) -> None:
        """Go on from the user's answer to our question."""
        ask = state["ask"]
        choice = self.choice(ask["options"], ask["choices"])
        if choice is None:  # not an answer to the question: a new message
            message = self.turn.message
            said = OPEN_ANSWERS.get(ask["intent"].get("kind")) if not ask["options"] else None
            if said:  # "which country should I highlight?" "Spain": highlight Spain
                message = f"{said} {message}"
            places = self.places.languages_of(message)
            self.code = lang.detect(message, self.protected, places)
            await self.answer(message)
            return

        def go_on(mind: Mind) -> Read:
            chosen = mind.resolve_choice(ask["intent"], choice)
            if chosen is None:
                return []
            if isinstance(chosen, Done):
                mind.follow(chosen)
                if ask["intent"].get("kind"):
                    mind.done.append(
                        {"kind": ask["intent"]["kind"], "slots": ask["intent"]["slots"]}
                    )
            read: Read = [("", chosen)]
            for clause in state.get("rest", []):
                outcome = mind.understand_clause(clause)
                if outcome is not None:
                    read.append((clause, outcome))
            return read

        read = await self.read(go_on, state.get("message", ""))
        await self.act(read or [])

    def choice(self, options: list[str], choices: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Which option an answer chose: the option itself, an ordinal ("the second one"), or
        words of one option and no other ("the one in Illinois", "the Spanish one")."""
        if self.turn.option is not None and self.turn.option in options:
            return choices[options.index(self.turn.option)]
        if not options:  # an open question ("filter by population: which?"): a new message
            return None
        places = self.places.languages_of(self.turn.message)
        code = lang.detect(self.turn.message, self.protected, places)
        said = normalise(lang.english(self.turn.message, code, self.protected)).lower()
        every = re.fullmatch(
            r"(?:(?:yes|yeah|yep|ok|okay|sure)[,!.]* )?(?:\w+ )?(?:both|all|all of them|both of "
            r"them|the two(?: of them)?|them all|all (?:two|three|four|\d+)(?: of them)?)"
            r"(?: of them)?(?: please)?[.!]*",
            said,
        )
        both = every is not None and "both" in said.split()
        if (
            every
            and 1 < len(choices) <= (2 if both else 9)
            and all(set(c) == {"layers"} for c in choices)
        ):
            return {"layers": [i for choice in choices for i in choice["layers"]]}
        ordinal = re.fullmatch(r"(?:the )?(first|second|third|fourth|fifth|\d)(?: one)?", said)
        if ordinal:
            word = ordinal.group(1)
            index = int(word) - 1 if word.isdigit() else ORDINALS.index(word)
            return choices[index] if 0 <= index < len(choices) else None
        said = fold(said)
        for people, country in DEMONYMS.items():  # "the Spanish one": the one in Spain
            said = re.sub(rf"\b{people}\b", country, said)
        words = [w for w in re.findall(r"[a-z0-9]+", said) if w not in FILLER]
        if not words:
            return None
        scores = [
            sum(fuzz.partial_ratio(word, lang.gloss(fold(option))) >= 85 for word in words)
            / len(words)
            for option in options
        ]
        best = max(scores)
        if best >= 0.5 and scores.count(best) == 1:
            return choices[scores.index(best)]
        # "the cities, with their names": one option named, and words about it
        if best > 0 and sum(score > 0 for score in scores) == 1 and len(words) <= 6:
            return choices[scores.index(best)]
        return self.shape_chosen(choices, words) or self.place_chosen(choices, words, code)

    def shape_chosen(
        self, choices: list[dict[str, Any]], words: list[str]
    ) -> dict[str, Any] | None:
        """The one layer of the options drawn as the answer says ("the squares", "the little
        dots")."""
        if not words or not all(set(choice) == {"layers"} for choice in choices):
            return None
        shapes = {layer["layer_id"]: layer.get("geometry_type") for layer in self.view["layers"]}
        said = {word for word in words if word not in targets.LOOKS}
        picked = [
            choice for choice in choices
            if len(said) == 1
            and all(said <= set(targets.GEOMETRY_WORDS.get(shapes.get(i) or "", ()))
                    for i in choice["layers"])
        ]  # fmt: skip
        return picked[0] if len(picked) == 1 else None

    def place_chosen(
        self, choices: list[dict[str, Any]], words: list[str], code: str
    ) -> dict[str, Any] | None:
        """The one place of the options that is what the answer says ("the country", "the
        state") and lies where it says ("the one in England": Cambridge in Cambridgeshire)."""
        if not all("place" in choice for choice in choices):
            return None
        places = [resolvers.places.from_json(choice["place"]) for choice in choices]
        kinds = {PLACE_KINDS[word] for word in words if word in PLACE_KINDS}
        rest = " ".join(word for word in words if word not in PLACE_KINDS)
        area = self.places.find(rest, fuzzy=False, language=code).best if rest else None
        if not kinds and area is None:
            return None
        picked = [
            choice for choice, place in zip(choices, places, strict=True)
            if (not kinds or place.kind in kinds)
            and (area is None or self.places.within(place, area))
        ]  # fmt: skip
        return picked[0] if len(picked) == 1 else None

    # --- acting --------------------------------------------------------------------------------

    async def act(self, read: Read) -> None:
        """Apply what the clauses resolved to, up to the first question, and say so; the
        clauses after a question are read again once it is answered."""
        batch: list[dict[str, Any]] = []
        said: list[Phrase] = []
        if len(read) > 1 and acts(read):  # "Good afternoon! ... show me Edinburgh": no help
            read = [(clause, o) for clause, o in read if not _talk(o)]
        for index, (_, outcome) in enumerate(read):
            if isinstance(outcome, Ask):
                if await self.apply(batch, said):
                    self.ask(outcome, [clause for clause, _ in read[index + 1 :]])
                return
            if isinstance(outcome, Done) and (outcome.undo or outcome.redo):
                if not await self.apply(batch, said):
                    return
                # "the sites instead": what is done after the undo, and what the reply says of it
                batch, said = list(outcome.actions), list(outcome.said if outcome.actions else [])
                await self.history(outcome)
                continue
            if isinstance(outcome, Done):
                batch.extend(outcome.actions)
                said.extend(outcome.said)
            elif isinstance(outcome, Fail):
                said.append(outcome.said)
        await self.apply(batch, said)
        if self.mind is not None and self.mind.done:
            self.memory.intent = self.mind.done[-1]

    async def apply(self, batch: list[dict[str, Any]], said: list[Phrase]) -> bool:
        """Apply one batch and say what it did; False when the turn stops here (a failure,
        or several removals waiting for a yes)."""
        if self.mind is not None:
            self.memory = self.mind.memory
        if batch and len(removed(batch, self.view)) > 1:
            self.confirm_first(batch)
            return False
        if batch:
            try:
                applied = await self.turn.apply(batch, confirmed=True)
            except BadRequest as error:
                await self.say([Phrase("couldnt", {"reason": bad_actions(error)})])
                return False
            made = [a["layer_id"] for a in applied if a.get("type") in CREATES and "layer_id" in a]
            if made:
                self.memory.named(made)
        await self.say(said)
        return True

    async def history(self, outcome: Done) -> None:
        """Undo or redo, one version at a time (each its own batch)."""
        kind, steps = ("undo", outcome.undo) if outcome.undo else ("redo", outcome.redo)
        done = 0
        for _ in range(steps):
            try:
                await self.turn.apply([{"type": kind}])
            except BadRequest:
                break
            done += 1
        if done == 0:
            await self.say([Phrase(f"nothing_to_{kind}")])
        else:
            await self.say([Phrase("undone" if kind == "undo" else "redone", {"steps": done})])

    def ask(self, outcome: Ask, rest: list[str]) -> None:
        """End the turn with the question a clause asked."""
        state = {
            "ask": {"options": outcome.options, "choices": outcome.choices,
                    "intent": outcome.intent},
            "rest": rest, "lang": self.code, "memory": self.memory.json(),
        }  # fmt: skip
        text = lang.say(self.code, outcome.text.key, outcome.text.values)
        self.turn.ask(text, outcome.options, state)

    def confirm_first(self, batch: list[dict[str, Any]]) -> None:
        """Ask before removing several layers (docs/chat.md "Safety")."""
        names = removed(batch, self.view)
        text = lang.say(self.code, "confirm_remove", {"count": len(names),
                                                      "names": ", ".join(names)})  # fmt: skip
        options = [lang.say(self.code, "confirm_yes", {}), lang.say(self.code, "confirm_no", {})]
        state = {"confirm": batch, "lang": self.code, "memory": self.memory.json(),
                 "options": options}  # fmt: skip
        self.turn.ask(text, options, state)

    async def confirm(self, state: dict[str, Any]) -> None:
        """The answer to "Remove N layers?": yes removes them; naming some layers removes
        those; anything else keeps them."""
        said = self.turn.option or self.turn.message
        if self.turn.option == state["options"][0] or lang.yes(self.code, said):
            await self.removal(state["confirm"])
            return
        if self.turn.option is None:
            english = normalise(lang.english(said, self.code, self.protected))
            english = re.sub(r"^(?:no,? )?(?:only|just|remove|delete)? ?(?:the )?", "", english)
            mind = Mind(copy.deepcopy(self.view), self.places, memory=self.memory.copy(),
                        data=self.data, language=self.code)  # fmt: skip
            try:
                found = resolvers.layer_ops.remove(mind, {"layer": english}) if english else None
            except Need:  # features by a condition (data not fetched here): no layer named
                found = None
            if isinstance(found, Done) and len(found.actions) == 1:
                await self.removal(found.actions)
                return
        await self.say([Phrase("kept_layers")])

    async def removal(self, batch: list[dict[str, Any]]) -> None:
        try:
            await self.turn.apply(batch, confirmed=True)
        except MaproomError as error:
            await self.say([Phrase("not_removed", {"reason": error.message})])
            return
        await self.say([Phrase("removed_confirmed")])

    async def say(self, said: list[Phrase]) -> None:
        """Add sentences to the reply, in the message's language; one said twice in a row
        ("what information do we have about each city? what fields are there") once."""
        last = None
        for sentence in said:
            text = lang.say(self.code, sentence.key, sentence.values)
            if text != last:
                await self.turn.say(text)
            last = text


CREATES = frozenset(
    {"add_geojson_layer", "add_tile_layer", "add_cog_layer", "buffer_layer", "aggregate_points",
     "dissolve_layer", "clip_layer", "filter_to_layer"}
)  # fmt: skip


def removed(batch: list[dict[str, Any]], view: dict[str, Any]) -> list[str]:
    """The names of the layers a batch removes."""
    by_id = {layer["layer_id"]: layer["name"] for layer in view["layers"]}
    gone = {a["layer_id"]: by_id.get(a["layer_id"], a["layer_id"])
            for a in batch if a.get("type") == "remove_layer"}  # fmt: skip
    if any(a.get("type") == "clear_layers" for a in batch):
        gone |= {layer["layer_id"]: layer["name"] for layer in view["layers"]
                 if layer["source"] == "ai"}  # fmt: skip
    return list(gone.values())


def resolved(read: Read) -> bool:
    """Whether every clause of a reading resolved."""
    return all(not isinstance(outcome, Fail) for _, outcome in read)


def _talk(outcome: Any) -> bool:
    """Whether an outcome only talks ("hello", and what the agent can do)."""
    return (
        isinstance(outcome, Done)
        and not outcome.actions
        and not (outcome.undo or outcome.redo)
        and all(p.key in TALK for p in outcome.said)
    )
