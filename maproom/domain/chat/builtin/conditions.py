"""Conditions on a layer's features, as people say them, read into the filters of
docs/analysis.md: "with more than 10 million people", "whose value is at least 50", "between
1,000 and 5,000 people", "that are museums", "in the North region", "that are capitals",
"without a name".

A number compares with the field the phrase names ("population"), or the field its unit names
("people": population), or the layer's only numeric field. A word compares with the values of
the layer's text fields ("museums": kind == museum) and the names of its true/false fields
("capitals": capital == true): the values come from the data (`Need`), so any value the layer
holds can be named.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from maproom.domain.chat import lang
from maproom.domain.chat.builtin import continents, targets
from maproom.domain.chat.builtin.gazetteer import DEMONYMS, Place, fold
from maproom.domain.chat.builtin.outcome import Fail, Need, phrase
from maproom.domain.chat.builtin.targets import Layer, singular
from maproom.domain.chat.builtin.text import AMOUNT_TEXT, number, spelled_as

if TYPE_CHECKING:
    from maproom.domain.chat.builtin.mind import Mind

Filter = dict[str, Any]
COMPARE = [
    (
        r"more than|over|above|greater than|bigger than|larger than|higher than|exceeding|"
        r"longer than|taller than|wider than|heavier than|older than|>",
        ">",
    ),
    (r"at least|no less than|no fewer than|minimum of|min|>=", ">="),
    (
        r"less than|fewer than|under|below|smaller than|lower than|shorter than|narrower than|"
        r"lighter than|younger than|<",
        "<",
    ),
    (r"at most|no more than|up to|maximum of|max|<=", "<="),
    (r"exactly|equal to|equals|equal|==|=", "=="),
]
OPS = "|".join(words for words, _ in COMPARE)
# Words of comparisons whose typos are read ("abvoe 40").
COMPARE_WORDS = (
    "above",
    "below",
    "over",
    "under",
    "greater",
    "fewer",
    "exceeding",
    "between",
    "exactly",
    "least",
    "most",
    "higher",
    "lower",
    "bigger",
    "smaller",
    "larger",
)
LEAD = r"(?:(?:with|having|that have|which have|that has|which has|who have|where|whose|" \
       r"when|if|of|for) )?(?:a |an |the |their |its )?"  # fmt: skip
NUMBER = rf"(?P<num>{AMOUNT_TEXT})"
COMPARISON = [
    re.compile(rf"{LEAD}(?P<field>[\w ]+?)? ?(?:is |are |of |was )?(?P<op>{OPS}) {NUMBER}"
               rf"(?: (?P<unit>[\w ]+?))?"),
    re.compile(rf"{LEAD}(?:(?P<field>[\w ]+?) (?:of |is |are |at )?)?{NUMBER}"
               rf"(?: (?P<unit>[\w ]+?))? (?:or|and) (?P<more>more|less|fewer|above|below|"
               rf"higher|lower|greater|better|up|over|under)"),
    re.compile(rf"{LEAD}(?:(?P<field>[\w ]+?) )?(?:is |are )?between {NUMBER} and "
               rf"(?P<num2>{AMOUNT_TEXT})(?: (?P<unit>[\w ]+?))?"),
    # "4 stars", "rated 4", "a rating of 4": exactly that number of a field
    re.compile(rf"{LEAD}(?:(?P<field>\w+(?: \w+)?) (?:of |is |are |at |rated )?)?(?P<exact>)"
               rf"{NUMBER}(?: (?!(?:classes|colou?rs|groups|bins|categories|steps|levels|breaks|"
               rf"times|px|pixels?|percent|degrees?)\b)(?P<unit>\w+))?"),
]  # fmt: skip
NEGATION = re.compile(r"^(?:that |which |who )?(?:are |is )?(?:(?:not|aren't|isn't|except|but not|"
                      r"other than|excluding|without being) |non-|non )")  # fmt: skip
VALUE_LEAD = re.compile(
    r"^(?:(?:with|having|where|whose|that are|which are|who are|that is|which is|of|from|in|"
    r"located in|on|at|called|named|labelled|of the) )+(?:a |an |the |type |kind |category )?"
)
EMPTY = re.compile(r"^(?:without|with no|missing|lacking|that lack|with an empty|with empty) "
                   r"(?:a |an |the |any )?(?P<field>[\w ]+)$")  # fmt: skip
FILLER = frozenset({"the", "a", "an", "of", "one", "ones", "only", "just", "that", "are"})


def parse(mind: Mind, layer: Layer, text: str, *, split: bool = True) -> Filter | Fail | None:
    """The filter a condition phrase means on this layer, a failure saying why it cannot be
    read, or None when the phrase is no condition. `split`: a phrase may be two conditions
    (cut once, never again inside the parts, so the work stays linear in the joints)."""
    said = spelled_as(re.sub(r"\s+", " ", lang.fold(text)).strip(" ,.?!"), COMPARE_WORDS)
    if not said or re.search(r"(?:^|, )(?:\w+ )?(?:i|we|you|they) (?!have\b)", said):
        return None  # ", today we only care about Lisbon": a sentence of its own
    both = _both(mind, layer, said) if split else None
    if both is not None:
        return both
    negated = bool(NEGATION.match(said))
    said = NEGATION.sub("", said) if negated else said
    found = (
        _compare(layer, said, mind.memory.field) or _empty(layer, said) or _value(mind, layer, said)
    )
    if found is None or isinstance(found, Fail):
        return found
    return negate(found) if negated else found


def _both(mind: Mind, layer: Layer, said: str) -> Filter | None:
    """Two conditions on two fields: "in state B with a population above 4000" (on one field,
    "in Spain and Portugal" is one condition, read whole)."""
    for joint in list(BOTH.finditer(said))[:JOINTS]:
        first, second = said[: joint.start()], said[joint.end() :]
        one = parse(mind, layer, first, split=False) if first.strip() else None
        other = parse(mind, layer, second, split=False) if isinstance(one, dict) else None
        if (
            isinstance(one, dict)
            and isinstance(other, dict)
            and one.get("field") != other.get("field")
        ):
            return {"all": [one, other]}
    return None


JOINTS = 4  # places a phrase is tried as two conditions, at most
BOTH = re.compile(r",? (?:and|with|whose|that have|that has|having|where|and (?:with|whose)) ")


def fitting(mind: Mind, text: str, among: list[Layer] | None = None) -> list[tuple[Layer, Filter]]:
    """The data layers (of `among`, else all) a condition alone reads on, each with its
    filter ("the capitals": Cities, capital true); while the agent's last question was about
    a field, only the layers holding that field."""
    fits = []
    layers = mind.layers if among is None else among
    # the values of every text field, fetched at once (one reading more, not one a field)
    keys = [("stats", layer["layer_id"], field["name"], None) for layer in layers
            if layer["layer_type"] == "geojson"
            for field in layer.get("fields") or [] if field.get("type") == "string"]  # fmt: skip
    missing = [key for key in keys if key not in mind.data]
    if missing:
        raise Need(missing)
    for layer in layers:
        fields = [field["name"] for field in layer.get("fields") or []]
        if mind.memory.field and mind.memory.field not in fields:
            continue  # the answer to "which should I keep by population?"
        if layer["layer_type"] == "geojson" and fields:
            where = parse(mind, layer, text)
            if isinstance(where, dict):
                fits.append((layer, where))
    return fits


def negate(where: Filter) -> Filter:
    """The features a filter leaves out (that have the field): "hide the districts with fewer
    than 1,000 people" keeps those with 1,000 or more."""
    flip = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "==": "!=", "!=": "==", "in": "not_in",
            "not_in": "in", "is_null": "not_null", "not_null": "is_null"}  # fmt: skip
    if "all" in where:
        return {"any": [negate(part) for part in where["all"]]}
    if "any" in where:
        return {"all": [negate(part) for part in where["any"]]}
    if where["op"] in flip:
        return {**where, "op": flip[where["op"]]}
    return {"all": [{"field": where["field"], "op": "not_null"}, {"any": [where]}]}


