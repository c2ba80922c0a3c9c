"""Understanding one message against the project: clauses, readings, and what they resolve to.

The message (in English by now: `lang.english`) is cut into clauses (`grammar.clauses`), each
clause read by the grammar's rules (`grammar.parse`: every rule it fits, best first) or, when
none fits, by its keywords (`keywords.guess`), and each reading *resolved* against the project:
"the cafes" must name a layer, "Lisbon" a place, "population" a field of the layer. The
resolvers live in `resolvers/`, one module per concern, registered by intent kind. The first
cut whose every clause resolves wins; a clause may also resolve to a question.

Resolution is pure: it reads the project as the agent copied it (`scene`), the data answers
fetched so far, and the conversation's memory; nothing changes until the agent acts. A resolver
that needs an answer from the data raises `Need`; the agent fetches it and reads again.
"""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from maproom.domain.chat import lang
from maproom.domain.chat.builtin import grammar, keywords, scene, targets
from maproom.domain.chat.builtin.gazetteer import FUZZY_TOWNS, Gazetteer, Place, as_json, fold
from maproom.domain.chat.builtin.memory import Memory
from maproom.domain.chat.builtin.outcome import Ask, DataKey, Done, Fail, Need, Outcome, Phrase
from maproom.domain.chat.builtin.text import COMMAND_WORDS, COMMON, Spelled, normalise
from maproom.domain.chat.lang.common import NOUNS

Resolver = Callable[..., Outcome | None]
RESOLVERS: dict[str, Resolver] = {}
# Words that never begin or end the name of a layer in a sentence ("the", "make", "bigger").
MENTION_EDGE = (COMMAND_WORDS | COMMON) - {"layer", "data", "points", "lines", "it", "them"}
SENTENCES = re.compile(r"[.!?] +\w| - \w")  # a break between two sentences (or a dash)
Read = list[tuple[str, Outcome]]


# Verbs a request to the map never starts with: a clause starting with one is what the user
# does with the map ("write them up on the blackboard", "print it for the meeting").
OTHER_VERBS = frozenset(
    """
    write read print send email mail share tell explain talk discuss teach present note
    remember compare copy post publish upload download study learn explore
    """.split()  # noqa: SIM905 (a word list reads best as text)
)
OTHER_WORK = re.compile(
    r"(?:^|[.!?] )(?:(?:i'?d|we'?d) like to |(?:i|we) (?:want|need|have|'ll|will|can) (?:to )?)?"
    rf"(?:{'|'.join(OTHER_VERBS)})\b",
    re.I,
)


def resolves(*kinds: str) -> Callable[[Resolver], Resolver]:
    """Register a function as the resolver of these intent kinds:
    `resolver(mind, slots, chosen=None) -> Outcome | None` (None: the reading does not fit)."""

    def register(resolver: Resolver) -> Resolver:
        for kind in kinds:
            RESOLVERS[kind] = resolver
        return resolver

    return register


# "zoom out so we can see all four rivers at once": the layer framed
SEEN = re.compile(
    r"^(?:zoom(?: out| in)?|pan|move|go)(?: the map)?(?: a bit| a little)?,? so (?:that )?"
    r"(?:we|i|you|"
    r"everyone|everybody|the class|they|people) (?:can |could )?see (?:all )?(?:of )?(?:the )?"
    r"(?:(?:two|three|four|five|six|\d+) )?(?P<layer>[\w ]+?)(?: at once| together| all at once|"
    r" at the same time| in one view| on (?:the )?screen)?[.!]*$",
    re.I,
)


