"""Going to places and highlighting countries: "fly to Rome", "Mexico", "highlight Japan".

A phrase is looked up as a place only where the clause asks to go somewhere or to highlight
something; a message that is only a name ("Mexico") must be a name the gazetteer knows as
written, or a clear typo of a well-known one, and never a word of a command ("undo" is not
Ŭndŏk). A place it cannot find is said so, never guessed (docs/chat.md).
"""

from __future__ import annotations

import re
from typing import Any

from maproom.domain.chat import lang
from maproom.domain.chat.builtin import colours, conditions, keywords, landmarks, targets
from maproom.domain.chat.builtin.gazetteer import Found, Place, as_json, fold
from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Ask, Done, Fail, Outcome, phrase
from maproom.domain.chat.builtin.resolvers import data
from maproom.domain.chat.builtin.text import COMMAND_WORDS, COMMON, Spelled, normalise, number
from maproom.geo import camera

WIDE = 90.0  # degrees: a place this wide is centred on its box, not on its label point
# "Rome at street level": the zoom of each scale.
SCALES = {"street": 16, "block": 17, "building": 18, "neighbourhood": 14, "neighborhood": 14,
          "city": 11, "town": 12, "region": 6, "state": 6, "country": 5}  # fmt: skip
BACK = ("it", "there", "that", "that place", "this place", "that country", "here", "same place")
# "show me the region", "zoom in on that city": the place named before, by its kind.
THE_PLACE = re.compile(
    r"(?:the|this|that|said) (?:place|region|country|city|town|area|island|tower|building|"
    r"monument|spot|site|square|bridge|church|museum|castle|park|stadium|station|airport|"
    r"harbou?r|port|beach|palace|cathedral|landmark)(?: itself)?"
)
# "highlight Mexico and darken the rest": the rest is what a mask darkens anyway.
REST = (
    "rest",
    "the rest",
    "all the rest",
    "everything else",
    "the rest of the world",
    "rest of the world",
    "everything else of the world",
    "all the rest of the world",
    "the others",
    "other countries",
    "all other countries",
    "the other countries",
    "all the others",
)
# Around a place name: words that are not part of it.
PLACE_HEAD = re.compile(
    r"^(?:the map of|a map of|(?:the )?whole of|where|"
    # "the old university town of Coimbra", "the lovely fishing village of Nazaré"
    r"(?:the|a|that|this) (?:(?:old|little|lovely|beautiful|historic|ancient|famous|great|small|"
    r"charming|pretty|university|port|market|spa|cathedral|seaside|coastal|medieval|roman|"
    r"walled|fishing|mountain|border|holy|royal|island) )*(?:city|town|village|port|"
    r"island|region|country|state|province) of|"
    r"all of|the entire|the whole|all the|all|whole|entire|(?:a|the) view of|back to|back|over to|"
    r"(?:the )?(?:area|"
    r"region|surroundings|vicinity|neighbourhood|neighborhood) (?:around|of|near)) ",
    re.I,
)
PLACE_TAIL = re.compile(
    r"(?:,? (?:on|in) (?:the|a) map|,? instead|,? too|,? as well|,? again|,? please|,? now|"
    r" only|"
    r"(?<=\w\w) there|"
    r" (?:all|whole|entire|as a whole)|"
    r" (?:is|are|lies|located|is located)|,? (?:next|this|last) (?:week|month|year|weekend)|"
    r",? (?:today|tomorrow|tonight|soon|later)|,? on (?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r" from (?:above|space|the sky|up high|the air)|,? (?:in|on) (?:the|my|your) screen|"
    r",? (?:all )?at once|,? at the same time|,? in one go|,? in one view|"
    # "the Algarve, from Sagres until Vila Real", "Portugal complete, all the country":
    # how much of it, said again
    r",? from (?:the )?[\w' -]+? (?:until|till|to|up to|down to) [\w' -]+|,? complete|"
    r",? not (?:only|just) (?:one|a|the) (?:city|town|place|part|bit)|,? all the country|"
    r",? the whole (?:country|region|thing)|,? completely|,? entirely)+$",
    re.I,
)
PLACE_KIND = re.compile(
    r",? (?:province|state|county|city|town|region|country|prefecture|department|island|"
    r"islands|district|territory|area|municipality|oblast|canton)$",
    re.I,
)