def _compare(layer: Layer, said: str, asked: str = "") -> Filter | Fail | None:
    for rule in COMPARISON:
        match = rule.fullmatch(said)
        if match is None:
            continue
        parts = match.groupdict()
        exact = parts.get("exact") is not None
        numeric = targets.numeric_fields(layer)
        if exact and not any(
            targets.field_named(parts.get(key) or "", numeric) for key in ("field", "unit")
        ):
            return None  # a number alone, or with no field of the layer, is no condition
        field = _numeric(layer, parts.get("field"), parts.get("unit"), asked)
        if field is None or isinstance(field, Fail):
            return field
        low = number(parts["num"] or "")
        if low is None:
            return None
        if parts.get("num2"):
            high = number(parts["num2"])
            if high is None:
                return None
            # "between 1 and 10 million": the scale said once is both numbers'
            scale = re.search(r"(?:thousand|million|billion|k|m|bn)$", parts["num2"].strip())
            bare = number(parts["num2"].strip()[: scale.start()]) if scale else None
            if bare and not re.search(r"[a-z]$", parts["num"].strip()) and low * high / bare < high:
                low = low * high / bare
            return {"all": [{"field": field, "op": ">=", "value": min(low, high)},
                            {"field": field, "op": "<=", "value": max(low, high)}]}  # fmt: skip
        if parts.get("more"):
            op = (
                ">="
                if parts["more"] in ("more", "above", "higher", "greater", "better", "up", "over")
                else "<="
            )
        elif exact:
            op = "=="
        else:
            op = next(o for words, o in COMPARE if re.fullmatch(words, parts["op"]))
        return {"field": field, "op": op, "value": _plain(low)}
    return None


