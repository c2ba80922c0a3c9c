"""Readings of a clause that no grammar rule fits, from the kinds of words it holds.

People phrase a request in more ways than rules can list: "I only want to see the cafes",
"rivers should be crimson", "shift everything down", "initial view", "no roads please". When
no rule reads a clause, `guess` looks at what it holds: the layer it names (found by the agent,
given here as `layer`), a colour, a size, opacity or order word, a direction, a zoom, reset,
basemap or highlight word, and yields the readings those suggest, the most specific first, as
the same `Intent`s the rules make. The agent resolves them like any rule's reading, so a guess
that names nothing real changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from maproom.domain.chat.builtin import colours
from maproom.domain.chat.builtin.grammar import CATEGORY_WORDS, STYLE_WORDS, Intent
from maproom.domain.chat.builtin.text import number


def _any(words: str) -> re.Pattern[str]:
    """Any of `|`-separated words or phrases (regular expressions), as whole words."""
    return re.compile(r"\b(?:" + words + r")\b")


LABEL = _any(
    r"labels?|labell?ed|labell?ing|annotate|annotations?|captions?|names|titles|"
    r"(?:its|their|with|show) names?"
)
DESCRIBED = re.compile(r"(?:they|it|that|these|those|this)(?:'re|'s| are| is| look| looks)\b")
LOOKS = re.compile(
    r"\b(?:are|is|look|looks|seem|seems)(?: (?:way|too|so|really|very|a bit|kind of|quite|"
    r"rather|a little|now|still))* (?:tiny|small|big|huge|large|thin|thick)\b"
)
ORDERED = re.compile(r"(?:make|set|turn|render|draw|change|resize|scale)\b")
PLACE_SIDE = re.compile(
    r"\b(?:north|south|east|west)(?:ern)?(?:-?(?:east|west)(?:ern)?)? (?:of|america|africa|korea|"
    r"pole|sea|island|carolina|dakota|sudan|wales|australia|ossetia|asia|europe|china|"
    r"coast|side of)\b"
)
PAINT = _any(r"paint|colou?r|make|turn|change|set|recolou?r|tint")
PAINT_NOISE = frozenset({"the", "it", "them", "to", "in", "into", "please", "a", "all",
                         "everything", "colour", "color", "of"})  # fmt: skip
HEAT = _any(r"heat ?maps?|density|hot ?spots?")
BY = re.compile(
    r"\b(?:by|based on|according to|using|per|on)\s+(?:the |their |its |each )?"
    r"(?P<field>[\w\- ]+?)(?P<opts>(?:,? (?:in|with|using|into|as) .+|,? \S+ (?:classes|colou?rs|"
    r"groups|bins|buckets|steps|categories|breaks))?)$"
)
CLASSIFY = _any(
    r"colou?r(?:ed)?(?: code| coded)?|shade|style|classify|graduated|categori[sz]ed?|"
    r"choropleth|thematic|symboli[sz]e|group"
)
CLASSIFY_NOISE = re.compile(
    r"\b(?:as|a|an|the|in|into|with|using|map|maps|colou?rs?|classes|choropleth|thematic|"
    r"graduated|categori[sz]ed|please|layer|field|values?|\d+|for|of|by|on)\b"
)
ONLY = _any(r"only|nothing but|nothing except|exclusively|solely|alone")
HIDE = _any(
    r"hide|hidden|invisible|turn off|switch off|turned off|switched off|off|disable|"
    r"don'?t (?:want to |wanna )?see|do not (?:want to )?see|don'?t show|do not show|"
    r"conceal|not visible|don'?t (?:need|want)|do not (?:need|want)|no longer (?:need|want)"
)
SHOW = _any(
    r"show|unhide|visible|display|turn on|switch on|enable|reveal|bring back|see|back on|on"
)
ZOOM_TO = _any(
    r"zoom|fly|go|take me|jump|fit|frame|extent|bounds|where|centre|center|focus|locate|"
    r"find|navigate"
)
ORDER_UP = _any(r"up|higher|raise|forward|top|front|above everything")
ORDER_DOWN = _any(r"down|lower|backward|bottom|back|below everything|behind")
OPACITY = _any(
    r"opacity|opaque|transparent|transparency|see-through|see through|alpha|faded?|fainter|"
    r"translucent"
)
PERCENT = re.compile(r"(?P<value>\d+(?:\.\d+)?) ?(?:%|percent|per cent)")
BIGGER = _any(
    r"bigger|larger|wider|thicker|fatter|grow|enlarge|increase|double|"
    r"twice as (?:big|large|thick|wide)|bolder|heavier|huge|big|large|thick|biggest|largest"
)
SMALLER = _any(
    r"smaller|smallest|thinner|narrower|slimmer|shrink|decrease|reduce|halve|half|tiny|small|thin|"
    r"finer"
)
SIZE_VALUE = re.compile(
    r"\b(?:radius|size|width|thickness|stroke|line width|weight)\b.*?(?P<value>\d+(?:\.\d+)?)"
    r"|(?P<value2>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|"
    r"fifteen|twenty) ?(?:px|pixels?)\b"
)
HOME = re.compile(
    r"\b(?:reset|restore|original|initial|default|home|starting|start|beginning|first)\b.*"
    r"\b(?:view|position|zoom|extent|camera|location|place|spot)\b|"
    r"\bback\b.*\b(?:start(?:ed)?|beginning|began|begin|original(?:ly)?|how it was)\b|"
    r"\b(?:reset|recenter|re-center)\b|"
    r"\b(?:whole|entire|full|complete|all of the|all the|the) (?:world|planet|globe|earth)\b|"
    r"\b(?:global|world|planet|earth) (?:view|map|scale)\b"
)
DIRECTION = re.compile(
    r"\b(?P<dir>north|south|east|west|left|right|up|down|northeast|northwest|southeast|"
    r"southwest|north-east|north-west|south-east|south-west|northward|southward|eastward|"
    r"westward)s?\b"
)
MOVING = _any(
    r"move|pan|shift|scroll|slide|look|go|head|nudge|drag|show|see|what'?s|what is|more|"
    r"further|farther|bit|little|lot|everything|map|view|travel|push"
)
DISTANCE = re.compile(
    r"(?P<number>\d+(?:\.\d+)?) ?(?P<unit>km|kilometers?|kilometres?|miles?|mi|degrees?|°)"
)
ZOOM_IN = _any(r"zoom|closer|magnify|nearer|enlarge|detail|zoom in|in closer|get closer")
ZOOM_OUT = _any(
    r"out|further|farther|pull back|back out|back off|wider|zoom out|less detail|step back|"
    r"away|bigger picture|broader"
)
ZOOM_MAX = _any(r"max|maximum|all the way|fully|as far as|as close as|street level")
BASEMAP = _any(
    r"map|mode|basemap|base map|theme|background|style|view|tiles|imagery|look|colors|colours"
)
STYLE = re.compile(r"\b(?P<style>" + STYLE_WORDS + r")\b")
CATEGORY = re.compile(r"\b(?P<cats>" + CATEGORY_WORDS + r"|country borders|country boundaries)\b")
CATEGORY_OFF = _any(r"hide|no|without|off|remove|disable|drop|get rid of|lose|less")
CATEGORY_ON = _any(r"show|with|on|enable|display|add|bring back")
MASK = _any(
    r"highlight|mask|spotlight|isolate|emphasi[sz]e|focus on|dim|fade|shade|grey out|"
    r"gray out|darken|black out|blank out"
)
MASK_NOISE = re.compile(
    r"\b(?:highlight|mask|spotlight|isolate|emphasi[sz]e|focus on|dim|fade|shade|grey|gray|"
    r"darken|black|blank|out|the rest of the world|the rest|rest of the world|everything else|"
    r"everything|all(?: the)? other countries|(?:the )?other countries|all countries|"
    r"every other country|the world|world|except(?: for)?|but|apart from|besides|other than|"
    r"only|just|and|instead|please|on the map|the country of|the country|country|"
    r"around|outside|so|that|it|stands out|is|show|display|keep|leave)\b"
)


QUESTION = re.compile(r"(?:which|what|who|whose|how|where|why|when|is|are|does|do)\b", re.I)


# What somebody did, told as such ("someone must have switched the cities off"): no request
REPORTED = re.compile(
    r"(?:someone|somebody|something|they|he|she|i|we|you|it)\b(?: \w+)?? (?:must|might|may|"
    r"probably|seems? to|accidentally|somehow)? ?(?:'ve|have|has|had)(?: been)? \w+(?:ed|en|wn)\b|"
    r"(?:someone|somebody|something) \w+ed\b|"
    # "that doesn't look right after all": a complaint, no direction
    r"(?:that|it|this|they|these|those|the \w+)(?: \w+)?? (?:doesn'?t|does not|don'?t|do not|"
    r"isn'?t|is not|aren'?t|are not|didn'?t|did not) (?:look|seem|work|fit|read|come out)|"
    # "that's the campaign city", "the rotation confuses people": said of things, no request
    r"(?:that|this|it) (?:is|was|'s) (?:\w+ )?(?:the|our|a|an|my) |"
    r"(?:that|this|it)(?:'s| is| was) (?:for|about|because|just|only|going|needed)\b|"
    r"[\w ]{1,40}? (?:is|are) (?:enough|sufficient|plenty)\b|"
    # "the print shop insists north is at the top": what somebody says
    r"(?:the |our |my )?[\w ]{1,30}? (?:says|said|insists|insisted|thinks|thought|told (?:us|me)|"
    r"reckons|feels|mentioned|complained) |"
    r"the (?:\w+ )?\w+ (?:confuses|bothers|annoys|distracts|irritates|worries|scares) |"
    r"the (?:world|whole) (?:view|map) (?:looks|is|seems) "
)


def guess(text: str, layer: str | None, after: str = "") -> Iterator[Intent]:
    """Readings of a clause (`text`, command words spelled right) that no rule read. `layer`:
    the words that name a layer, as typed, if the agent found some; `after`: the clause's
    words after them (where "by population" or "above the rivers" is)."""
    if REPORTED.match(text):
        return
    if layer is not None:
        # a question about a layer ("which is the biggest city?") never changes its style
        if not QUESTION.match(text):
            yield from _on_layer(text, layer, after)
        return
    yield from _on_map(text)


def _on_layer(text: str, layer: str, after: str) -> Iterator[Intent]:
    slots = {"layer": layer, "clause": text}
    if LABEL.search(text) and not re.search(r"\b(?:rename|call|called|named)\b", text):
        # "I want to see the city names", "cities labelled please"
        by = re.search(r"\b(?:with|by|using|showing) (?:the |their |its )?(?P<field>[\w ]+)$",
                       after)  # fmt: skip
        field = by.group("field") if by and not LABEL.fullmatch(by.group("field")) else ""
        off = re.search(r"\b(?:hide|remove|no|off|without|drop)\b", text)
        off_slot = {"off": "off"} if off else {}
        yield Intent("label", {**slots, "field": field or "name", **off_slot})
    if HEAT.search(text):
        yield Intent("heatmap", dict(slots))
    by = BY.search(after)
    if by and (CLASSIFY.search(text) or " by " in f" {after} "):
        yield Intent("classify", {**slots, "field": by.group("field"), "opts": by.group("opts")})
    elif CLASSIFY.search(text) and not _colour(after):  # "population as a choropleth"
        field = CLASSIFY_NOISE.sub(" ", after).split()
        if field:
            yield Intent("classify", {**slots, "field": " ".join(field[:3]), "opts": after})
        # "a choropleth of the population of the counties": any word before the layer may be
        # the field; one that is no field of the layer does not resolve
        before = text[: text.lower().find(layer.lower())] if layer.lower() in text.lower() else ""
        for word in reversed(CLASSIFY_NOISE.sub(" ", CLASSIFY.sub(" ", before.lower())).split()):
            yield Intent("classify", {**slots, "field": word, "opts": after})
    if ONLY.search(text) and (SHOW.search(text) or not HIDE.search(text)):
        yield Intent("only", dict(slots))
    # No removal is ever guessed from keywords ("remove the outline of the counties" is no
    # removal of the counties): the grammar's plain phrasings remove layers, nothing else.
    percent = PERCENT.search(text)
    if OPACITY.search(text) or (percent and not SIZE_VALUE.search(text)):
        yield from _opacity(text, slots, percent)
    if DESCRIBED.match(text) or (LOOKS.search(text) and not ORDERED.match(text)):
        return  # "they're way too small", "the cafe dots are tiny": how it looks, not what to do
    size = SIZE_VALUE.search(text)
    if size:
        yield Intent("size", {**slots, "value": size.group("value") or size.group("value2")})
    if BIGGER.search(text) or SMALLER.search(text):
        grow = bool(BIGGER.search(text)) and not SMALLER.search(text)
        much = re.search(r"\b(?:much|a lot|way|huge|tiny)\b", text)
        little = re.search(r"\b(?:bit|little|slightly|tad)\b", text)
        how = ("much " if much else "a bit " if little else "") + ("bigger" if grow else "smaller")
        times = re.search(
            r"\b(?:(?P<n>\w+) times|(?P<two>twice|double)|(?P<half>half|halve))\b", text
        )
        if times:  # "twice as big", "three times larger", "half the size"
            factor = 2.0 if times.group("two") else 0.5 if times.group("half") else None
            factor = factor or number(times.group("n") or "")
            if factor:
                how = f"times {factor:g}"
        yield Intent("size", {**slots, "how": how})
    colour = _colour(after) or _colour(text.replace(layer.lower(), " "))
    if colour:
        yield Intent("colour", {**slots, "color": colour})
    if HIDE.search(text):
        yield Intent("hide", dict(slots))
    if ZOOM_TO.search(text):
        yield Intent("zoom_layer", dict(slots))
    if ORDER_UP.search(after) or ORDER_DOWN.search(after):
        where = "up" if ORDER_UP.search(after) else "down"
        top = re.search(r"\b(?:top|front|above everything)\b", after)
        bottom = re.search(r"\b(?:bottom|behind everything|below everything|to the back)\b", after)
        yield Intent(
            "move_layer", {**slots, "where": "top" if top else "bottom" if bottom else where}
        )
    if SHOW.search(text):
        yield Intent("show", dict(slots))


def _opacity(text: str, slots: dict[str, str], percent: re.Match[str] | None) -> Iterator[Intent]:
    transparent = bool(re.search(r"transparen|see.through|translucent|fade", text))
    fraction = re.search(r"(?<![\w.])(?P<value>0?\.\d+|[01](?:\.0+)?)(?![\w.%])", text)
    if fraction and not percent:  # "opacity 0.3"
        unit = "transparent" if transparent and "opacity" not in text else "opacity"
        yield Intent("opacity", {**slots, "value": fraction.group("value"), "unit": unit})
    elif percent:
        unit = "transparent" if transparent and "opacity" not in text else "opacity"
        yield Intent(
            "opacity", {**slots, "value": percent.group("value"), "pct": "%", "unit": unit}
        )
    elif re.search(r"\bhalf\b", text):
        yield Intent("opacity", {**slots, "value": "50", "pct": "%", "unit": "opacity"})
    elif re.search(r"\b(?:fully|completely|totally|100 ?%)\b", text) and "opaque" in text:
        yield Intent("opacity", {**slots, "value": "100", "pct": "%", "unit": "opacity"})
    else:
        less = re.search(r"\b(?:less|lower|reduce|decrease)\b", text)
        if transparent:
            how = "less transparent" if less else "more transparent"
        else:
            how = "more transparent" if less or "fade" in text else "more opaque"
        yield Intent("size", {**slots, "how": how})


def _colour(text: str) -> str | None:
    """The longest run of words (three at most) that names a colour."""
    words = re.findall(r"#?[\w-]+", text.lower())
    for size in (3, 2, 1):
        for start in range(len(words) - size + 1):
            phrase = " ".join(words[start : start + size])
            if phrase in ("light", "dark", "bright", "deep", "pale"):
                continue
            if colours.parse(phrase) is not None and not phrase.isdigit():
                return phrase
    return None


def _on_map(text: str) -> Iterator[Intent]:
    slots = {"clause": text}
    if MASK.search(text):
        place = re.sub(r"\s+", " ", MASK_NOISE.sub(" ", text)).strip(" ,")
        if place:
            yield Intent("mask", {**slots, "place": place})
    category = CATEGORY.search(text)
    if category and (CATEGORY_OFF.search(text) or CATEGORY_ON.search(text)):
        off = CATEGORY_OFF.search(text)
        cats = category.group("cats").replace("country ", "")
        yield Intent("basemap_category", {**slots, "verb": "hide" if off else "show", "cats": cats})
    if HOME.search(text):
        yield Intent("home", dict(slots))
    style = STYLE.search(text)
    if style and BASEMAP.search(text):
        yield Intent("basemap", {**slots, "style": style.group("style")})
    direction = DIRECTION.search(text)
    if direction and PLACE_SIDE.search(text):
        direction = None  # "the south of Spain", "a slide on south america": no pan
    if direction and MOVING.search(text):
        yield from _pan(text, direction.group("dir"), slots)
    zoom_out = ZOOM_OUT.search(text)
    if ZOOM_IN.search(text) or zoom_out:
        amount = _zoom_amount(text)
        if amount is not None:
            yield Intent("zoom", {**slots, "dir": " out" if zoom_out else " in", "amount": amount})
    if re.fullmatch(
        r"(?:change|set|pick|choose|switch|alter|modify|update)(?: the| its| their)?"
        r" colou?rs?",
        text,
    ):  # "change the colour": of what, and to what?
        yield Intent("colour", {**slots, "layer": "it", "uncoloured": "yes"})
    colour = _colour(text)
    if colour and PAINT.search(text):  # "paint it orange", "change the colour to red": of what?
        # (but "colour the dragons purple" names something that is no layer)
        rest = PAINT.sub(" ", text.replace(colour, " ")).split()
        if not [word for word in rest if word not in PAINT_NOISE]:
            yield Intent("colour", {**slots, "layer": "it", "color": colour})


def _pan(text: str, direction: str, slots: dict[str, str]) -> Iterator[Intent]:
    direction = direction.replace("-", "").removesuffix("ward")
    distance = DISTANCE.search(text)
    amount = ""
    if distance:
        amount = f" by {distance.group('number')} {distance.group('unit')}"
    elif re.search(r"\b(?:bit|little|slightly|tad|touch)\b", text):
        amount = " a bit"
    elif re.search(r"\b(?:lot|far|much|way)\b", text):
        amount = " a lot"
    yield Intent("pan", {**slots, "dir": direction, "amount": amount.strip()})


def _zoom_amount(text: str) -> str | None:
    if ZOOM_MAX.search(text):
        return "all the way"
    if re.search(r"\b(?:bit|little|slightly|tad|touch)\b", text):
        return "a bit"
    if re.search(r"\b(?:lot|much|way|far)\b", text):
        return "a lot"
    count = re.search(r"\b(\w+) (?:levels?|times|steps|notches)\b", text)
    if count:
        return f"{count.group(1)} levels"
    return ""