def from_json(data: dict[str, Any]) -> Place:
    """A place as `as_json` kept it."""
    box = tuple(data["box"]) if data.get("box") else None
    return Place(**{**data, "box": box})


def find(mind: Mind, text: str, *, fuzzy: bool = True) -> Found | Place:
    """What a place phrase names: "there" is the last place the conversation went to."""
    back = fold(text) in BACK or THE_PLACE.fullmatch(text.strip().lower())
    if back and mind.memory.place:
        return from_json(mind.memory.place)
    if back and " " in text:  # "the region", and no place said before
        return Found()
    found = mind.places.find(text, fuzzy=fuzzy, language=mind.language)
    country = (mind.memory.place or {}).get("country")
    if not found.clear and len(found.candidates) > 1 and country:
        # "Madrid", then "our other office is in Valencia": the Valencia in Spain
        top = max(place.population for place in found.candidates)
        near = [place for place in found.candidates
                if place.country == country and place.population * 4 >= top]  # fmt: skip
        if len(near) == 1:
            rest = [place for place in found.candidates if place is not near[0]]
            return Found([near[0], *rest], clear=True, fuzzy=found.fuzzy)
    return found


def outcome_for(
    mind: Mind, kind: str, slots: dict[str, str], text: str, fuzzy: bool = True
) -> Outcome | None:
    """Where a place phrase leads. When it names no place it is a failure (nothing else
    is tried), unless it holds words of other commands or a layer's name ("move east by
    500 km", "zoom to the extent of the rivers"): then the clause may mean something else."""
    typed = text
    text = PLACE_TAIL.sub("", PLACE_HEAD.sub("", text.strip())).strip(" ,")
    if not text:
        return None
    # by name only: "me" and "it" are no country codes here
    mask_country = kind == "mask" and (
        (len(text) > 3 and fold(text) not in BACK) or re.fullmatch(r"[A-Z]{2}", text) is not None
    )  # "mask FR": a code typed in capitals is one
    country = mind.places.country(text) if mask_country else None
    if country is not None:  # "highlight Mexico": the country, not its capital
        return to_place(mind, kind, slots, country)
    found = find(mind, text, fuzzy=fuzzy)
    if isinstance(found, Found) and not found.candidates and PLACE_KIND.search(text):
        found = find(mind, PLACE_KIND.sub("", text).strip(), fuzzy=fuzzy)
    if isinstance(found, Place):
        return to_place(mind, kind, slots, found)
    if kind == "goto" and found.fuzzy and found.candidates:
        # "frame the Rhine": a feature of the data named exactly, before a town spelled close
        named = data.feature_named(mind, text)
        if named is not None:
            return named
    if not found.candidates:
        # "Greece for our island-hopping campaign": a place, then why it is wanted
        why = re.split(r" (?:for (?:our|my|a|an|his|her|their|some)|because|since|as (?:we|i)|"
                       r"so (?:that|we|i)) ", text, maxsplit=1)[0]  # fmt: skip
        if why != text and why[:1].isupper():
            wanted = find(mind, why, fuzzy=False)
            place = wanted if isinstance(wanted, Place) else wanted.sure
            if place is not None:
                return to_place(mind, kind, slots, place)
        # a layer, or features of one ("show the museums": Sites whose kind is museum)
        plain = re.fullmatch(r"[\w' -]+", text) is not None and len(text.split()) <= 4
        other = targets.mention(mind, text.split()) is not None or (
            plain
            and bool(conditions.fitting(mind, text))
            and data.feature_named(mind, text) is None
        )
        spelled = Spelled(typed).text
        commands = set(spelled.split()) & COMMAND_WORDS
        if not fuzzy or other or commands or any(keywords.guess(spelled, None)):
            return None
        first = text.split(",")[0].strip()
        if "," in text and first[:1].isupper():  # "Kyoto, I'm writing about the temples":
            found = find(mind, first, fuzzy=fuzzy)  # a place, then a sentence of its own
            if isinstance(found, Place) or found.candidates:
                return None
        return Fail(phrase("no_place", name=text))
    if found.clear:
        return to_place(mind, kind, slots, found.candidates[0])
    options = found.candidates[:4]
    return Ask(
        phrase("which_place", name=options[0].name),
        [mind.places.label(place, mind.language) for place in options],
        [{"place": as_json(place)} for place in options],
    )