def _plain(value: float) -> float | int:
    return int(value) if value == int(value) else value


def _numeric(
    layer: Layer, field_text: str | None, unit: str | None, asked: str = ""
) -> str | Fail | None:
    """The numeric field a comparison is about: named, named by its unit, the only one, or
    the one the agent's last question was about ("filter by population": "over 1000")."""
    fields = targets.numeric_fields(layer)
    unit = re.sub(r"^(?:of|in) ", "", unit or "")
    for text in (field_text, unit):
        if text and text.strip() and text.strip() not in ("value", "values", "number"):
            found = targets.field_named(text, fields)
            if found is not None:
                return str(found["name"])
    if field_text and field_text.strip() in ("value", "values") and fields:
        found = targets.field_named("value", fields)
        if found is not None:
            return str(found["name"])
    if len(fields) == 1:
        return str(fields[0]["name"])
    if asked in [f["name"] for f in fields]:
        return asked
    if not fields:
        return Fail(phrase("no_numbers", layer=layer["name"]))
    names = ", ".join(f["name"] for f in fields)
    return Fail(phrase("which_number", layer=layer["name"], fields=names))


def _empty(layer: Layer, said: str) -> Filter | None:
    match = EMPTY.fullmatch(said)
    if match is None:
        return None
    field = targets.field_named(match.group("field"), list(layer.get("fields") or []))
    return {"field": field["name"], "op": "is_null"} if field else None


def _value(mind: Mind, layer: Layer, said: str) -> Filter | None:
    """A condition on a value the layer holds ("museums", "the North region", "capitals")."""
    words = VALUE_LEAD.sub("", said).strip()
    if not words or (re.search(r"\d", words) and not re.search(r"[a-z]", words)):
        return None
    fields = list(layer.get("fields") or [])
    for field in fields:  # "capitals", "capital cities": a true/false field
        if field.get("type") == "boolean":
            parts = [singular(w) for w in words.split()]
            if singular(fold(field["name"])) in parts:
                return {"field": field["name"], "op": "==", "value": True}
    named = re.fullmatch(r"(?P<field>[\w ]+?) (?:is|=|==|equals?|of) (?P<value>.+)", words)
    if named:
        field = targets.field_named(named.group("field"), fields)
        if field is not None:
            return _matching(mind, layer, [field], named.group("value"))
    # "state A", "the region South": a text field's name, then one of its values
    named = re.fullmatch(r"(?:the )?(?P<field>\w+) (?P<value>\w+)", words)
    field = targets.field_named(named.group("field"), fields) if named else None
    if named and field is not None and field.get("type") == "string":
        found = _matching(mind, layer, [field], named.group("value"))
        if found is not None:
            return found
    strings = [f for f in fields if f.get("type") == "string"]
    return _matching(mind, layer, strings, words)