class Mind:
    """One reading of one message (see the module docstring)."""

    def __init__(
        self,
        view: dict[str, Any],
        places: Gazetteer,
        *,
        memory: Memory,
        data: dict[DataKey, Any],
        message: str = "",
        language: str = "en",
    ) -> None:
        self.view = view
        self.layers: list[dict[str, Any]] = view["layers"]
        self.places = places
        self.memory = memory
        self.data = data
        self.message = message  # the whole message, in English
        self.language = language
        self.protected = [layer["name"] for layer in self.layers]
        words = {word for name in self.protected for word in self.gloss(name).split()}
        self.layer_words = words | {targets.singular(word) for word in words}
        self.edge = MENTION_EDGE - self.layer_words
        self.done: list[dict[str, Any]] = []  # the intents acted on, for "the same"
        self.redone: dict[str, Any] | None = None  # what a follow-up did again (`again.redo`)
        self.passing = False  # whether the reading remembered a place named in passing
        self.guessed = 0  # clauses of the reading read by their keywords
        self.skipped: list[str] = []  # clauses a lenient reading passed over

    @property
    def state(self) -> dict[str, Any]:
        """The map state as the clauses so far leave it."""
        return dict(self.view["mapState"])

    def gloss(self, name: str) -> str:
        """A layer name as the agent compares it: folded, its words in English ("Städte":
        cities), so that a request in one language finds a layer named in another."""
        return str(lang.gloss(fold(name)))

    def answer(self, key: DataKey) -> Any:
        """An answer from the data fetched for this message (`Need` until it is)."""
        if key not in self.data:
            raise Need([key])
        return self.data[key]

    # --- understanding -------------------------------------------------------------------------

    def understand(self, message: str) -> Read | None:
        """The clauses of the best cut of a message with their outcomes, or None if nothing
        reads. Rules first, over every cut; then keywords too, finest cut first (a guess over
        a clause that holds two commands reads one of them at best); the whole message by its
        keywords gives way to a reading of more requests among chatter ("I'm preparing a
        presentation about Portugal, could you center the map there and make it dark" is two
        requests, not one "dark"), or of as many that use a place the chatter named or that
        the grammar's rules read."""
        seen = SEEN.search(self.message.strip())  # "zoom out so we can see all four rivers"
        if seen and isinstance(targets.named(self, seen["layer"]), list):
            framed = self.resolve("zoom_layer", {"layer": seen["layer"], "clause": message})
            if isinstance(framed, Done):
                return [(message, framed)]
        said = seen["layer"] if seen else ""
        place = re.sub(r"^(?:(?:the )?whole of |(?:the )?entire |all of )?(?:mainland |"
                       r"continental )?", "", said, flags=re.I)  # fmt: skip
        if place[:1].isupper():  # "zoom out so we see all of mainland Portugal": frame it
            framed = self.resolve("goto", {"place": place, "clause": message})
            if isinstance(framed, Done):
                return [(message, framed)]
        best: tuple[int, Read] | None = None
        cuts = list(grammar.clauses(message))
        whole: tuple[Read, tuple[Memory, dict[str, Any], list[dict[str, Any]]]] | None = None
        passes = ((False, False, cuts), (True, False, cuts[1:] + cuts[:1]), (True, True, cuts[1:]))
        for guess, lenient, order in passes:
            for cut in order:
                alone = guess and not lenient and cut is cuts[0] and len(cuts) > 1
                if alone and re.search(r"[.!] +\w", message):
                    continue  # two sentences are never one request read by its keywords
                before = self._kept() if alone else None
                self.passing, self.guessed, self.skipped = False, 0, []
                read = self._read_cut(cut, guess, lenient)
                if read is None:
                    continue
                resolved = sum(not isinstance(o, Fail) for _, o in read)
                if resolved == len(read):
                    if before is not None:
                        whole = (read, self._kept())
                        self._restore(before)
                        break
                    # as many requests: the reading that used a place named in passing, or
                    # read every request by the grammar's rules
                    chatter = not any(
                        set(c.lower().split()) & COMMAND_WORDS or re.search(r"\d", c)
                        for c in self.skipped
                    )
                    # (or a place the rules read: "zoom to Curitiba, I want to see its BRT
                    # lines" is no zoom in by the keywords of the whole)
                    flies = any(
                        isinstance(outcome, Done)
                        and any(action.get("type") == "fly_to" for action in outcome.actions)
                        for _, outcome in read
                    )
                    better = self.passing or (
                        not self.guessed
                        and (chatter or flies)
                        and not any(isinstance(outcome, Ask) for _, outcome in read)
                    )
                    if whole is not None and len(read) + better <= len(whole[0]):
                        break
                    return read
                if best is None or resolved > best[0]:
                    best = (resolved, read)
        if whole is not None:
            self._restore(whole[1])
            return whole[0]
        return best[1] if best else None

    def _kept(self) -> tuple[Memory, dict[str, Any], list[dict[str, Any]]]:
        """What a reading changes, to put back."""
        return self.memory.copy(), copy.deepcopy(self.view), list(self.done)

    def _restore(self, kept: tuple[Memory, dict[str, Any], list[dict[str, Any]]]) -> None:
        self.memory, self.view, self.done = kept[0].copy(), copy.deepcopy(kept[1]), list(kept[2])
        self.layers = self.view["layers"]

    def _read_cut(self, cut: list[str], guess: bool, lenient: bool = False) -> Read | None:
        """Every clause of a cut with its outcome, or None (and nothing remembered) if one
        does not read. `lenient`: a clause that reads as nothing is passed over when another
        does something ("I need to see Reykjavik, I have a meeting there on monday")."""
        kept = self._kept()
        read: Read = []
        for clause in cut:
            outcome = self.understand_clause(clause, guess=guess)
            if outcome is None:
                if lenient:  # chatter; a place it names is what "it" and "there" mean next
                    self._named_in_passing(clause)
                    self.skipped.append(clause)
                    continue
                break
            read.append((clause, outcome))
        else:
            if all(not isinstance(o, Fail) for _, o in read) and (not lenient or acts(read)):
                return read
        self._restore(kept)
        if lenient:
            return read if acts(read) else None
        return read if len(read) == len(cut) else None

    def _named_in_passing(self, clause: str) -> None:
        """Remember a well-known place a sentence names by a capitalised name ("we spent our
        honeymoon in Edinburgh", then "I would love to see it on the map"), or a layer it names
        ("the cafe dots are tiny, bump them up")."""
        words = Spelled(normalise(clause), self.protected).words
        found = targets.mention(self, words)
        named = targets.named(self, " ".join(words[found[0] : found[1]])) if found else None
        if isinstance(named, list) and len(named) == 1:
            self.memory.named([named[0]["layer_id"]])
        from maproom.domain.chat.builtin.resolvers import data, places  # one module, no cycle

        name = r"[A-Z][\w'-]+(?:(?: (?:de|da|do|del|of|la|am))? [A-Z][\w'-]+)*"
        for run in re.finditer(rf"(?<![\w']){name}", clause):
            if run.group(0).lower() in COMMON:
                continue  # "We won't need the districts": a sentence's first word, no place
            looked = places.find(self, run.group(0), fuzzy=False)
            place = looked if isinstance(looked, Place) else looked.sure
            known = place is not None and (place.kind != "city" or place.population >= FUZZY_TOWNS)
            # "asking about the Oceanarium. Take me to it", "taken at Belém Tower": a feature of
            # the data, by name (before a small town of that name)
            short = not known and run.start() > 0 and len(run.group(0).split()) <= 3
            if short and data.feature_named(self, run.group(0)) is not None:
                self.passing = True
                continue
            if known and place is not None:
                self.memory.went(as_json(place))
                self.passing = True

    def understand_clause(self, clause: str, *, guess: bool = True) -> Outcome | None:
        """The first reading of a clause that resolves (a failure if only failures do): by
        the grammar's rules, else (with `guess`) by its keywords (`keywords.guess`), unless a
        rule read it and found nothing ("zoom to Zarblenstan" is not a zoom in)."""
        spelled = Spelled(normalise(clause), self.protected)
        outcome = self.first(grammar.parse(spelled), clause)
        if outcome is None and guess:
            outcome = self.first(self._guesses(spelled), clause)
            self.guessed += outcome is not None
        why = grammar.PURPOSE.search(clause)
        if (
            why
            and re.match(r",? for ", why.group(0))
            and targets.mention(self, why.group(0).split()) is not None
        ):
            why = None  # "bigger dots for the cities": no reason, the layer
        if (outcome is None or isinstance(outcome, Fail)) and why and why.start() > 0:
            # "tilt the map to 60 degrees for a 3D look": the request without why it is made
            # (but "I need the names for the report" is what an answer is for, no request)
            wanted = re.fullmatch(r"(?:i|we) (?:need|want) (?:the|their|those|these) \w+",
                                  clause[: why.start()].strip(), re.I)  # fmt: skip
            return self.understand_clause(clause[: why.start()], guess=guess and not wanted) or (
                outcome
            )
        return outcome

    def first(self, readings: Iterable[grammar.Intent], clause: str) -> Outcome | None:
        """The first reading that resolves, else the first failure, else None."""
        failure: Outcome | None = None
        for intent in readings:
            if intent.kind != "rename" and any(
                SENTENCES.search(value) for key, value in intent.slots.items() if key != "clause"
            ):
                continue  # "only the monuments. The parks have their own leaflet": two sentences
            self.redone = None
            outcome = self.resolve(intent.kind, intent.slots)
            if outcome is None:
                continue
            if isinstance(outcome, Ask) and not outcome.intent:
                outcome.intent = {"kind": intent.kind, "slots": intent.slots, "clause": clause}
            if isinstance(outcome, Done):
                self.follow(outcome)
                self.done.append(self.redone or {"kind": intent.kind, "slots": intent.slots})
            if not isinstance(outcome, Fail):
                return outcome
            if intent.kind == "place" and re.match(
                re.escape(clause.strip()) + r"\s*(?::|-)\s", normalise(self.message)
            ):
                continue  # a heading before the request ("NGO report: ...") is no place
            failure = failure or outcome
        return failure

    def resolve(
        self, kind: str, slots: dict[str, str], chosen: list[str] | None = None
    ) -> Outcome | None:
        """What a reading resolves to (None: it does not fit the project)."""
        resolver = RESOLVERS[kind]
        if chosen is None:
            return resolver(self, slots)
        if len(inspect.signature(resolver).parameters) > 2:
            return resolver(self, slots, chosen)
        # A reading that asked which layer without taking the answer itself: the layer it
        # named is now the one chosen ("what is the total population?" "of the districts").
        names = [layer["name"] for layer in self.layers
                 if layer["layer_id"] in chosen or layer["name"] in chosen]  # fmt: skip
        return resolver(self, {**slots, "layer": " and ".join(names)})

    def follow(self, outcome: Done) -> None:
        """Let the next clause start from what this one does."""
        scene.follow(self.view, outcome.actions)
        self.layers = self.view["layers"]

    def _guesses(self, spelled: Spelled) -> Iterator[grammar.Intent]:
        """Readings of a clause from its keywords, around the layer it names if any; none of
        a clause that starts with a verb of no map work ("write them up on the blackboard")."""
        if OTHER_WORK.search(spelled.text):
            return
        found = targets.mention(self, spelled.words)
        if found is None:
            yield from keywords.guess(spelled.text, None)
            # "make the rivers thicker and dark blue": the second clause is about the rivers;
            # but "the rivers" with no such layer is about no other layer
            names_other = any(
                (word.lower() in NOUNS or (at and word[:1].isupper()))  # "... in Lisbon"
                and word.lower() not in self.layer_words
                for at, word in enumerate(spelled.words)
            )
            if self.memory.layers and not names_other:
                yield from keywords.guess(spelled.text, "it", spelled.text)
            return
        start, end = found
        layer = " ".join(spelled.words[start:end])
        after = " ".join(spelled.words[end:]).lower()
        yield from keywords.guess(spelled.text, layer, after)
        yield from keywords.guess(spelled.text, None)

    def resolve_choice(self, intent: dict[str, Any], choice: dict[str, Any]) -> Outcome | None:
        """A clause that asked, resolved with the option chosen."""
        from maproom.domain.chat.builtin.resolvers import places  # one module, no cycle

        if "place" in choice:
            place = places.from_json(choice["place"])
            return places.to_place(self, intent["kind"], intent["slots"], place)
        if "outcome" in choice:  # a question about an action already worked out
            said = [Phrase(p["key"], p["values"]) for p in choice["outcome"].get("said", [])]
            return Done(choice["outcome"]["actions"], said)
        return self.resolve(intent["kind"], intent["slots"], choice.get("layers"))


# What talk says (`resolvers/talk.py`): no answer to anything.
TALK = frozenset({"help", "hello", "welcome"})


def acts(read: Read) -> bool:
    """Whether some clause changes the map, asks, or answers ("how long is the Rhine? asking
    for my class")."""
    return any(
        isinstance(o, Ask)
        or (
            isinstance(o, Done)
            and (o.actions or o.undo or o.redo or any(p.key not in TALK for p in o.said))
        )
        for _, o in read
    )