def to_place(mind: Mind, kind: str, slots: dict[str, str], place: Place) -> Outcome:
    """Go to a place (or highlight it, for `mask`)."""
    been_there = mind.memory.place == as_json(place)
    mind.memory.went(as_json(place))
    zoom = slots.get("zoom") or str(SCALES.get(slots.get("scale") or "", "")) or None
    fly = fly_to(place, zoom)
    if kind == "mask":
        if place.kind != "country":
            return Fail(
                phrase(
                    "mask_not_country",
                    place=mind.places.label(place, mind.language),
                    kind=place.kind,
                )
            )
        mask: dict[str, Any] = {"type": "set_country_mask", "country_code": place.code}
        colour = colours.parse(slots["color"]) if slots.get("color") else None
        if colour:
            mask["color"] = colour
        return Done(
            [mask] if been_there else [mask, fly],
            [phrase("masked", place=mind.places.label(place, mind.language))],
        )
    return Done([fly], [phrase("flew", place=mind.places.label(place, mind.language))])


def fly_to(place: Place, zoom_text: str | None = None) -> dict[str, Any]:
    """A `fly_to` that frames a place: a box around its populated part, or a zoom by size."""
    if place.box is not None:
        middle = [(place.box[0] + place.box[2]) / 2, (place.box[1] + place.box[3]) / 2]
        # halfway between its label point (the populated part) and the middle of its main
        # body: Italy's label point is near Modena, the middle of its box at sea
        center = [(place.lng + middle[0]) / 2, (place.lat + middle[1]) / 2]
        if place.box[2] - place.box[0] > WIDE:  # Russia: the middle of all of it
            center = middle
        zoom = camera.fit_around(center, place.box, camera.Padding.even(20))
    elif place.kind == "landmark":
        center, zoom = [place.lng, place.lat], landmarks.WIDE.get(place.name, landmarks.ZOOM)
    else:
        center = [place.lng, place.lat]
        people = place.population
        zoom = 10.0 if people >= 5e6 else 11.0 if people >= 1e6 else 12.0 if people >= 2e5 else 13.0
    if zoom_text and number(zoom_text) is not None:
        zoom = camera.clamp_zoom(float(number(zoom_text) or 0))
    center[1] = max(-85.0, min(85.0, center[1]))
    return {"type": "fly_to", "center": center, "zoom": zoom}