PLACE_NOUNS = frozenset({"city", "cities", "town", "towns", "one", "ones", "place", "places"})
LIST_WORDS = frozenset({"and", "or", "y", "e", "o", "ou", "et", "und", "oder", "as", "well"})


def _countries(mind: Mind, phrase_: str) -> list[Place]:
    """The countries a phrase ends with, by their names of up to three words ("the ones in
    espanha francia y portugal") or by their people ("german cities"); no two-letter code
    ("in"), and none before a word that is not one ("Deutschland highlight")."""
    words, end, found = phrase_.split(), len(phrase_.split()), []
    while end and words[end - 1] in PLACE_NOUNS:
        end -= 1
    while end:
        for n in range(min(3, end), 0, -1):
            name = " ".join(words[end - n : end])
            name = DEMONYMS.get(name) or DEMONYMS.get(singular(name)) or name
            country = mind.places.country(name) if len(name) > 3 else None
            if country is not None:
                found.append(country)
                end -= n
                break
        else:
            if words[end - 1] not in LIST_WORDS:
                break
            end -= 1
    return found


def _matching(mind: Mind, layer: Layer, fields: list[dict[str, Any]], words: str) -> Filter | None:
    """The values of these fields that a phrase names (each field's most frequent values, from
    the data), as a filter on the field that holds them."""
    wanted = [w for w in fold(words).split() if w not in FILLER] or fold(words).split()
    if not wanted:
        return None
    keys = [("stats", layer["layer_id"], field["name"], None) for field in fields]
    missing = [key for key in keys if key not in mind.data]
    if missing:
        raise Need(missing)
    phrase_ = " ".join(wanted)
    # a value said in the message's language ("Sul", kept as typed): its English too ("South")
    english = fold(lang.english(phrase_, mind.language)) if mind.language != "en" else phrase_
    said_as = [phrase_] if english == phrase_ else [phrase_, english]
    # a country in any language ("Allemagne", "Espanha"): its English name and its code
    # and each country of a list ("España, Francia y Portugal"), or its people's ("German")
    said_as += [n for c in _countries(mind, phrase_) for n in (fold(c.name), fold(c.code))]
    # "the European cities": the values that are countries of that continent
    continent = continents.named(fold(words)) if len(wanted) <= 4 else None
    for field, key in zip(fields, keys, strict=True):
        answer = mind.data[key]
        if not isinstance(answer, dict):
            continue
        values = [
            item["value"] for item in answer.get("distinct") or [] if item["value"] is not None
        ]
        hits = [v for v in values if any(_names(said, str(v)) for said in said_as)]
        if not hits and continent is not None:
            hits = [v for v in values if (c := mind.places.country(str(v))) and c.code in continent]
        if hits:
            op = "==" if len(hits) == 1 else "in"
            return {"field": field["name"], "op": op, "value": hits[0] if len(hits) == 1 else hits}
    return None


def _names(phrase_: str, value: str) -> bool:
    """Whether a phrase names a value ("museums": museum, "the north": North)."""
    folded = fold(value)
    if not folded:
        return False
    words = phrase_.split()
    plain = " ".join(singular(w) for w in words)
    if folded in (phrase_, plain, singular(phrase_)) or singular(folded) == plain:
        return True
    return len(words) > 1 and folded in {singular(w) for w in words} | set(words)