@resolves("goto")
def goto(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "fly to Rome", "take me to the cafes" (a layer named exactly: zoom to it)."""
    text = slots.get("place", "").strip()
    if not text:
        return None
    words = fold(text).split()
    if len(words) > 1 and any(word in mind.layer_words for word in words):
        named = data.feature_named(mind, text)  # "zoom to District D", "County 5"
        if named is not None:
            return named
    if fold(text) in ("it", "them") and not mind.memory.place and len(mind.layers) > 1:
        # "zoom to it" with nothing named before: which layer?
        asked = mind.resolve("zoom_layer", {"layer": text})
        if isinstance(asked, Ask) and not asked.intent:
            asked.intent = {"kind": "zoom_layer", "slots": {"layer": text}, "clause": text}
        return asked
    if fold(text) not in targets.PRONOUNS and fold(text) not in BACK:
        layers = targets.named(mind, text)
        if isinstance(layers, list) and layers and targets.exactly(mind, text, layers):
            return mind.resolve("zoom_layer", {"layer": text})
        if isinstance(layers, Ask) and fold(text).split()[-1] in targets.ALL_GEOMETRY_WORDS:
            # "zoom to the points" with two layers of points: which?
            asked = mind.resolve("zoom_layer", {"layer": text})
            if isinstance(asked, Ask) and not asked.intent:
                asked.intent = {"kind": "zoom_layer", "slots": {"layer": text}, "clause": text}
            return asked
    its = ITS_COUNTRY.fullmatch(text.lower()) or ITS_COUNTRY.fullmatch(fold(text))
    if its and mind.memory.place:  # "show the whole country"
        country = _country_of_last(mind)
        return to_place(mind, "goto", slots, country) if country is not None else None
    outcome = outcome_for(mind, "goto", slots, text)
    if isinstance(outcome, Fail):  # no place of that name: a feature of one ("Belém Tower")
        return data.feature_named(mind, text) or outcome
    return outcome


@resolves("place")
def place_alone(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """A message that is only a place name ("Mexico", "Amsterdm"): typos are read only in one
    or two words that are no words of commands in any language; never a layer's name."""
    text = slots.get("place", "").strip()
    words = set(re.findall(r"[a-z]+", text.lower()))
    # Words of commands or of layers' names are no place, unless they spell a known name of
    # several words ("rio de janeiro") or an abbreviation ("LA").
    said = fold(text).split()
    named = set(said) == mind.places.names_in(text) or text.isupper()
    if len(said) == 1 and any(fold(layer["name"]).startswith(said[0]) for layer in mind.layers):
        named = False  # "rivers" is the layer, not Rivers State
    if len(text.split()) > 5 or (not named and targets.mention(mind, text.split()) is not None):
        return None
    if lang.known_word(text) and not named:
        return None
    if not text[:1].isupper() and not named and fold(text) != fold(normalise(mind.message)):
        return None  # a word among other clauses ("não, espera, ...") is no place in lower case
    alone = fold(text) == fold(normalise(mind.message))  # among other clauses: spelled right
    fuzzy = alone and len(text.split()) <= 2 and not words & (COMMAND_WORDS | COMMON)
    return outcome_for(mind, "goto", slots, text, fuzzy=fuzzy)


ITS_COUNTRY = re.compile(
    r"(?:the )?(?:that|this|its|their|her|his|the|the same|same|the whole|the entire|whole|"
    r"entire) (?:country|countries|nation)"
    r"(?: (?:of )?(?:it|its|that|this|their|her|his))?"
    r"(?: (?:it is in|it's in|it is|where it is|where is|of (?:it|that|this|that city|"
    r"the city)|there|"
    r"over there|of there))?"
)


@resolves("mask")
def mask(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "highlight Japan", "mask everything except Brazil", "darken the rest" (of the last
    place)."""
    text = slots.get("place", "").strip()
    said = slots.get("clause", "")
    faded = re.match(r"(?:grey|gray|fade|dim) (?:out )?", said)
    if faded and isinstance(targets.named(mind, text), list):  # "grey out the rivers": a layer
        return mind.resolve("colour", {"layer": text, "color": "grey", "clause": said})
    whose = re.sub(r"^(?:the )?(?:countr(?:y|ies) )?(?:of|where|in which) |(?: is| lies)$", "",
                   text)  # fmt: skip
    its = bool(ITS_COUNTRY.fullmatch(text.lower()) or ITS_COUNTRY.fullmatch(fold(text)))
    # "the country it's in", "o país onde fica" (the country where is): of the last place
    its = its or bool(
        re.search(r"\bcountr(?:y|ies) (?:it'?s in|it is in|where (?:it )?is|it is)$", said)
    )
    if (
        re.search(r"\bcountr(?:y|ies)\b", said)
        and fold(text) not in BACK
        and (not its and mind.places.country(whose) is None)
    ):  # "the country of the most populated city": go there in thought, then its country
        went = mind.understand_clause(f"go to {whose}", guess=False)
        if isinstance(went, Done) and mind.memory.place:
            text = "that country"
    country_there = fold(text) in BACK and re.search(r"\b(?:country|nation)\b", said)
    its = its or bool(ITS_COUNTRY.fullmatch(fold(text)))  # "that country", set above
    if (its or fold(text) in BACK) and not mind.memory.place:
        return Ask(phrase("which_country"), [], [])  # "highlight the country": which?
    if (its or country_there) and mind.memory.place:
        # "highlight that country", "its country": the country of the last place
        country = _country_of_last(mind)
        return to_place(mind, "mask", slots, country) if country is not None else None
    if fold(text) in REST:
        if not mind.memory.place or mind.memory.place.get("kind") != "country":
            return None
        text = "it"
    return outcome_for(mind, "mask", slots, text)


def _country_of_last(mind: Mind) -> Place | None:
    """The country of the place named last (of a feature of the data: the one it lies in)."""
    last = from_json(mind.memory.place or {})
    if len(last.country) == 2:
        return mind.places.country(last.country)
    return mind.places.country_near(last.lng, last.lat)


@resolves("unmask")
def unmask(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "remove the highlight"."""
    actions: list[dict[str, Any]] = [{"type": "set_country_mask", "country_code": None}]
    if mind.state.get("customMask"):
        actions.append({"type": "set_custom_mask"})
    return Done(actions, [phrase("unmasked")])
