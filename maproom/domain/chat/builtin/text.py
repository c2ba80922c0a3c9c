"""Text as people type it: normalised, numbers read, command words spelled right.

`normalise` lower-cases, straightens quotes, drops politeness ("please", "can you") and
trailing punctuation, and folds spaces. `Spelled` fixes typos in command words ("zom in",
"swich to dark mode", "hidde"): a word is corrected when it is not a word the agent knows and
it is close to a command word: one edit (a swap of two letters counts as one), two for long
words, same first letter.
Corrections keep the words in place, so what a command names (a place, a layer, a new name) is
read back from the words as typed (`Spelled.typed`): "fly to pars" matches the grammar as
"fly to parks" but looks up "pars".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from rapidfuzz.distance import OSA

from maproom.domain.chat.builtin import colours

# Earlier words win when a typo is as close to two of them ("hidde": hide, not hidden).
VOCABULARY = tuple(
    """
    fly go take bring show hide zoom pan move jump center centre navigate head travel find
    locate focus display view visit open rename call name remove delete drop clear erase
    colour color paint make change set switch turn toggle list highlight mask unmask isolate
    outline spotlight reset home enable disable classify shade style
    heat world whole level levels bigger smaller larger thicker thinner wider narrower
    transparent opaque opacity transparency visible invisible hidden only layer layers
    basemap background map dark light satellite streets street imagery aerial blank offline
    roads labels water parks buildings boundaries land borders names north south east west
    left right up down closer further farther little bit lot twice times all way everything
    except heatmap graduated categorized categorise categorize quantile quantiles equal
    intervals classes colors colours ramp mode theme please points lines polygons red green
    blue yellow orange purple black white grey gray pink brown
    undo redo revert rotate rotation tilt pitch bearing degrees perspective label labels
    labelled buffer buffers clip dissolve merge aggregate filter filtered unfilter
    biggest largest smallest highest lowest longest shortest greatest fewest cheapest
    populous visited popular rated expensive maximum minimum average mean total sum
    combined overall count fields attributes columns properties kinds categories
    weighted weight proportional separate extract kilometers kilometres miles meters
    metres clockwise counterclockwise above below
    """.split()  # noqa: SIM905 (a word list reads best as text)
)
COMMAND_WORDS = frozenset(VOCABULARY)
# Everyday words that are never typos of a command word ("there" is not "theme").
COMMON = frozenset(
    """
    the a an and or but if then than them they their there these those this that what when
    wide thick pixel pixels px perhaps maybe shape shapes
    write writes wrote written writing read reading blackboard whiteboard newsletter
    where which while who whom whose why how with without within from into onto over under
    above below between behind before after again once some any each every both more most
    less least much many very just only also too here your yours mine ours its it's let me
    my our you we he she his her him are was were been being have has had having does did
    doing done can could would should will shall might must may not nor out off per via
    about across along around near next to of in on at by for as is be do go up all one two
    three four five six seven eight nine ten first last new old big small other others
    same such own so yes no ok okay please thanks thank tell give get got put see look want
    need like know think say said use used using add added adding data file files layer
    city country state region place places town area areas point line lines road street
    map maps view show shows showing colour color size name names type types value values
    number count time times day days part whole rest other set sets like way ways back
    rotated tilted zoomed moved panned coloured colored hidden shown changed filtered
    removed renamed styled labelled labeled flipped turned messed broken wrong weird
    rid fit got yet outside inside besides apart until unless into onto upon too
    county district province municipality neighbourhood neighborhood site sites river
    lat lon lng latitude longitude coordinates wait sorry oops nope actually parts bits pieces
    countries cities states regions towns max min sea seas ocean oceans lake lakes
    park road border borders boundary label close near far
    most least best worst top bottom values kind sort sorts class classes group number
    numbers many much have has had having whose where which who whom what's whats each
    every inside within between exactly equal same thing things again people visitors
    population long short high low big small large value field column feature features
    called named new copy save keep only just also too both either neither none nothing
    changes change steps step times things actions action edits edit last previous
    """.split()  # noqa: SIM905 (a word list reads best as text)
)
POLITE = re.compile(
    r"^(?:please to\s+|(?:no,? )?actually,?\s+|"
    r"(?:quick one|quick question|quick -|one more thing|nah|nope|yo|oh dear|dear me|"
    r"on second thoughts?|on reflection|come to think of it|thinking about it|"
    r"please|pls|plz|kindly|hey|hi|hello|ok|okay|alright|right|now|then|also|and|so|but|"
    r"(?:hmm+,? )?no(?=,? (?:go back|undo|revert|wait|put it back))|"
    r"um+|uh+|hm+|well|oh|yes|yeah|quickly|quick|actually|maybe|first|next|finally|"
    r"lastly|(?:oops|whoops|sorry|my bad)[.!]?|(?:you'?d |we'?d )?better|question|"
    r"out of interest|just curious|assistant|computer|maproom)[,:!]?\s+|"
    # the teacher to the class: "who can guess how many ..."
    r"(?:who can guess|who knows|can anyone (?:guess|tell me)|(?:does )?anyone know|"
    r"let'?s (?:see|find out)|guess)\s+(?=how|what|which|where)|"
    r"(?:you|u) (?:can|could)(?: now| just)?\s+(?!see\b|tell\b|not\b|also\b|only\b)(?=\w)|"
    r"(?:would|do) you mind\s+|"
    # the wordy and polite: "I was wondering whether you might be able to", "would it be
    # terribly difficult to", "I'd be ever so grateful if you could", "might we see"
    r"i (?:was |am |'m )?(?:just )?(?:wondering|wonder|hoping|hope)(?: (?:whether|if|that))?"
    r"(?: (?:you|we|i) (?:might|could|would|can|may|will)(?: possibly| perhaps| kindly)?"
    r"(?: be able to)?)?[,:]?\s+|"
    r"(?:would|will|is) it be (?:(?:terribly|too|very|awfully|at all|much|a) )*"
    r"(?:difficult|hard|much trouble|trouble|a bother|possible|ok|okay|alright) "
    r"(?:for you )?(?:to|if you (?:could|would|can))\s+|"
    r"(?:i'?d|i would|we'?d|we would) be (?:(?:ever|so|very|most|really|terribly) )*"
    r"(?:grateful|obliged|thankful|glad|delighted) if (?:you|u) (?:could|would|can|might)"
    r"(?: possibly| perhaps| kindly)?\s+|"
    r"(?:might|may) (?:you|u)(?: possibly| perhaps| kindly)?\s+|"
    r"(?:might|may) (?:we|i)(?: possibly| perhaps| please)?\s+(?=see|have|get|look|show)|"
    r"(?:can|could|would|will) (?:you|u),*\s+(?:please,*\s+|pls\s+|kindly\s+|just\s+)?(?:to )?|"
    r"(?:can|could|shall|may) (?:we|i)\s+(?:please\s+|maybe\s+|just\s+)?|"
    r"(?:would|do) you mind\s+|i (?:want|would like|need|wanna)(?: you)?(?: to)?\s+(?=\w)|"
    r"(?:is it |would it be |it is |it's |is )?possible(?: for you)? to\s+|is there a way to\s+|"
    r"i(?:'d| would)? (?:really |dearly |so |very much )?(?:love|like) (?:you )?(?:to )?(?=\w)|"
    r"(?:let'?s|lets)\s+|i'?d like (?:you )?(?:to )?(?=\w)|go ahead and\s+|try to\s+|"
    r"(?:please )?help me\s+|(?:but )?(?:ignore|disregard|skip|never mind|don'?t do|do not do) "
    r"(?:that|this|it|them|those)(?: (?:for now|for the moment))?[,.;:!]*\s+|"
    r"(?:just )?tell me(?= (?:how|what|which|where|who|whether)\b)\s*|"
    r"just(?= (?:zoom|fly|go|pan|move|make|colou?r|highlight|mask|"
    r"switch|change|hide|remove|delete|rename|reset|take|set|turn|put|bring|send)\b)\s*)+",
    re.IGNORECASE,
)
TRAILING = re.compile(
    r"(?:\s+(?:please|pls|plz|for (?:me|us|everyone|everybody|the class|all of us)|now|"
    r"for (?:this one|this time|now|today|the moment|the time being)|"
    r"(?:thanks|thank you)(?: (?:ever )?so much| very much| a "
    r"lot)?|thx|ty|cheers|i guess|if you can|"
    r"if (?:it'?s|it is|that'?s|that is) (?:no|not too much|not any) (?:trouble|bother)"
    r"(?: at all)?|"
    r"if (?:it|that) isn'?t (?:too much )?(?:trouble|a bother)|if you (?:don'?t|do not) mind|"
    r"if (?:that'?s|that is|it'?s|it is) (?:ok|okay|alright|all right|possible|not a problem)|"
    r"if you(?:'d| would) be so kind|if you(?:'d| would) be so good|"
    r"if possible|if you could|when you can|real quick|right now|asap|ok|okay|up close|"
    r"close up|(?:in|from|has|have|according to) (?:the|this|my|our) (?:data|dataset|data set|"
    r"list|table|"
    r"map)|show (?:me|us)|"
    r"(?:can|could) (?:you|u) (?:show|find) (?:me|it|us)(?: on the map)?|is better|"
    r"looks better|would be better|instead|next|entirely|completely|altogether|at all|"
    r"actually|(?:on|in) here|where (?:it|they) (?:belongs?|should be)|as it should be)|"
    r"[\s,]+(?:in |for |as per |per )?(?:our |the )?(?:house|brand|"
    r"company|corporate) (?:style|colou?rs?|palette|guidelines)|"
    r"[\s,.!?;:]+)+$",
    re.IGNORECASE,
)
# What a request said in the passive is done by ("could the districts be shaded ..."): its verb
PARTICIPLES = {
    "shaded": "shade", "coloured": "colour", "colored": "color", "sized": "size",
    "classified": "classify", "labelled": "label", "labeled": "label", "hidden": "hide",
    "shown": "show", "highlighted": "highlight", "scaled": "scale", "moved": "move",
    "renamed": "rename", "removed": "remove", "deleted": "delete", "made": "make",
    "turned": "turn", "switched": "switch", "drawn": "draw", "displayed": "display",
    "painted": "paint", "filtered": "filter", "zoomed": "zoom", "centred": "centre",
    "centered": "center", "rotated": "rotate", "tilted": "tilt", "outlined": "outline",
    "merged": "merge", "clipped": "clip", "buffered": "buffer", "styled": "style",
    "weighted": "weight", "set": "set", "put": "put", "brought": "bring", "changed": "change",
}  # fmt: skip
# "Good morning! For the report I need ...": a greeting before the request
GREETING = re.compile(
    r"^(?:(?:hi|hello|hey|good (?:morning|afternoon|evening)|morning|dear \w+)(?: there| all| tea"
    r"m)?"
    r"[,.!:]* +(?=\w)|(?:thanks|thank you|great|perfect|lovely|brilliant)(?: so much| very "
    r"much)?[,.!]*(?: -)? +(?=(?:can|could|would|will|please|now|and|also|next|then)\b))+",
    re.IGNORECASE,
)
# "The cities, can you make them bigger?": the layer said first, then what to do with it
TOPIC = re.compile(
    r"^(?:for |as for |about )?(?P<topic>(?:the|my|our|all the) "
    r"(?!\w+ (?:is|are|was|were|looks?|seems?)\b)"
    # "For the handout, could you label them": what it is for, no layer
    r"(?!(?:\w+ )?(?:handout|slide|deck|report|presentation|meeting|poster|brochure|leaflet|flyer|"
    r"article|story|newsletter|lesson|class|talk|website|page|post|print|briefing|panel|press|"
    r"board|client|customer|exhibition)s?,)[a-z]+"
    r"(?: [a-z]+){0,2}),\s+(?P<rest>(?:[\w']+ ){1,6}?)"
    r"(?:them|it)\b",
    re.IGNORECASE,
)
# "Apologies, I meant Portugal", "Sorry, my mistake. I meant ...": the correction itself
APOLOGY = re.compile(
    r"^(?:(?:my )?apologies|sorry|my mistake|my bad|oops)(?:[,.!]*\s+(?:my mistake|my bad))?"
    r"[,.!]*\s+(?=i meant\b|i mean\b)",
    re.IGNORECASE,
)
# "could you show the name of each city": the request, read before the shorthands
ASKED = re.compile(
    r"^(?:(?:please|kindly|pls)[,]?\s+(?!to )|(?:would|do) you mind\s+|(?:can|could|would|will) "
    r"(?:you|u)\s+(?:please\s+|kindly\s+|just\s+)?(?:to\s+(?=\w+ the\b))?)+",
    re.IGNORECASE,
)
NUMBER_NAMES = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}  # fmt: skip
_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9}  # fmt: skip
_VERB = {"hid": "hide", "remov": "remove", "show": "show", "turn": "turn", "switch": "switch",
         "colour": "colour", "color": "color", "mak": "make"}  # fmt: skip
# Verbs a request starts with (after what it is for: "for the panel, put France ...")
VERBS = (
    r"(?:fly|go|zoom|show|take|make|colou?r|hide|put|set|add|draw|highlight|label|size|move|"
    r"switch|turn|bring|pan|center|centre|rotate|tilt|filter|remove|delete|rename|classify|"
    r"merge|dissolve|buffer|clip|count|undo|redo|use|give|shade|paint|outline|drop|get rid)"
)
ASKING = (
    r"(?:(?:can|could|would|will) you (?!mind)(?:please )?|please )?(?=\w)"  # after what it is for
)
# ESL comparatives and superlatives ("more big", "the city more big"): the English forms
COMPARED = {
    "big": ("bigger", "biggest"), "small": ("smaller", "smallest"),
    "large": ("larger", "largest"), "long": ("longer", "longest"),
    "short": ("shorter", "shortest"), "thick": ("thicker", "thickest"),
    "thin": ("thinner", "thinnest"), "wide": ("wider", "widest"), "near": ("nearer", "nearest"),
    "close": ("closer", "closest"), "far": ("further", "furthest"),
    "dark": ("darker", "darkest"), "light": ("lighter", "lightest"),
    "bright": ("brighter", "brightest"), "high": ("higher", "highest"),
    "low": ("lower", "lowest"), "populated": ("more populated", "most populated"),
    "visited": ("more visited", "most visited"), "popular": ("more popular", "most popular"),
}  # fmt: skip
SHORTHAND: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # "... please? Many thanks. Kind regards, Maria": how a letter ends
    (
        re.compile(
            r"(?<=\S)[.!?,]?\s*(?:(?:and |& )?(?:many thanks|thanks(?: very much| a lot| so much|"
            r" in "
            r"advance)?|thank you(?: very much| so much| in advance)?|kind regards|best regards|"
            r"best wishes|warm regards|regards|all the best)[,.!]*\s*)+(?:(?-i:[A-Z])\w+)?[.!]*$",
            re.I,
        ),
        "",
    ),
    (re.compile(r"\b(?:u)\b", re.IGNORECASE), "you"),
    (re.compile(r"\b(?:ur)\b", re.IGNORECASE), "your"),
    (re.compile(r"\bteh\b", re.IGNORECASE), "the"),
    (re.compile(r"\b(zoom|go|fly|move|pan|jump) ot\b", re.I), r"\1 to"),  # "zoom ot madrid"
    (re.compile(r"\blvl\b", re.I), "level"),
    # "all the Algarve, from Sagres until Vila Real": how far the place goes, said again
    (re.compile(r",? from (?:the )?[\w' -]+? (?:until|till) [\w' -]+(?=$|[,.!?])", re.I), ""),
    (re.compile(r"\b(the [A-Z][\w-]+) complete(?:, all the country)?\b"), r"\1"),
    # "Lagos, the city here in the Algarve": Lagos in the Algarve
    (
        re.compile(
            r"\b([A-Z][\w'-]+(?: [A-Z][\w'-]+)?),? (?:the|a) (?:city|town|village|one) "
            r"(?:here |there |down |up )?in (?:the )?([A-Z][\w' -]+)"
        ),
        r"\1 in \2",
    ),
    # "I prefer the map dark": make it dark
    (
        re.compile(
            r"^(?:i|we)(?:'d| would)? prefer (the map|the basemap|the background|it) ", re.I
        ),
        r"make \1 ",
    ),
    # "the sea is too much light, I want it in dark blue": the sea in dark blue
    (
        re.compile(
            r"^(the [\w ]{2,20}?) (?:is|are|looks?|seems?) (?:too(?: much)?|very|so|a bit) "
            r"\w+,? (?:i|we) (?:want|need|would like|'d like|prefer) (?:it|them) (?:in )?",
            re.I,
        ),
        r"make \1 ",
    ),
    # "the map without background": no basemap
    (
        re.compile(
            r"\b(?:the map )?without (?:a |any |the )?(?:background(?: map)?|basemap|base map)"
            r"(?: at all)?\b",
            re.I,
        ),
        "no basemap",
    ),
    # "the cafes on the top, over the rivers and the counties": on top (of all the others)
    (
        re.compile(r"\b((?:on|to|at) (?:the )?top),? (?:over|above) (?:the |all )?[\w ]+$", re.I),
        r"\1",
    ),
    # "see the museums only": only the museums
    (
        re.compile(r"^(show|see|display|keep)( me)? (the [\w ]+?) only(?=$|,)", re.I),
        r"\1\2 only \3",
    ),
    # "only the museums, not the monuments and parks": the others are left out anyway
    (re.compile(r"(\bonly\b[^,]*?),? (?:and |but )?not (?:the )?[\w ]+$", re.I), r"\1"),
    # "..., the new campaign is only about Lisbon": what something is about, after the request
    (
        re.compile(
            r"(?<=\w)[,.;] +(?:the|our|my|this|that) [\w ]{1,30}? (?:is|are|was|will be) "
            r"(?:only |just |all |mostly |mainly )?about [\w ,'-]+$",
            re.I,
        ),
        "",
    ),
    # "Hide the dots, they're covering the streets": why, after the request
    (
        re.compile(
            r"(?<=\w)[,.;] +(?:they|it|that)(?:'re| are|'s| is) (?:\w+ing|in the way)\b[^.!?]*",
            re.I,
        ),
        "",
    ),
    # "The map is so far out I can't see anything. Zoom in a little": the complaint, then what
    (
        re.compile(
            r"^the (?:map|view) is (?:so|too|way too|much too|very|really) (?:far out|far away|"
            r"zoomed out|far|close|zoomed in)[^.!?]*[.!?]+\s+(?=\w)",
            re.I,
        ),
        "",
    ),
    # "put Cafes above Rivers in the draw order": above them
    (
        re.compile(
            r" in the (?:draw(?:ing)?|layer|stacking|display) order\b|"
            r" in the (?:layer )?(?:stack|list)(?= *$)",
            re.I,
        ),
        "",
    ),
    # "basemap water colour #1f4e79": the water on the basemap
    (
        re.compile(
            r"^(?:the )?(?:basemap|base map|background map)(?:'s)? (?=(?:water|roads?|labels?|"
            r"parks?|buildings?|land|borders?)\b)",
            re.I,
        ),
        "",
    ),
    # "bigger cities = bigger circles": sized by what makes them bigger
    (
        re.compile(
            r"^(?:the )?bigger (\w+) ?(?:=|->|means|get) ?(?:the )?bigger (?:circles|dots|"
            r"points|symbols|markers|bubbles)$",
            re.I,
        ),
        r"make the \1 bigger when they are bigger",
    ),
    # "real photos from above": the satellite basemap; "the normal street map": the street map
    (
        re.compile(
            r"\b(?:real |aerial |actual )?(?:photos?|pictures?|images?|imagery) (?:from above|"
            r"from the sky|from space)\b",
            re.I,
        ),
        "satellite",
    ),
    (
        re.compile(r"^(?:can (?:i|we) )?see (?:the )?satellite\b(?:,? like satellite)?", re.I),
        "switch to satellite",
    ),
    (
        re.compile(r"\bthe (?:normal|usual|regular|standard|ordinary) street map\b", re.I),
        "the street map",
    ),
    # "Madrid, street level": zoom to street level in Madrid
    (
        re.compile(
            r"^(?P<p>[A-Z][\w'-]+(?: (?:de |da |do |del )?[A-Z][\w'-]+)*),? (?:at |in |to )?"
            r"(?P<s>street|city|town|neighbou?rhood|block|building|country|region) "
            r"(?:level|scale|view)$"
        ),
        r"zoom to \g<s> level in \g<p>",
    ),
    # "counties in classes by population, 4 of them": in 4 classes
    (
        re.compile(r"\bin (?:classes|groups|bins) (by|on|using) ([\w ]+?),? (\w+) of them\b", re.I),
        r"\1 \2 in \3 classes",
    ),
    # "get rid of the points, both of them": both the points
    (
        re.compile(r"\bthe (point|line|polygon|area|dot|shape)s,? (both|all) of them\b", re.I),
        r"\2 \1 layers",
    ),
    # "the city more big of the map": the biggest city; "more thick": thicker
    (
        re.compile(
            r"\bthe ([a-z]+) (?:more|most) (big|small|large|long|short|thick|thin|populated|"
            r"visited|popular|high|low) (?:of|in|on) (?:the|my|our|all the) "
            r"(?:map|list|data|layer|\w+)\b",
            re.I,
        ),
        lambda m: f"the {COMPARED[m[2].lower()][1]} {m[1]}",
    ),
    (
        re.compile(
            r"\bmore (big|small|large|long|short|thick|thin|wide|near|close|far|dark|light|"
            r"bright|high|low)\b",
            re.I,
        ),
        lambda m: COMPARED[m[1].lower()][0],
    ),
    # "to show where tourists concentrate, turn ...": what it is for, said first
    (
        re.compile(
            r"^to (?:show|see|make|help|give|highlight|illustrate|compare|explain) [^,]{1,60}, "
            r"(?=\w)",
            re.I,
        ),
        "",
    ),
    # "For the council slide, could you ...", "for Thursday's meeting I need ...": what it is
    # for, said first
    (
        re.compile(
            r"^for (?:the|my|our|a|an|this|tomorrow'?s) (?:(?!(?:only|is|are|matters?)\b)[\w'-]+ ?)"
            r"{1,3}[,:] " + ASKING,
            re.I,
        ),
        "",
    ),
    (
        re.compile(
            r"^for (?:the|my|our|a|an|this|next|tomorrow'?s|\w+'s) [\w' -]{1,60}?,? (?:(?=(?:i|we) "
            r"(?:only |just )?(?:need|want|would like|'d like|prefer)\b|"
            r"(?:i'd|we'd) (?:like|prefer)"
            r"\b)|(?=(?:pleas"
            r"e|can|could|would|"
            r"will|may)\b\s+\w)" + ASKING + ")",
            re.I,
        ),
        "",
    ),
    # "a million visitors", "at least a thousand": one
    (
        re.compile(
            r"(?<!half )\b(?:a|one) (thousand|million|billion|km|kilomet(?:er|re)|mile|"
            r"met(?:er|re))\b",
            re.I,
        ),
        r"1 \1",
    ),
    # "heatmap the cities, weighted by population": one request
    (re.compile(r",? (weighted|weighed) by\b", re.I), r" \1 by"),
    # "sites layer: keep only the monuments": the request, on that layer
    (
        re.compile(
            r"^(?:the |in the |on the |for the )?(?P<l>[\w ]{1,40}?) layer ?[:\-] ?(?P<r>.+)$", re.I
        ),
        r"\g<r> in the \g<l> layer",
    ),
    # "zoom out to the whole country": the country of the place named last
    (
        re.compile(
            r"\bzoom out (?:to (?:see )?|so (?:i|we) (?:can )?see )(the (?:whole|entire) "
            r"(?:country|nation))",
            re.I,
        ),
        r"go to \1",
    ),
    # "forty-five degrees": 45 (a ten and a unit written as one number)
    (
        re.compile(
            r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ](one|two|three|four|"
            r"five|six|seven|eight|nine)\b",
            re.I,
        ),
        lambda m: str(_TENS[m[1].lower()] + _UNITS[m[2].lower()]),
    ),
    (re.compile(r"\b(?:a|one) hundred (?:and )?eighty\b", re.I), "180"),
    # "tilt it by 30 degrees" (it: the map), "incline-la de quarante degrés": by
    (
        re.compile(
            r"\b(tilt|pitch|rotate|turn)(?: it| them| the map| the view)? (?:of|by) (?=\d)", re.I
        ),
        r"\1 the map by ",
    ),
    # "where did the cities go? I want to see them", "the sites have disappeared": show them
    (
        re.compile(
            r"^where (?:did|have|has) ((?:the|my|our) [\w ]{1,30}?) (?:go|gone|disappear(?:ed)?|"
            r"vanish(?:ed)?)\b.*$",
            re.I,
        ),
        r"show \1",
    ),
    (
        re.compile(
            r"^((?:the|my|our) [\w ]{1,30}?) (?:have|has) (?:disappeared|vanished|gone)\b.*$", re.I
        ),
        r"show \1",
    ),
    # "can the water on the background map be #0a3d62?": make it so
    (
        re.compile(
            r"^(?:can|could|would) (the [\w ]{1,30}?(?: on the (?:background map|background|basem"
            r"ap|base "
            r"map|map))?) be (.+)$",
            re.I,
        ),
        r"make \1 \2",
    ),
    # "the roads on the background map are distracting, can you hide them?"
    (
        re.compile(
            r"^(the [\w ]{1,40}?) (?:are|is) (?:a bit |really |very |so |too )?(?:distracting|"
            r"annoying|in the way|busy|confusing|too much|ugly|cluttered)[,.!]* (?:(?:can|could|"
            r"would) you )?(?:please )?(hide|remove|turn off|switch off|get rid of|drop) "
            r"(?:them|it)\b.*$",
            re.I,
        ),
        r"\2 \1",
    ),
    # "make it cleaner by hiding the roads": the means is the request
    (
        re.compile(
            r"^(?:make|get) (?:it|the map|things) [\w ]{1,20}? by (hid|remov|show|turn|switch|"
            r"colou?r|mak)ing (.+)$",
            re.I,
        ),
        lambda m: f"{_VERB[m[1].lower()]} {m[2]}",
    ),
    # "take the country highlight off": remove it
    (
        re.compile(
            r"\b(?:take|turn|switch) (?:the )?(?:country )?(?:highlight(?:ing)?|mask) off\b", re.I
        ),
        "remove the highlight",
    ),
    # "hide the cities for now": for how long is no condition
    (
        re.compile(
            r",? for (?:now|the moment|a moment|a sec|a second|the time being|a while|a bit|"
            r"today)\b",
            re.I,
        ),
        "",
    ),
    # "set the pitch back to flat", "can north be at the top again?", "the map turned about 45
    # degrees": the camera as people describe it
    (
        re.compile(
            r"\b(?:set|put|make|bring|turn) the (?:pitch|tilt|angle) (?:back )?(?:to )?"
            r"(?:flat|zero|0|none|straight)\b",
            re.I,
        ),
        "tilt the map to 0 degrees",
    ),
    (
        re.compile(
            r"^(?:can|could|let|make) north (?:be |go )?(?:at the top|on top|up)(?: again)?"
            r"[?.!]*$",
            re.I,
        ),
        "rotate the map to 0 degrees",
    ),
    (
        re.compile(r"\bthe map (?:turned|rotated) (?=(?:about |around |roughly |by )?\d)", re.I),
        "rotate the map ",
    ),
    (re.compile(r"\b(?:about|around|roughly|approximately|some) (?=\d+ ?(?:degrees|°))", re.I), ""),
    # "whichever of our cities has the most people": the city with the most people
    (
        re.compile(
            r"\bwhichever (?:one )?of (?:our |the |my )?(\w+) (?:has|gets|have|get|with) the (most|"
            r"fewest|least|highest|biggest|largest|smallest|lowest) ([\w ]+?)(?: living (?:in it|"
            r"in them|there)| in it)?(?=[,.!?]|$)",
            re.I,
        ),
        r"the \1 with the \2 \3",
    ),
    # "can you show me where Lisbon is?": where is it
    (
        re.compile(
            r"^(?:(?:can|could) you )?(?:show|tell) (?:me|us) where ([\w .'-]+?) "
            r"(?:is|lies)[?.!]*$",
            re.I,
        ),
        r"where is \1",
    ),
    # "how many people visit our monuments in total?": their visitors
    (
        re.compile(
            r"\bhow many (?:people|visitors|tourists) (?:visit|go to|come to) (.+?)(?: in total| "
            r"altogether| all together| combined)?(?=[?.!]|$)",
            re.I,
        ),
        r"how many visitors do \1 get",
    ),
    # "can everything outside Portugal fade out?": highlight Portugal
    (
        re.compile(
            r"^(?:can |could )?(?:everything|all|the rest|the world) (?:outside|except|but|apart "
            r"from) ([\w ]+?) (?:fade|be faded|dim|be dimmed|grey|gray|go grey|darken|be darker)"
            r"(?: out)?[?.!]*$",
            re.I,
        ),
        r"highlight \1",
    ),
    # "see the map at a slant": tilt it
    (
        re.compile(
            r"\b(?:see|view|show|look at) the map (?:at a slant|at an angle|from an angle|in "
            r"perspective|slanted|tilted|from the side)\b.*$",
            re.I,
        ),
        "tilt the map",
    ),
    # "set them to a radius of 10": a size
    (re.compile(r"\bto a (?:radius|size|width|diameter) of (?=\d)", re.I), "to size "),
    # "the northern districts": north
    (re.compile(r"\b(north|south|east|west)ern\b", re.I), r"\1"),
    # "the other two layers": the other layers
    (re.compile(r"\bthe other (?:two|three|four|five|\d) (layers|ones)\b", re.I), r"the other \1"),
    # "real aerial photos": satellite imagery
    (
        re.compile(
            r"\b(?:real )?aerial (?:photos?|photographs?|imagery|images?|view|pictures?)\b", re.I
        ),
        "satellite",
    ),
    # "show the name of each county on the map": label them
    (
        re.compile(
            r"^(?:show|display|put|write|add|place) (?:the |their )?(?!(?:all|me|us|both|some|any|"
            r"each|one|most|none|rest|part|parts|bits?)\b)(names?|\w+) of (?:each|every|"
            r"all(?: the)?|the) (.+?)(?: on the map)?(?:[,?!;] .*)?[.!?]*$",
            re.I,
        ),
        r"label the \2 by \1",
    ),
    # "zoom right in to level nine": in
    (re.compile(r"\bzoom (?:right|really) in\b", re.I), "zoom in a lot"),
    # "our most visited site", "our top three sites": the data's
    (
        re.compile(
            r"\bour (?=(?:most|least|biggest|largest|smallest|best|worst|top|busiest|highest|"
            r"lowest|average|mean|total|combined|overall)\b)",
            re.I,
        ),
        "the ",
    ),
    (
        re.compile(
            r"\b(top|bottom|first|last) (one|two|three|four|five|six|seven|eight|nine|ten)\b", re.I
        ),
        lambda m: f"{m[1]} {NUMBER_NAMES.index(m[2].lower()) + 1}",
    ),
    # "undo both of those changes": two
    (
        re.compile(r"\bundo both(?: of)?(?: (?:those|these|the|my))?(?: changes| steps)?\b", re.I),
        "undo the last 2 changes",
    ),
    # "whichever city has the most people in it"
    (
        re.compile(
            r"\bwhichever (\w+) (?:has|gets|with) the (most|fewest|least|highest|biggest|largest|"
            r"smallest|lowest) ([\w ]+?)(?: living (?:in it|in them|there)| in it)?(?=[,.!?]|$)",
            re.I,
        ),
        r"the \1 with the \2 \3",
    ),
    # "merge the districts into their three regions": by region
    (
        re.compile(
            r"\b(merge|dissolve|group|combine) (?:the )?([\w ]+?) into (?:their|the) (?:\w+ )?"
            r"(\w+?)s?\b(?=[,.!?]|$| as (?:a )?new layer)",
            re.I,
        ),
        r"\1 the \2 by \3",
    ),
    # "a 500 metre zone around each of our sites"
    (re.compile(r"\baround each of (?:the |our |my )?", re.I), "around the "),
    # "adapt the thickness of the rivers to their length": size by it
    (
        re.compile(
            r"^(?:adapt|match|fit|scale|tie) the (?:thickness|width|size|radius) of (?:the )?"
            r"([\w ]+?) (?:to|with) (?:the |their )?([\w ]+?)[.!]*$",
            re.I,
        ),
        r"size the \1 by \2",
    ),
    # "it's hard to see anything from this far out. Zoom in": the complaint is no request
    (
        re.compile(
            r"^(?:it'?s|it is) (?:really |so |very )?(?:hard|difficult|impossible|tough) to "
            r"(?:see|read|make out) [^.!?]*[.!?]+ +(?=\w)",
            re.I,
        ),
        "",
    ),
    # "grey out everything except Portugal", "put the spotlight on Brazil": highlight it
    (
        re.compile(
            r"^(?:grey|gray|fade|dim|darken|black) out (?:everything|all|the rest|the world) "
            r"(?:except|but|outside|apart from|other than) ([\w ]+?)(?:,.*|\.)?$",
            re.I,
        ),
        r"highlight \1",
    ),
    (re.compile(r"\b(?:put|shine|throw) (?:the |a )?spotlight on\b", re.I), "highlight"),
    # "on the cafes layer, only show ...": the request, on that layer
    (re.compile(r"^on the ([\w ]{1,30}?) layer,? (.+)$", re.I), r"\2 in the \1 layer"),
    # "leave the parks out": hide them
    (re.compile(r"\bleave ((?:the|our|all the) [\w ]{1,30}?) out\b", re.I), r"hide \1"),
    # "how many features has the layer Sites?": in it
    (
        re.compile(
            r"\bhow many (features|objects|items|points|entries|records) (?:has|have|does|do) "
            r"(?:the )?layer (\w+)(?: have| got)?",
            re.I,
        ),
        r"how many \1 are in the \2 layer",
    ),
    # "show me the whole Sites layer": all of it on screen
    (
        re.compile(
            r"^show (?:me )?(?:the )?(?:whole|entire|full|complete) (?!of |(?:country|nation|regi"
            r"on|"
            r"world|map|thing|state|island|continent)\b)([\w ]+?)(?: layer)?"
            r"[.!]*$",
            re.I,
        ),
        r"zoom to the \1",
    ),
    # "set the zoom to exactly 12"
    (re.compile(r"\b(?:exactly|precisely) (?=\d)", re.I), ""),
    # "I want to show where people are concentrated - turn the cities into a heatmap"
    (
        re.compile(
            r"^(?:i want to|i'd like to|we want to|to) (?:show|see|make|highlight) [^-]{1,60} - "
            r"(?=\w)",
            re.I,
        ),
        "",
    ),
    # "take that layer out": remove it; "bring the counties back": show them
    (
        re.compile(
            r"\btake (that layer|this layer|it|them|the [\w ]{1,30}?(?: layer)?) out\b", re.I
        ),
        r"remove \1",
    ),
    (re.compile(r"^bring (the [\w ]{1,30}?) back\b", re.I), r"show \1"),
    # "a plain background with no map underneath": the blank basemap
    (
        re.compile(r"\b(?:completely |totally )?(?:plain|empty|white) background\b", re.I),
        "blank basemap",
    ),
    # "make Italy stand out by fading all the other countries": highlight it
    (
        re.compile(
            r"^(?:make|let) ([\w ]{1,30}?) stand out by (?:fading|greying|graying|dimming|"
            r"darkening) .*$",
            re.I,
        ),
        r"highlight \1",
    ),
    # "how many of our outlets are bakeries?": how many bakeries
    (
        re.compile(r"^how many of (?:our|the|my) \w+ are (\w+)[?.]*$", re.I),
        r"how many \1 are there",
    ),
    # "how many people live in total in the districts"
    (re.compile(r"\b(live|living) (?:in total|altogether|all together) in\b", re.I), r"\1 in"),
    # "pop over to Edinburgh", "pull up NYC"
    (re.compile(r"\bpop (?:over )?to\b", re.I), "go to"),
    (re.compile(r"^pull up\b", re.I), "show"),
    # "show the whole of Portugal": Portugal
    (re.compile(r"\bthe (?:whole|entire) of (?=[A-Z])", re.I), ""),
    # "can you bring it up on the map?": show it
    (
        re.compile(r"\bbring (it|them|[A-Z][\w'-]*) up on (?:the )?(?:map|screen)\b", re.I),
        r"show \1",
    ),
    # "hide the roads on it" (the background just named): on the basemap
    (
        re.compile(r"\b(roads|water|labels|buildings|parks|boundaries|borders) on it\b", re.I),
        r"\1 on the basemap",
    ),
    # "merge the counties to the field state": by it
    (
        re.compile(r"\b(merge|dissolve|group|combine) (the [\w ]{1,30}?) to (?=the field )", re.I),
        r"\1 \2 by ",
    ),
    # "delete everything on this map": everything
    (
        re.compile(
            r"\b(everything|all (?:the )?layers) (?:on|from|in) (?:this|the|my|our) (?:map|one)\b",
            re.I,
        ),
        r"\1",
    ),
    # "filter out the capitals": leave them out (a filter that hides them)
    (re.compile(r"\b(?:filter out|exclude|leave out)(?= )", re.I), "hide"),
    # "make the sites orange with a radius of 8": two settings
    (
        re.compile(
            r"(?<=\w) with (?:a |an )?(radius|size|width|line width|outline|opacity) (?:of )?"
            r"(?=\d)",
            re.I,
        ),
        r", \1 ",
    ),
    # "show again" after hiding a layer: show it again
    (re.compile(r"^(show|unhide|display)( again| back)[.!]*$", re.I), r"\1 it\2"),
    # "longer then 900 km": a comparison is followed by "than"
    (
        re.compile(
            r"\b(more|less|fewer|(?:long|short|big|small|great|larg|high|low|old|wid|"
            r"heavi|bett|wors|rich|poor)er) then\b",
            re.IGNORECASE,
        ),
        r"\1 than",
    ),
    # "rivers & districts": and (but a name in quotes keeps its "&")
    (
        re.compile(r"(?<!\w)(?P<q>'[^'\n]+'|\"[^\"\n]+\")(?!\w)|\s*&\s*"),
        lambda m: m["q"] or " and ",
    ),
    # learners' forms: "depend of", "show me where is X", "like a new layer", "more zoom"
    (re.compile(r"\bdepends? of\b", re.I), "depend on"),
    (re.compile(r"\bcapitol(s?) of\b", re.I), r"capital\1 of"),
    (re.compile(r"\u2026"), "... "),  # "Euh… va à Pékin"
    (
        re.compile(r"\bzoom in (?:really |very |nice and |quite |real )?close\b", re.I),
        "zoom in a lot",
    ),
    # "put Peru on screen", "ponme Perú en pantalla": show it
    (
        re.compile(
            r"^(?:now )?(?:make|put|get|bring)(?: me| us)? (?P<x>.+?) on (?:the )?screen$", re.I
        ),
        r"show me \g<x>",
    ),
    # "what's the capital of Australia?": shown on the map
    (
        re.compile(
            r"^(?:what|which|whats)(?:'s| is)? (?:the )?(?=capi(?:tal|tol)s? (?:city )?of )", re.I
        ),
        "fly to the ",
    ),
    (re.compile(r"\b(?:chuck|whack|slap|pop|stick|bung) (?=(?:a|an|the|some) )", re.I), "make "),
    (re.compile(r"\bbump (them|it) up\b", re.I), r"make \1 bigger"),
    (re.compile(r"\btake (me|us) up to\b", re.I), r"take \1 to"),
    (re.compile(r"(?<=[a-z])\s*\+\s*(?=[a-z])", re.I), " and "),  # "rivers + districts"
    (re.compile(r",? (?:go|now|thanks)[.!]*$", re.I), ""),
    (re.compile(r"\bshow me where (?:is|are) ", re.I), "show me "),
    (re.compile(r"\blike a new layer\b", re.I), "as a new layer"),
    (re.compile(r"\bhow much is the (?=total|sum|average|mean)", re.I), "what is the "),
    (re.compile(r",? so (?:that )?(?:we|i|you|people|they) can .+$", re.I), ""),
    (
        re.compile(r"\bby how many people live (?:there|in (?:it|them|each))\b", re.I),
        "by population",
    ),
    (re.compile(r"\b(take me|take us|go|fly|head|bring me|back) 2 (?=[a-z])", re.I), r"\1 to "),
    (re.compile(r",?\s*\b(?:pls|plz)\b", re.IGNORECASE), ""),
    # "Vienna? thanks": a question mark inside; "... off again? We're moving on": a sentence
    (re.compile(r"(?<=\w)[?!]+(?=\s+[A-Z]|(?:\s+[^\s?!.]+){3})"), "."),
    (re.compile(r"(?<=\w)[?!]+(?=\s)"), ","),
    # Plans told as such: "I'm flying to Bangkok", "I am going to visit Edinburgh".
    (re.compile(r"\bi'?m (?:flying|going|travell?ing|heading|driving|moving) to\b", re.I), "go to"),
    (re.compile(r"\bi am (?:flying|going|travell?ing|heading|driving|moving) to\b", re.I), "go to"),
    (re.compile(r"\bgo to (?:visit|see)\b", re.I), "visit"),
    (
        re.compile(
            r"\b(?:i'?m |i am |we'?re |we are )?planning (?:a|my|our) (?:trip|visit|holiday|"
            r"vacation|journey) to\b",
            re.I,
        ),
        "go to",
    ),
    # When a plan happens says nothing about where: "to Tuscany next spring".
    (
        re.compile(
            r"\s*\b(?:(?:next|this|last) (?:week|weekend|month|year|spring|summer|autumn|fall|"
            r"winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|tomorrow|"
            r"tonight)\b",
            re.I,
        ),
        "",
    ),
    # "would you mind showing Edinburgh": show it
    (re.compile(r"\b(?:would|do) you mind (\w+?)(?:ing)\b", re.I), lambda m: _verb(m[1])),
    # "We have a delegation from Edinburgh, so would you mind ...": the request after why
    (
        re.compile(
            r"(?:^|(?<=[.!?] ))([^.!?]{3,}?)(?:,? so| -) (?=(?:for (?:the|a|our|my) [\w' -]{1,3"
            r"0}? )?"
            r"(?:" + VERBS + r"\b|(?:can|could|"
            r"would|will) (?:you|we)\b|please\b|(?:i|we) (?:need|want)\b|(?:i|we)(?:'d| would) "
            r"like\b))",
            re.I,
        ),
        r"\1. ",
    ),
    # "... the rivers? I only want the districts and the sites showing": only those
    (
        re.compile(
            r"\b(?:i|we) (?:only )?(?:want|need)(?: only| just)? ((?:the|our) [\w ]{1,40}?) "
            r"(?:showing|visible|shown|on the map|on screen|to show)(?=[.!?,]|$)",
            re.I,
        ),
        r"show only \1",
    ),
    # "move the rivers up, but keep the sites at the very top": what stays is no change
    (
        re.compile(
            r",? but keep (?:the )?[\w ]{1,40}? (?:(?:at|on) the (?:very )?top|where (?:they|it) "
            r"(?:are|is)|as (?:they are|it is)|as is)(?=[.!?,]|$)",
            re.I,
        ),
        "",
    ),
    # "could the sites layer show only the monuments?": on that layer
    (
        re.compile(
            r"^(?:can|could|would|should) the ([\w ]{1,30}?) layer (show|display|keep|contain|"
            r"have) ([^.!?]+?)(?=,? please|[.!?]|$)",
            re.I,
        ),
        r"\2 \3 in the \1 layer",
    ),
    # "hide anything on the Cafes layer that's rated below 2": the cafes that are
    (
        re.compile(
            r"\b(?:anything|everything|any(?: of the)? (?:features|points|places)|all(?: the)? "
            r"(?:features|points|places)) (?:on|in|from) the ([\w ]{1,30}?) layer (?=that|which|"
            r"with|whose|where)",
            re.I,
        ),
        r"the \1 ",
    ),
    # "take that filter off": remove it; "could the map show just those": show them
    (re.compile(r"\btake (that|the|this) (filter|highlight|mask) off\b", re.I), r"remove \1 \2"),
    (
        re.compile(
            r"\b(remove|clear|drop|delete|turn off|switch off) (that|the|this|those|these) "
            r"(filters?|highlight|mask|labels?)(?: again)?(?: now)?(?=[.!?,]|$)",
            re.I,
        ),
        r"\1 \2 \3",
    ),
    (re.compile(r"\b(that|which|who)'s\b", re.I), r"\1 is"),
    # "which river's the longest": which river is
    (re.compile(r"^((?:which|what) [a-z]+)'s (?=(?:the|a|an) )", re.I), r"\1 is "),
    (re.compile(r"^(?:can|could|would) the map (show|display) ", re.I), r"\1 "),
    # "get rid of the one we don't need any more": which one is not said
    (
        re.compile(
            r"\bthe (one|layer|ones|layers) (?:that |which )?(?:we|i) (?:don'?t|do not|no longer) "
            r"(?:need|use|want)(?: any ?more)?\b",
            re.I,
        ),
        r"the layer",
    ),
    (re.compile(r"\bthe layers of (points|lines|polygons|dots|shapes)\b", re.I), r"the \1 layers"),
    # "put it straight again with north up": no rotation
    (
        re.compile(
            r"\b(?:put|set|make|turn|get) (?:it|the map|the view|things) (?:back )?straight(?: ag"
            r"ain)?"
            r"(?:,? (?:with )?north (?:up|at the top))?",
            re.I,
        ),
        "rotate the map to 0 degrees",
    ),
    # "for the Porto opening post (...) fly over to Porto": what it is for, said first
    (
        re.compile(
            r"^for (?:the|my|our|a|an|this|next|tomorrow'?s|\w+'s) (?:[\w'-]+ ){0,4}?(?:post|slide|"
            r"deck|report|presentation|meeting|brochure|leaflet|flyer|article|story|campaign|"
            r"newsletter|print|poster|lesson|class|talk|paper|piece|guide|website|page|screenshot|"
            r"video|reel|tweet|thread|briefing|handout|pitch|dossier|panel|caption|release|"
            r"announcement|header|banner|display|exhibit|exhibition|audit|assessment|form|minutes|"
            r"agenda|review|study|survey|graphic|infographic|map|cover)s?(?:(?: (?!(?:i|we) )"
            r"[^,.!?]{1,60}?)?["
            r",:] "
            r"| (?=" + VERBS + r"\b))",
            re.I,
        ),
        "",
    ),
    # "the light one looked cleaner, switch back to it": back to the light basemap
    (
        re.compile(
            r"^(?:.*?\b)?the (light|dark|satellite|streets|street|blank|offline) (?:one|map|"
            r"basemap|background|version)\b[^.!?]*?\b(?:switch|go|change|get|put it|turn it) back"
            r"(?: to it| to that(?: one)?)?[.!]*$",
            re.I,
        ),
        r"back to \1",
    ),
    # "the circles of the cities with size by the population": size them by it
    (
        re.compile(
            r"^(?:the )?(?:circles|dots|points|symbols|markers|bubbles) of (the [\w ]+?) (?:with|"
            r"having) (?:a |their )?(?:size|radius) (?:by|according to|based on|depending on|"
            r"proportional to) (?:the |their )?(\w+)",
            re.I,
        ),
        r"size \1 by \2",
    ),
    # "we only need the sites and the cities - hide everything else": only those
    (
        re.compile(r"^(?:i|we) (?:only|just) (?:need|want) ((?:the|our) [\w ]+?)(?= - |,|$)", re.I),
        r"show only \1",
    ),
    # "save that as its own layer": a new one
    (
        re.compile(
            r"\b(save|keep|copy|put) (that|this|it|them|those|these) (?:as|in|into) "
            r"(?:its|their) own layer\b",
            re.I,
        ),
        r"\1 \2 as a new layer",
    ),
    # "merge the districts by region into three bigger areas": by region
    (
        re.compile(
            r"\b((?:merge|dissolve|group|combine) (?:the )?[\w ]+? by \w+) into (?:\w+ ){0,2}(?:a"
            r"reas|"
            r"shapes|zones|regions|polygons|parts|groups|blocks)\b",
            re.I,
        ),
        r"\1",
    ),
    # "a 500 m walking radius around each site": a buffer
    (
        re.compile(
            r"\b(\d+(?:[.,]\d+)? ?(?:m|km|metres?|meters?|kilometres?|kilometers?|miles?|mi))"
            r"(?: \w+)? (?:radius|radii|circles?|rings?|catchment(?: areas?)?|zones?|areas?)"
            r"(?= around)",
            re.I,
        ),
        r"\1 buffer",
    ),
    # "zoom in closer there, street level": close enough to read the streets
    (
        re.compile(
            r"\bzoom(?: in)?(?: closer| more| further)?(?: there)?,? (?:to |at |down to |right "
            r"down to )?(?:the )?street[- ]level\b(?! (?:in|of|on|at|over|for) )",
            re.I,
        ),
        "zoom to level 16",
    ),
    # "rotate the map 90 degrees so east is at the top": why, after the request
    (
        re.compile(
            r"(?:(?<=degrees)|(?<=°)),? so (?:that )?(?:north|south|east|west) (?:is|points|faces|"
            r"sits) (?:at the top|up|upwards)\b",
            re.I,
        ),
        "",
    ),
    # "make the sea more dark": darker
    (
        re.compile(r"\bmore (dark|light|bright|pale|deep)\b", re.I),
        lambda m: {
            "dark": "darker",
            "light": "lighter",
            "bright": "brighter",
            "pale": "paler",
            "deep": "deeper",
        }[m[1].lower()],
    ),
    # "the director would like to see the city with ...": show it
    (
        re.compile(
            r"^(?:our|the|my) [\w ]{1,40}? (?:wants|would like|needs|has asked|asked|wanted|"
            r"would love) (?:us |me )?to see\b",
            re.I,
        ),
        "show",
    ),
    # "we need a 2 km zone around each site. Could you draw that on the map?": what is needed
    (
        re.compile(
            r"^(?:[^.!?]*?\b)?(?:(?:we|i) (?:only |really |also )?(?:need|want|would like|'d like)"
            r"(?: to (?:see|have|know|find out))?|(?:asked|wants to know|would like to know|asked "
            r"(?:me|us)))(?: (?:is|for|about))? (?P<x>[^.!?]+)[.!?]+ +(?:(?:so )?(?:could|can|"
            r"would|will) you )?(?:please )?(?:draw|create|make|do|add|show|put|calculate|compute|"
            r"tell (?:me|us)|work(?: (?:that|it|this))? out|give (?:me|us)|find|get|produce|set up)"
            r"(?: (?:that|it|this|them|those|these|one))?(?: out)?(?: on the map| for (?:me|us)| "
            r"there)?(?: please)?(?:,? (?:which|what) [^.!?]*)?[.!?]*$",
            re.I,
        ),
        lambda m: ("make " if re.match(r"(?:a|an|one|some) ", m["x"], re.I) else "") + m["x"],
    ),
    # "can u move the map so i see more of the north": move it north
    (
        re.compile(
            r",? so (?:that )?(?:i|we|you) (?:can )?see more of the (north|south|east|west)"
            r"\b",
            re.I,
        ),
        r" \1",
    ),
    # "hmm still too big, make them a bit smaller": the complaint before the request
    (
        re.compile(
            r"^(?:(?:it'?s|they'?re|that'?s|those are|these are|still|way|much|a bit|far|"
            r"now) )*too (?:big|small|large|thick|thin|dark|light|bright|faint|busy|"
            r"much)[,.!;]+ +(?=\w)",
            re.I,
        ),
        "",
    ),
    # "how many visitors have the Oceanário": the value of that feature
    (
        re.compile(
            r"^how many (?P<f>\w+) (?:has|have) (?P<x>(?:the )?(?-i:[A-Z])[\w'-]+(?: [\w'-]+)*)"
            r"(?<! total)(?<! altogether)(?<! together)(?<! combined)"
            r"(?=[?.!]|$)",
            re.I,
        ),
        r"how many \g<f> does \g<x> have",
    ),
    # "highlight Portugal so everything else fades into the background": why, after it
    (
        re.compile(
            r",?\s+so (?:that'?s|that is|this is) (?:the|what|how|where) [^.!?]*|"
            r",?\s+so (?:that )?(?!(?:the )?(?:north|south|east|west|bearing|pitch|angle|heading|"
            r"rotation|tilt)\b)(?:everything else|the rest"
            r"(?: of the world)?|everyone|readers|"
            r"people|viewers|visitors|the audience|they|it|we|you|i|our \w+|the \w+) (?:\w+ )?"
            r"(?:can|could|will|would|fades?|stands?|pops?|looks?|reads?|sees?|see|is|are|gets?|"
            r"becomes?|knows?|recogni[sz]es?|notices?|understands?)\b[^.!?]*",
            re.I,
        ),
        "",
    ),
    (re.compile(r"\bput ([\w ]{1,30}?) in the spotlight\b", re.I), r"highlight \1"),
    # "make Spain stand out", "switch the highlight over to Spain": highlight it
    (
        re.compile(
            r"\bmake ((?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)*) stand out\b(?: and [^.!?]*)?",
            re.I,
        ),
        r"highlight \1",
    ),
    (
        re.compile(
            r"\b(?:switch|move|change|shift|put) the (?:highlight|mask|spotlight)(?: over)? "
            r"(?:to|on)\b",
            re.I,
        ),
        "highlight",
    ),
    # "our data on plain white": a blank basemap
    (re.compile(r"\bon (?:a )?(?:plain|pure|blank|empty) white\b", re.I), "on a blank basemap"),
    # "Our brand colour is #1b4f72. Make the water exactly that colour": that code
    (
        re.compile(
            r"(?P<a>(?P<hex>#[0-9a-f]{6})\b[^.!?]*[.!?]+ +[^.!?]*?)\b(?:exactly |precisely )?"
            r"(?:that|this|the same) colou?r\b",
            re.I,
        ),
        r"\g<a>\g<hex>",
    ),
    # "centre it on Porto", "Spain in frame": the map is what is centred or framed
    (re.compile(r"\b(cent(?:er|re)|focus) (?:it|the map|the view) (on|over)\b", re.I), r"\1 \2"),
    (re.compile(r" (?:in (?:the )?frame|in view)(?=[.!?,]|$)", re.I), ""),
    (re.compile(r"\b(show(?: me| us)? [^.!?,]+?) on (?:the |my |our )?screen\b", re.I), r"\1"),
    # "flatten it again", "put the rotation back to normal, keep the rest as it is"
    (
        re.compile(
            r"\b(?:flatten (?:it|the map|the view|things)(?: out)?|(?:put|set|make|turn|get) (?:it|"
            r"the map|the view)(?: back)? flat)(?: again)?\b",
            re.I,
        ),
        "make the map flat",
    ),
    (re.compile(r"\btake the (map|view) up to\b", re.I), r"take the \1 to"),
    (
        re.compile(
            r"\b(?:put|set|turn|bring|reset|get) the (?:rotation|bearing|orientation) back(?: to "
            r"(?:normal|zero|0|north|default|how it was))?",
            re.I,
        ),
        "rotate the map to 0 degrees",
    ),
    (
        re.compile(
            r",? (?:but |and )?keep (?:the rest|everything else|everything|the rest of it|all the "
            r"rest) (?:as it is|as is|the same|unchanged|like it is|how it is)",
            re.I,
        ),
        "",
    ),
    (re.compile(r"\bundo (?:only|just) (?=the last|my last|that|it\b)", re.I), "undo "),
    # "I meant Portugal, not Spain. Could you change it?": the correction is the request
    (
        re.compile(
            r"\b(i meant [^.!?,]+?)(?:,? (?:and )?not [^.!?]+?)?(?:,? [\w ]+ or not)?[.!?]+ +(?:"
            r"(?:could|"
            r"can|would) you )?(?:please )?(?:change|fix|correct|update|switch|make) (?:it|that|"
            r"this)(?: (?:over|to (?:those|them|these|that|this)|please))*[.!?]*$",
            re.I,
        ),
        r"\1",
    ),
    # "the Sites layer should be called 'Tourist attractions'": rename it
    (
        re.compile(
            r"\b(the [\w ]{1,30}? layer|the \w+) should (?:be|now be) (?:called|named|"
            r"renamed(?: to)?) ",
            re.I,
        ),
        r"rename \1 to ",
    ),
    # "put the district names on the shapes": label them
    (
        re.compile(
            r"\b(?:put|show|write|display|add|place) the (\w+?)s? (name|\w+?)s? (?:on|onto|in) "
            r"(?:the )?(?:shapes|map|polygons|areas|dots|points|circles|lines)\b",
            re.I,
        ),
        r"label the \1s by \2",
    ),
    # "the roads make the background too busy, so could you hide them": the roads, there
    (
        re.compile(
            r"^(?:[^.!?]*?\b)?the (roads|labels|water|buildings|parks|boundaries|borders|place "
            r"names) (?:make|makes|are|is|look|looks|clutter)\b[^.!?]*[.!?]+ +(?:(?:could|can|"
            r"would) you )?(?:please )?(hide|remove|turn off|switch off|get rid of|drop|take away) "
            r"(?:them|it)\b.*$",
            re.I,
        ),
        r"\2 the \1 on the basemap",
    ),
    (re.compile(r",? while you'?re at it\b", re.I), ""),
    (
        re.compile(r"\b(print|hand|read|cut|lay|sign|pull|take|call)-(out|off|up)s?\b", re.I),
        r"\1\2",
    ),
    # "non, plutôt la Belgique": no, rather Belgium
    (
        re.compile(r"^((?:no|nope|sorry)[,.!]* )(?:instead|rather),? (?:the )?(?=\w)", re.I),
        r"\1I meant ",
    ),
    # "could you go back to what it was called before": the name it had
    (
        re.compile(
            r"\b(?:go|change (?:it|that)|switch (?:it|that)|put (?:it|that)|set (?:it|that)) "
            r"back to (?:what|how) (?:it|they) (?:was|were) (?:called|named)(?: before)?",
            re.I,
        ),
        "undo the rename",
    ),
    # "can we go back to how it was before that?": undo
    (
        re.compile(
            r"\b(?:go|put (?:it|things|everything)|change (?:it|things)|set (?:it|things)|turn it|"
            r"get) back to (?:how|the way|what) (?:it|things|everything|the map) (?:was|were|"
            r"looked)(?: before(?: that| then)?)?",
            re.I,
        ),
        "undo",
    ),
    # "could you bring them back on": show them
    (
        re.compile(r"\b(?:bring|turn|switch|put) (them|it|the [\w ]{1,30}?) back on\b", re.I),
        r"show \1",
    ),
    # "sorry, it was Spain I wanted to highlight, not Portugal": I meant Spain
    (
        re.compile(
            r"^((?:(?:sorry|oops|actually|no)[,.!]* )*)it was (?P<x>[^,.!?]+?) (?:that )?(?:i|we) "
            r"(?:wanted|meant|needed|asked for)(?: to \w+)?(?:,? not [^,.!?]+)?[.!]*$",
            re.I,
        ),
        r"\1i meant \g<x>",
    ),
    # "I need the map centred on Porto, close enough to see the city": centre it there
    (
        re.compile(
            r"\b(?:(?:i|we) (?:need|want|would like|'d like) |(?:have|get) )?the (?:map|view) "
            r"(?:centred|centered|focused) (?:on|over|at|in)\b",
            re.I,
        ),
        "centre on",
    ),
    (re.compile(r",?(?: please,?)? close enough (?:that|so|to) [^.!?]*", re.I), ""),
    # "could the districts be shaded by their value?": shade them by it
    (
        re.compile(
            r"(?:^|(?<=[.!?] ))(?:can|could|would|should|may|might) (?P<x>(?:the|our|my|all the|"
            r"those|these|them|they|it) ?[\w ]*?|(?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)*)"
            r"(?: also| too| now| then)? be (?P<v>" + "|".join(PARTICIPLES) + r")\b",
            re.I,
        ),
        lambda m: f"{PARTICIPLES[m['v'].lower()]} {m['x']}",
    ),
    # "(I wonder if) the squares could be merged by region": the same, said the other way
    (
        re.compile(
            r"(?:^|(?<=\bif )|(?<=\bwhether ))(?P<x>(?:the|our|my|all the|those|these) [\w ]*?) "
            r"(?:can|could|would|might) "
            r"(?:also |too |now |then )?be (?P<v>" + "|".join(PARTICIPLES) + r")\b",
            re.I,
        ),
        lambda m: f"{PARTICIPLES[m['v'].lower()]} {m['x']}",
    ),
    # "..., so that the higher ones stand out more": why, after the request
    (
        re.compile(
            r",? so (?:that )?(?:the |our |they |it |its? )?[\w ]{0,30}?(?:stands?|pops?|jumps?) "
            r"out\b[^.!?,]*",
            re.I,
        ),
        "",
    ),
    # "Oh dear, I didn't mean to do that. Could you undo it?": one undo, asked for
    (
        re.compile(
            r"^(?:oh,? )?(?:dear,? |no,? |oops,? )?(?:i|we) (?:didn'?t|did not) (?:mean|want) "
            r"(?:to do )?(?:that|this|it)(?: at all)?[.!]* +(?=[^.!?]*\b(?:undo|revert|go back|"
            r"put (?:it|that) back|take (?:it|that) back|change (?:it|that) back)\b)",
            re.I,
        ),
        "",
    ),
    # "coloured by what sort of place they are": by kind
    (
        re.compile(
            r"\bby what (?:sort|kind|type)(?: of(?: \w+)?)? (?:they are|it is|each (?:one )?is)"
            r"|\bby what (?:they are|each (?:one )?is)\b",
            re.I,
        ),
        "by kind",
    ),
    # "according to how many people live there", "going by their length": by a field
    (
        re.compile(
            r"\b(?:according to|depending on|based on|going by|in line with|in proportion "
            r"to|proportional to|relative to)(?= )(?! (?:the|our|my|this) (?:data|dataset|data "
            r"set|table|map|file)\b)",
            re.I,
        ),
        "by",
    ),
    (
        re.compile(
            r"\bhow many (?:people|inhabitants|residents) (?:live|there are|are living)"
            r"(?: there| in each(?: one)?| in them| in it| in each of them)",
            re.I,
        ),
        "population",
    ),
    # "make the bigger cities have bigger dots", "make the longer rivers show up as thicker
    # lines": make them bigger, thicker
    (
        re.compile(
            r"\b(?P<v>make|let) (?:the )?(?:bigger |larger |longer |more \w+ )?(?P<x>\w+(?: "
            r"\w+)?) (?:have|get|show up as|appear as|be drawn (?:as|with)|be shown as) "
            r"(?P<a>bigger|larger|thicker|wider|fatter) (?:dots|circles|symbols|lines|"
            r"points|markers|bubbles)\b",
            re.I,
        ),
        r"\g<v> the \g<x> \g<a>",
    ),
    # "one of those heat map pictures": a heatmap
    (
        re.compile(r"\bone of those (heat ?maps?)(?: pictures?| things?| images?| maps?)?", re.I),
        "a heatmap",
    ),
    # "with those satellite photographs underneath": the satellite basemap
    (
        re.compile(
            r"\b(?:see|show|have|view|look at) (?:it|the map|this|everything)? ?with (?:those |"
            r"the |some )?(?:satellite|aerial) (?:photographs?|photos?|pictures?|images?|"
            r"imagery|views?)\b(?: underneath| below| behind| under(?: it)?| in the "
            r"background)?",
            re.I,
        ),
        "switch to satellite",
    ),
    # "make the sea a different colour, a paler blue": the colour itself; "make the cities
    # bigger, by population": sized by it
    (re.compile(r"\ba (?:different|new|other|nicer) colou?r,? (?=(?:a |an )?\w+)", re.I), ""),
    (
        re.compile(
            r"\b(bigger|larger|thicker|wider|fatter|smaller|thinner),? "
            r"(?=by (?:their |its |the )?\w+(?:$|[.!?]))",
            re.I,
        ),
        r"\1 ",
    ),
    # "by population in three shades, light to dark": in 3 classes
    (
        re.compile(
            r"(?<!\bzoom )\bin (\w+) (?:shades|tones|colou?rs|bands|grades)\b(?! of)",
            re.I,
        ),
        r"in \1 classes",
    ),
    # "write the county names on the squares": label them
    (
        re.compile(
            r"\b(?:write|put|show|add|display) (?:the |their )?(?P<f>\w+ )?names? (?:on|onto|"
            r"next to|beside|over) (?P<x>(?:the |all the |each of the |each )?\w+(?: \w+)?)",
            re.I,
        ),
        r"label \g<x> with the \g<f>names",
    ),
    # "how many inhabitants do the German cities have in total": their total population
    (
        re.compile(
            r"^how many (?:inhabitants|people|residents) (?:do|does|have|has|live in) "
            r"(?!(?:those|these|them|they|it)\b)(?P<x>[^.!?]+?)(?: have| has)?(?: on the map)? "
            r"(?:in total|altogether|together|combined|put together|all together)(?=[.!?]|$)",
            re.I,
        ),
        r"what is the total population of \g<x>",
    ),
    # "how many inhabitants has Berlin": its population
    (
        re.compile(
            r"^how many (?:inhabitants|people|residents) (?:(?:does|do|has|have) "
            r"(?P<x>[^.!?]+?)(?: have| has| got)?|live in (?!(?:those|these|them|it)\b)"
            r"(?P<y>[^.!?]+))(?=[.!?]|$)",
            re.I,
        ),
        lambda m: "what is the {}population of {}".format(
            "total " if re.match(r"(?:all )?the ", m["x"] or m["y"], re.I) else "", m["x"] or m["y"]
        ),
    ),
    # "have the top rating of 4": a rating of 4
    (
        re.compile(
            r"\bthe (?:top|highest|best|maximum|max|lowest|minimum|min) (\w+) of (?=\d)", re.I
        ),
        r"a \1 of ",
    ),
    # newsroom and everyday verbs: "swing over to São Paulo", "bump up the zoom a couple
    # notches", "kill the Sites layer", "nuke the rivers", "districts back on"
    (
        re.compile(
            r"^(?:swing|hop|pop|zip|nip|whip|scoot|shoot|skip) (?:over |across |on )?(?:to|"
            r"towards?) ",
            re.I,
        ),
        "fly to ",
    ),
    (
        re.compile(
            r"^(?:bump|crank|kick|ramp|push|turn) up the zoom\b|^(?:bump|crank|kick|push) the "
            r"zoom up\b",
            re.I,
        ),
        "zoom in",
    ),
    (
        re.compile(r"^(?:drop|bring|turn|dial|pull) (?:down )?the zoom(?: down)?\b", re.I),
        "zoom out",
    ),
    (re.compile(r"\ba couple(?: of)? (?:notches|clicks|steps|levels|ticks)\b", re.I), "2 levels"),
    (re.compile(r"\b(?:a notch|one notch|a click|one click|a tick)\b", re.I), "1 level"),
    (
        re.compile(
            r"^(?:kill|nuke|ditch|scrap|axe|bin|trash|dump|zap|yeet) (?=(?:the|all|both|my|"
            r"our|that|this|those|these|it|them)\b)",
            re.I,
        ),
        "remove ",
    ),
    (re.compile(r"^(?:the )?(?P<x>\w+(?: \w+)?) back on$", re.I), r"show the \g<x>"),
    # "choropleth on district value": colour the districts by value
    (
        re.compile(
            r"^(?:(?:make|do|build|draw) (?:a |the )?)?choropleth(?: map)? (?:on|of|by|for|"
            r"using|with) (?:the )?(?P<l>\w+)(?: (?!by\b)(?P<f>\w+))?\b",
            re.I,
        ),
        lambda m: f"colour the {m['l']} by {m['f']}" if m["f"] else f"colour the {m['l']}",
    ),
    # "satellite underneath": the satellite basemap
    (
        re.compile(
            r"^(satellite|dark|light|streets?|aerial)(?: view| imagery| basemap)? (?:underneath|"
            r"below|under it|in the background|behind)$",
            re.I,
        ),
        r"\1 basemap",
    ),
    # "10 million plus": at least that
    (
        re.compile(
            r"\b(\d[\d.,]*(?: ?(?:million|thousand|k|m|bn|billion|mil))?) ?(?:\+|plus)(?! ?\d)",
            re.I,
        ),
        r"at least \1",
    ),
    # "state A counties only": the counties of state A
    (
        re.compile(r"^(?P<f>[a-z]\w*) (?P<v>(?-i:[A-Z0-9])\w*) (?P<l>[a-z]\w+) only$", re.I),
        r"only \g<l> with \g<f> \g<v>",
    ),
    # "the district w the highest value", "a new layer w/ the capitals": with; "10 mil": million
    (re.compile(r"(?<=\w) w/? (?=\w)|(?<=\w) w/(?=\w)", re.I), " with "),
    (re.compile(r"(?<=\d) ?mil\b(?!e)", re.I), " million"),
    # "join the districts together into their regions": merge them by region
    (
        re.compile(
            r"\b(?:join|combine|group|merge|lump|fuse) (?P<x>(?:the |all the )?\w+)"
            r"(?: together| up)? (?:into|by|per) (?:their |its |the )?(?!one\b|a\b|single\b)"
            r"(?P<f>\w+?)s?\b",
            re.I,
        ),
        r"merge \g<x> by \g<f>",
    ),
    # "the rivers map", "how many maps", "hide all the other maps", "a new map with only ...":
    # a layer, said as people who call every layer a map do
    (
        re.compile(
            r"\b(?P<q>how many|all the|all|the other|other|each|every|both|my|our|these|"
            r"those) maps\b",
            re.I,
        ),
        r"\g<q> layers",
    ),
    (re.compile(r"\ba new map\b", re.I), "a new layer"),
    (
        re.compile(
            r"\b(?P<x>(?!(?:its|this|his|us|was|is|as|has|does|yes|plus|focus|canvas)\b)"
            r"[a-z]\w*s) map\b(?! of)",
            re.I,
        ),
        r"\g<x> layer",
    ),
    # "make the rivers thicker, like 5": that width; "bigger, like 10": that size
    (
        re.compile(
            r"\b(?:thicker|wider|thinner|narrower),? (?:like|say|about|maybe|around|to) "
            r"(?=\d)",
            re.I,
        ),
        "width ",
    ),
    (
        re.compile(
            r"\b(?:bigger|larger|smaller),? (?:like|say|about|maybe|around|to) (?=\d)", re.I
        ),
        "size ",
    ),
    (re.compile(r"[,!.]* like (?=by \w)", re.I), " "),  # "bigger dots, like by population"
    # "give every region its own colour", "each state a different colour", "so each kind gets
    # a different colour", "different colours for each kind of site": one colour per value
    (
        re.compile(
            r"\b(?:give |with |so (?:that )?)?(?:every|each) (?P<f>\w+?)s? (?:gets? |has |"
            r"in )?(?:its own|a different|a separate|their own|a unique|an own) colou?r\b",
            re.I,
        ),
        lambda m: f"colour by {m['f']}" if m.start() == 0 else f"by {m['f']}",
    ),
    (
        re.compile(
            r"\bdifferent colou?rs? (?:for|per) (?:each|every) (?P<f>\w+?)s?(?: of "
            r"(?:the )?(?P<l>\w+))?\b",
            re.I,
        ),
        lambda m: f"colour the {m['l']} by {m['f']}" if m["l"] else f"colour by {m['f']}",
    ),
    # "make it tilted like 3D", "so its more 3d looking": tilt it
    (re.compile(r"\bmake (?:it|the map|the view) tilted\b", re.I), "tilt the map"),
    (
        re.compile(
            r"(?<=\btilt the map) (?:like|in|into|to look) (?:3d|three.dimensional)\b", re.I
        ),
        "",
    ),
    (re.compile(r"\b(?:so )?it'?s more 3d(?: looking)?\b", re.I), "in 3d"),
    # "the one with all the streets on it", "the map with the streets", "can I get a normal
    # street map": the streets basemap
    (
        re.compile(
            r"^(?:can (?:we|i) (?:have|get)|give me|show|use|switch to|i want|let'?s have) "
            r"(?:the (?:one|map) with (?:all )?the (?:streets|roads)(?: on it)?|(?:a |the )?"
            r"(?:normal |regular |standard |plain )?street ?map)\b",
            re.I,
        ),
        "switch to the streets basemap",
    ),
    (
        re.compile(r"\bsatellite (?:images?|imagery|photos?|pictures?|photographs?)\b", re.I),
        "satellite",
    ),
    # "make everything around Germany dark so only germany stands out": highlight it
    (
        re.compile(
            r"\b(?:make|turn|paint|colou?r|shade) everything (?:around|outside|except|but|"
            r"apart from|other than) (?P<x>.+?) (?:dark|black|grey|gray|dim|darker|faded)\b",
            re.I,
        ),
        r"highlight \g<x>",
    ),
    # "the highlight thing", "that heatmap thingy": the thing itself
    (re.compile(r"(?<=\w) thing(?:y|ies|s)?\b(?! (?:is|are|was|of))", re.I), ""),
    # GIS words: "symbology", "attribute table", "records", "definition query", "proportional
    # symbols", "using X as the weight", "the Rhine river feature", "set the scale to zoom
    # level 6"
    (
        re.compile(
            r"\b(?:open|show|look at|check) (?:the )?attribute table (?:of|for) (?:the )?"
            r"(?P<l>\w+),? how many (?:records|rows|features|entries)",
            re.I,
        ),
        r"how many \g<l>",
    ),
    (
        re.compile(
            r"\b(?:open|show|look at|check) (?:the )?attribute table (?:of|for) (?:the )?"
            r"(?P<l>\w+),? ",
            re.I,
        ),
        "",
    ),
    (
        re.compile(r"(?P<pre>\b(?:in|of|from) )?(?:the )?(?P<l>\w+) attribute table\b", re.I),
        lambda m: f"{m['pre'] or ''}the {m['l']}",
    ),
    (re.compile(r"\bhow many records\b", re.I), "how many features"),
    (
        re.compile(
            r"\b(?:do |run |apply |make |set )?(?:a )?definition query on (?:the )?(?P<l>\w+)"
            r"[:,]? ",
            re.I,
        ),
        r"only show \g<l> with ",
    ),
    (
        re.compile(r"\b(?:change|set|update|edit) (?:the )?(?P<l>\w+)(?:'s)? symbology\b", re.I),
        r"colour the \g<l>",
    ),
    (
        re.compile(r"\bproportional symbols? for (?:the )?(?P<l>\w+) (?:based on|by|using) ", re.I),
        r"size the \g<l> by ",
    ),
    (re.compile(r"\busing (?P<f>\w+) as (?:the )?weights?\b", re.I), r"weighted by \g<f>"),
    (re.compile(r"\b(?P<x>[A-Z][\w'-]+) (?:river|lake|road|street)? ?feature\b"), r"\g<x>"),
    (re.compile(r"\bset the scale to (?=zoom level|level)", re.I), "zoom to "),
    # "rotate the map so the bearing is 90°", "tilt it so the pitch is 45": to that
    (
        re.compile(
            r",? so (?:that )?the (?:bearing|rotation|heading|angle|pitch|tilt) is (?=\d)", re.I
        ),
        " to ",
    ),
    # "where are all the sites? zoom there": to them
    (
        re.compile(
            r"^where (?:are|is) (?:all )?(?P<x>the \w+)[?.,]* (?:(?:zoom|go|take me|fly|move) "
            r"(?:there|to them)|show (?:me|us|them)(?: there)?)\b",
            re.I,
        ),
        r"zoom to \g<x>",
    ),
    # "make the map red": a layer's colour, of the layer meant
    (
        re.compile(r"^(?P<v>make|colou?r|paint|turn) the (?:whole )?map (?P<c>[a-z]+)$", re.I),
        lambda m: f"{m['v']} it {m['c']}" if colours.parse(m["c"]) else m.group(0),
    ),
    # shorthand a developer types: "bearing=30", "rating>=3", "pop>1e6", "20M", "rm rivers",
    # "rename districts -> Zones", "cities + rivers", "undo x2", "lisbon z12", "pitch 45",
    # "water #0a3d62", "set the zoom level to 6"
    (re.compile(r"(?<=[a-z])\s*(>=|<=|=|>|<)\s*(?=[\w#.-])", re.I), r" \1 "),
    (
        re.compile(r"\b(\d+(?:\.\d+)?)e(\d)\b", re.I),
        lambda m: f"{float(m[1]) * 10 ** int(m[2]):.0f}",
    ),
    (re.compile(r"(?<=\d)(M|[kK])\b"), lambda m: " million" if m[1] == "M" else " thousand"),
    (
        re.compile(r"\bpop\b(?=\s*(?:[<>=]|\d))|\bpop\.? (?=districts|cities|counties)", re.I),
        "population ",
    ),
    (re.compile(r"\b(bearing|pitch|zoom|tilt|rotation|heading) = (?=\d)", re.I), r"\1 "),
    (re.compile(r"^goto\b", re.I), "go to"),
    (re.compile(r"^rm (?=\w)", re.I), "remove "),
    (re.compile(r"\s*->\s*"), " to "),
    (re.compile(r"(?<=\w) \+ (?=\w)"), " and "),
    (
        re.compile(r"\b(undo|redo) (?:x\s?(\d+)|(\d+)\s?x)\b", re.I),
        lambda m: f"{m[1]} {m[2] or m[3]} times",
    ),
    (
        re.compile(
            r"^(?!(?:set|put|change|make|go|zoom)\b)(?P<p>[a-z][\w ]*?)(?<! at)(?<! to),? "
            r"(?:z|zoom )(?P<z>\d{1,2})$",
            re.I,
        ),
        r"\g<p> at zoom \g<z>",
    ),
    (
        re.compile(r"\b(?:pitch|tilt)(?: =)? (?=\d+(?:\s?(?:°|deg|degrees))?(?:$|,))", re.I),
        "tilt to ",
    ),
    (
        re.compile(r"^(water|land|parks|roads|buildings)(?: colou?r)? (?=#[0-9a-f]{3,6}$)", re.I),
        r"make the \1 ",
    ),
    (
        re.compile(r"\b(?:set|put|change|make) (?:the )?zoom(?: level)? (?:to|at|=) (?=\d)", re.I),
        "zoom to level ",
    ),
    (re.compile(r",? zoom level (\d+) is (?:fine|ok|okay|good|enough)\b", re.I), r" at zoom \1"),
    # "fields on districts?", "counties in state B?", "population labels": the question, the
    # condition and the labels they stand for
    (
        re.compile(r"^(?:fields|columns|attributes) (?:on|of|in) (?P<l>[\w ]+?)\??$", re.I),
        r"what fields do \g<l> have",
    ),
    (
        re.compile(
            r"^(?:how many )?(?P<l>[a-z]+s) in (?P<f>[a-z]+) (?P<v>(?-i:[A-Z0-9])\w*)\??$", re.I
        ),
        r"how many \g<l> have \g<f> \g<v>",
    ),
    (re.compile(r"^(?P<f>[a-z]+) labels$", re.I), r"label by \g<f>"),
    (re.compile(r"^(?P<f>[a-z]+s) (?:in|of) (?P<l>[a-z]+)\?$", re.I), r"list the \g<f> in \g<l>"),
    (
        re.compile(
            r"^(?P<s>max|min|maximum|minimum|highest|lowest|biggest|smallest|largest) "
            r"(?P<f>[a-z]+) (?:in |of |for )?(?:the )?(?P<l>[a-z]+)\??$",
            re.I,
        ),
        r"what is the \g<s> \g<f> of the \g<l>",
    ),
    # "a 4 star rating": a rating of 4
    (re.compile(r"\ba (\d+(?:\.\d+)?)[ -]star rating\b", re.I), r"a rating of \1"),
    # "go to Madrid but not too close", "the thing with the colours on the districts", "light
    # to dark by the value", "from low to high rating", "the map with the streets on it",
    # "rank the rivers from longest to shortest", "not just the capitals", "the one before"
    (re.compile(r",? but not (?:too|so) (?:close|far|near)(?: in| out)?\b", re.I), ""),
    (
        re.compile(r"\b(?:do )?the (?:thing |one |style )?with the colou?rs? (?:on|for|of) ", re.I),
        "colour ",
    ),
    (re.compile(r"\bat zoom (?=\d)", re.I), "at zoom level "),
    (
        re.compile(
            r",? (?:from )?(?:light|pale) to dark\b|,? (?:from )?dark to (?:light|pale)\b", re.I
        ),
        "",
    ),
    (re.compile(r"\bfrom low to high (?=\w)|\bfrom high to low (?=\w)", re.I), "by "),
    (
        re.compile(
            r"\brank (?:the )?(?P<x>\w+) (?:from|by) (?:the )?(?P<s>\w+est) to (?:the )?"
            r"\w+est\b",
            re.I,
        ),
        r"what are the \g<s> \g<x>",
    ),
    (re.compile(r",? not (?:just|only) the \w+\b", re.I), ""),
    (re.compile(r"^(?:go|take me|jump) back to the (?:one|view|place) before\b", re.I), "undo"),
    # "big cities should have big dots and small cities small dots", "longer rivers should be
    # drawn with thicker lines": sized by what makes them big
    (
        re.compile(
            r"^(?:the )?(?:big|bigger|large|larger) (?P<x>\w+) (?:should )?(?:have|get) "
            r"(?:big|bigger|large|larger) (?:dots|circles|symbols|points|bubbles)(?: and "
            r"(?:the )?(?:small|smaller) \w+ (?:should )?(?:have |get )?(?:small|smaller) "
            r"(?:dots|circles|symbols|points|bubbles|ones))?",
            re.I,
        ),
        r"make the \g<x> bigger",
    ),
    (
        re.compile(
            r"^(?:the )?(?P<a>longer|bigger|larger|wider) (?P<x>\w+) should be (?:drawn|shown|"
            r"displayed) (?:with|as|in) (?:thicker|wider|bigger|fatter) (?:lines|dots|circles|"
            r"symbols)",
            re.I,
        ),
        r"make the \g<x> thicker the \g<a> they are",
    ),
    # "a normal street map", "the most people living there", "bigger dots for the better rated
    # cafes", "cities: bigger circle the more people"
    (re.compile(r"(?<=\bmost people) (?:living|who live) (?:there|in it|in them)\b", re.I), ""),
    (
        re.compile(
            r"\b(?:make )?bigger (?:dots|circles|symbols|points) for (?:the )?(?:better|higher|"
            r"best|top)[ -](?:rated|ranked) (?P<x>\w+)",
            re.I,
        ),
        r"size the \g<x> by rating",
    ),
    (
        re.compile(
            r"\bmake (?:the )?(?P<x>\w+) with (?:better|higher) ratings? (?:show up|look|appear)"
            r" bigger\b",
            re.I,
        ),
        r"size the \g<x> by rating",
    ),
    (
        re.compile(
            r"^(?P<x>\w+): bigger (?:circles?|dots?|symbols?) the more (?:people|inhabitants|"
            r"residents)\b",
            re.I,
        ),
        r"size the \g<x> by population",
    ),
    # "lol", "haha": a laugh changes nothing
    (re.compile(r"[\s,]+(?:lol|lmao|haha+|hehe+|xd|omg|rofl)\b[!.]*", re.I), ""),
    # "zoom way out": zoom out that much
    (re.compile(r"\bzoom (way|far|a lot|much) (out|in)\b", re.I), r"zoom \2 \1"),
    # "point north again", "face north": north up
    (
        re.compile(
            r"^(?:point|face|turn|set|put|orient) (?:the map |it )?(?:back )?(?:to )?north"
            r"(?: up)?(?: again)?$",
            re.I,
        ),
        "face north",
    ),
    # "center on Lyon at city scale": the zoom a city is seen at
    (re.compile(r",? at (?:city|town) (?:scale|level|zoom)\b", re.I), ""),
    # "all of mainland Portugal", "continental France": the country
    (re.compile(r"\b(?:mainland|continental) (?=(?-i:[A-Z]))", re.I), ""),
    # "how many (of) inhabitants in total in the counties": their total population
    (
        re.compile(
            r"^how many (?:of )?(?:inhabitants|people|residents) (?:are (?:there )?|live )?"
            r"(?:in total|altogether|"
            r"together|combined) (?:in|of|across) (?P<x>.+)$",
            re.I,
        ),
        r"what is the total population of \g<x>",
    ),
    # "on the locator map": on the map
    (re.compile(r"\b(?:locator|location|overview|inset) map\b", re.I), "map"),
    # "a softer and paler blue": the last of the words of shade
    (
        re.compile(
            r"\b(?:softer|lighter|gentler|darker|deeper|brighter|warmer|cooler|paler|richer|"
            r"calmer)(?:,| and) (?=(?:softer|lighter|gentler|darker|deeper|brighter|warmer|"
            r"cooler|paler|richer|calmer) \w+)",
            re.I,
        ),
        "",
    ),
    # "only the monuments among the sites, not the museums or the parks": the others, said
    (
        re.compile(
            r"(?P<x>\bonly\b[^.!?]*?),? not (?:the )?\w+(?:,? (?:or|and|nor) (?:the )?\w+)*"
            r"(?=[,.!?]|$)",
            re.I,
        ),
        r"\g<x>",
    ),
    # "cut the rivers so that we only have the parts inside Portugal": clip them to it
    (
        re.compile(
            r"\b(?:cut|trim|crop|clip) (?P<x>.+?),? so (?:that )?(?:we |you |i )?only "
            r"(?:have|keep|see|get) (?:the )?(?:parts?|bits?|sections?|stretches|pieces?) "
            r"(?:inside|in|within) ",
            re.I,
        ),
        r"clip \g<x> to ",
    ),
    # "how many of the sites are monuments, as opposed to museums or parks": the others, said
    # for contrast
    (
        re.compile(
            r",? (?:as opposed to|rather than|not counting|compared to|versus|vs\.?) "
            r"[^.!?]*",
            re.I,
        ),
        "",
    ),
    # "how many cities do we actually have", "the longest river we have": ours, said
    (
        re.compile(
            r"\b(do|did|does) (we|i|you) (?:actually|really|currently|now|still|even) "
            r"(?=have|got|show)",
            re.I,
        ),
        r"\1 \2 ",
    ),
    (
        re.compile(
            r"(?<!\bdo)(?<!\bdid)(?<!\bdoes)(?<!\bhow many)(?<!\bhow much) (?:that |which )?"
            r"(?:we|i) (?:have|'ve got|have got|got)(?: here| on (?:the|our|my|this) map)?"
            r"(?= *(?:[,.!?]|$))",
            re.I,
        ),
        "",
    ),
    # "add up the population of all the squares", "the total number of visitors to the sites":
    # the total of a field
    (
        re.compile(r"^(?:add up|sum up|tot up|total up|add together|sum) (?:all )?(?=the )", re.I),
        "what is the total ",
    ),
    (
        re.compile(
            r"\btotal number of (?P<f>\w+) (?:to|at|in|across|for|of) (?=(?:all )?the )", re.I
        ),
        r"total \g<f> of ",
    ),
    # "zoom in really quite close": one word of degree is enough
    (
        re.compile(
            r"\b(really|very|quite|rather|pretty|so|ever so)(?: (?:really|very|quite|rather|"
            r"pretty|so|awfully|terribly))+\b",
            re.I,
        ),
        r"\1",
    ),
    # "tilt the map somehow", "turn the map round by 45 degrees", "a width of 4, perhaps":
    # words that change nothing
    (
        re.compile(
            r",? (?:somehow|somewhat|perhaps|maybe)(?=[,.!?]|$)|(?<=\bturn the map) a?round\b"
            r"|(?<=\bturn it) a?round\b(?= by| \d)",
            re.I,
        ),
        "",
    ),
    # "... Italy? I'd like the members to see the entire boot.": what it is for, in a sentence
    # of its own (someone else is to see it); "northwards I mean": said again
    (
        re.compile(
            r"(?:(?<=[.!?]) |,? and )(?:i'?d|i would|i should|we'?d|we would|i want|we want)"
            r"(?: so much| "
            r"very much| really)? (?:like|love|want) (?:the \w+|our \w+|everyone|everybody|"
            r"people|them|the class|all of them|all of us|the whole \w+) to (?:see|know|"
            r"understand|spot|notice|find|look|get|appreciate|imagine)\b[^.!?]*[.!?]?"
            r"|,? i mean(?=[.!?]|$)"
            # "... Otherwise nobody will know which is which.": why, in a sentence of its own
            r"|(?<=[.!?]) (?:otherwise|that way|this way|so that|because|since)\b[^.!?]*[.!?]?"
            # "... It would make the point so much better.": what it would do
            r"|(?<=[.!?]) (?:i think |i hope |hopefully )?(?:it|that|this|which) (?:would|will|'d|"
            r"'ll|should|might|could) (?:really )?(?:make|help|look|be|give|let)\b[^.!?]*[.!?]?",
            re.I,
        ),
        "",
    ),
    # "..., so they show up properly on the projector": why (not "so we can see ...", which
    # says what to frame, nor "so it looks 3D", which is the request)
    (
        re.compile(
            r",? so (?:that )?(?!(?:\w+ ){0,7}(?:3d|three.dimensional|north|east|west|south|"
            r"top|bearing|pitch|angle|heading|rotation|zoom|tilt)\b)(?:they|it|the \w+|our \w+|"
            r"people|everyone|everybody|readers|we|i|you) (?:can |could |will |would |'ll )?"
            r"(?:show up|stand out|looks?|read|reads|is|are|feels?|fits?|matches?|"
            r"works?|tell|spot|follow|understand|notice|make out|compare|appear|prints?|comes? "
            r"out)\b[^.!?]*",
            re.I,
        ),
        "",
    ),
    # "... by value? Five classes would be ideal.": the classes, as part of the request
    (
        re.compile(
            r"[?.!,]* (?:(?:and|with|in) )?(\w+) (classes|categories|bins|groups|steps) (?:would "
            r"be|would work|are|is|should do|will do|sounds?)[\w ]*?(?:ideal|good|great|best|nice|"
            r"fine|perfect|enough|right|well)?[.!]*$",
            re.I,
        ),
        r" in \1 classes",
    ),
    (re.compile(r"\bwhat'?s\b", re.I), "what is"),
    (re.compile(r"\bwhat're\b", re.I), "what are"),
]
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "a hundred": 100,
    "a couple of": 2, "a couple": 2, "once": 1, "twice": 2, "thrice": 3, "a few": 3,
    "several": 3, "half": 0.5, "a half": 0.5, "half a": 0.5, "a quarter": 0.25,
    "a dozen": 12, "dozen": 12,
}  # fmt: skip
SCALE_WORDS = {"thousand": 1e3, "k": 1e3, "million": 1e6, "millions": 1e6, "m": 1e6,
               "mio": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9}  # fmt: skip
AMOUNT = re.compile(
    r"(?P<digits>\d{1,3}(?:[,.\u00a0 ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)"
    r"|(?P<words>(?:" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
    r"(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?)"
)
AMOUNT_TEXT = (
    r"(?:\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?|half a|a half|a quarter|"
    + "|".join(sorted((w for w in NUMBER_WORDS if " " not in w), key=len, reverse=True))
    + r")(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
    r"(?: ?(?:thousand|million|millions|billion|mio|mn|bn|k|m|b)\b)?"
)
"""A regular expression that finds an amount in a sentence ("10 million", "1,000", "twelve")."""


# "zoom out 1. no wait, make that 3", "hide the cities, sorry, I meant the districts": a
# correction after a clause (two words at least, so "no roads" is none)
CORRECTION = re.compile(
    r"(?:^|(?<=[.,;!?])|(?<= -)) *(?:(?:no+|nope|wait|sorry|oops|actually|hmm+|ah|oh)[,.!]* +)+"
    r"(?:(?:no+|wait|sorry|i meant|i mean|make (?:that|it)|rather|instead|better|scratch that)"
    r"\b[,.!]* *)+|(?<=[.,;!?]) *(?:i meant|i mean|or rather|scratch that|make that)\b[,.!]* +",
    re.I,
)
# "actually, make that Spain", "no, I meant the sites", "sorry - Porto": a whole message that
# corrects the last turn's target
RETHOUGHT = re.compile(
    r"(?:(?:(?:no+|nope|wait|sorry|oops|actually|hmm+|ah|oh|erm?)[,.!]* +)*"
    r"(?:i meant|i mean|(?:no+|nope|sorry|oops|wait)(?:[,.!]+| -))|"
    r"actually,? (?=(?-i:[A-Z]))|"
    r"(?:(?:no+|nope|wait|sorry|oops|actually|hmm+|ah|oh|erm?)[,.!]* +)+make (?:that|it)|"
    r"make (?:that|it)(?= (?-i:[A-Z])| the ))[,.!]* *(?P<x>[^,]+?)(?: instead| rather)?[.!]*",
    re.I,
)
VERB_HEAD = re.compile(r"^(?:\w+ ){1,2}?(?:to|the|on|in|into|over|at|by) ", re.I)
CORRECTION_TAIL = re.compile(r"^(?:(?:make (?:that|it)|rather|instead|better) )?(?P<rest>.+?)"
                             r"(?: instead| rather)?[.!]*$", re.I)  # fmt: skip


def _verb(stem: str) -> str:
    """The verb whose "-ing" form lost its ending: "show", "tak" (take), "putt" (put)."""
    stem = stem.lower()
    if stem + "e" in COMMAND_WORDS or stem + "e" in ("take", "make", "move", "hide", "remove"):
        return stem + "e"
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in COMMAND_WORDS | {"put", "set"}:
        return stem[:-1]
    return stem


def corrected(text: str) -> str:
    """A message with its last clause before a correction replaced by what corrects it: a
    number alone replaces the clause's number, a target alone its target ("hide the cities.
    no wait, the districts"), a whole request the clause."""
    found = next(reversed(list(CORRECTION.finditer(text))), None)  # the last one
    if found is None or found.start() == 0 or not found.group(0).strip(" ,.;!?"):
        return text
    before, after = text[: found.start()].rstrip(" ,.;!?-"), text[found.end() :].strip()
    tail = CORRECTION_TAIL.match(after)
    if not after or tail is None:
        return text
    rest = tail.group("rest")
    head, _, last = before.rpartition(". ")
    head = f"{head}. " if head else ""
    numbers = list(re.finditer(r"\d+(?:\.\d+)?|\b(?:one|two|three|four|five|six|seven|eight|"
                               r"nine|ten)\b", last))  # fmt: skip
    if numbers and re.fullmatch(r"[\d.]+|one|two|three|four|five|six|seven|eight|nine|ten",
                                rest, re.I):  # fmt: skip
        at = numbers[-1]
        return f"{head}{last[: at.start()]}{rest}{last[at.end() :]}"
    said = colours.parse(rest) if len(rest.split()) <= 2 else None
    shades = [m for m in re.finditer(r"\b[\w#]+\b", last) if colours.parse(m.group(0))]
    if said and shades:  # "make the cities red. no wait, blue"
        at = shades[-1]
        return f"{head}{last[: at.start()]}{rest}{last[at.end() :]}"
    verb = VERB_HEAD.match(last)
    if (verb and re.match(r"(?:the|my|our|those|these|a|an)\b|[A-Z]", rest)) or (
        verb and len(rest.split()) <= 2 and rest.split()[0].lower() not in COMMAND_WORDS
    ):
        return f"{head}{verb.group(0)}{re.sub(r'^(?:the|to|on|in|into|over|at|by) ', '', rest)}"
    return f"{head}{rest}"


# "turn the countries purple (the district ones I mean)": the layer meant, said in an aside
CLARIFIED = re.compile(
    r"\bthe \w+ (?P<rest>[^()]*?)\s*\((?:i mean |i meant )?(?:the )?(?P<x>\w+?)s?"
    r"(?: ones?| layer)?(?:,? i mean| i meant)?\)",
    re.I,
)


def without_emoji(text: str) -> str:
    """A message without its pictographs ("Lisboa 💛 take me there", "🇪🇸", "☕"): symbols from
    U+2300 on, their variation selectors and joiners (the degree sign and arrows stay). One
    between words ends a sentence, as people use them."""
    marked = "".join(
        "\x00" if unicodedata.category(ch) == "So" and ord(ch) >= 0x2300 else ch
        for ch in text
        if not (0xFE00 <= ord(ch) <= 0xFE0F or ch == "\u200d" or 0x1F3FB <= ord(ch) <= 0x1F3FF)
    )
    marked = re.sub(r"(?<=[.!?,;:])\s*\x00[\x00\s]*", " ", marked)
    marked = re.sub(r"\s*\x00[\x00\s]*", ". ", marked)
    return re.sub(r"^[.\s]+|[ \t]+$", "", marked)


def clarified(text: str) -> str:
    """A message with the layer an aside in parentheses says it meant put in place of the
    words it corrects ("the countries (the district ones I mean)": the districts)."""
    return CLARIFIED.sub(lambda m: f"the {m['x']}s {m['rest']}", text)


def normalise(text: str) -> str:
    """A message as the grammar reads it (see the module docstring); its case is kept, for
    the names it carries (`Spelled` matches in lower case)."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"')
    text = text.replace("\u201d", '"').replace("\u2013", "-").replace("\u2014", "-")
    text = text.replace("\u201e", '"')  # German „...“
    text = re.sub(r"(?<=\w) +(?=[!?;](?:\s|$))", "", text)  # French spacing: "merci ! ..."
    text = GREETING.sub("", text)
    text = TOPIC.sub(lambda m: f"{m['rest']}{m['topic']}", text)
    text = APOLOGY.sub("", text)
    text = ASKED.sub("", text)
    for pattern, replacement in SHORTHAND:
        text = pattern.sub(replacement, text)
    text = re.sub(r"\s+", " ", text.strip())
    # "show me please Hamburg", "zoom, please, to level 6": politeness inside a sentence
    text = re.sub(r"(?<=\w), (?:please|pls|plz),(?= \w)", ",", text, flags=re.I)
    text = re.sub(r"(?<=\w)(,?) (?:please|pls|plz)(?=,? \w)", r"\1", text, flags=re.I)
    # "zoom in two levels, it's way too far out": the reason for a zoom is no second zoom
    if re.search(r"\bzoom", text, re.I):
        text = re.sub(
            r",? (?:it'?s|it is|we'?re|i'?m) (?:way |much |far |a bit |a little |so )?too "
            r"(?:far out|far away|zoomed out|close|zoomed in)[.!]*$",
            "",
            text,
            flags=re.I,
        )
    text = corrected(text)
    # "colour them by the field value", "the average of column rating": the field's name
    text = re.sub(r"\b(by|of|on|per|using) (?:the )?(?:field|column|attribute) (?=\w)", r"\1 ",
                  text, flags=re.I)  # fmt: skip
    # "pinta los puntos de morado": paint the points purple
    painted = re.fullmatch(r"(?P<x>(?:paint|colou?r) .+) (?:of|in) (?P<c>[\w ]+?)[.!]*", text, re.I)
    if painted and len(painted["c"].split()) <= 2 and colours.parse(painted["c"]):
        text = f"{painted['x']} {painted['c']}"
    # "tilt the map there by 45 degrees": the map is where it is
    text = re.sub(r"\b((?:tilt|rotate|turn|spin|pitch)\w* (?:the map|the view)) there\b", r"\1",
                  text, flags=re.I)  # fmt: skip
    # "highlight Portugal" then "now Spain instead": the same, for Spain
    instead = re.fullmatch(r"(?:(?:now|and|then|ok|okay|no|better|do|try|go with),? )*"
                           r"(?P<x>[^,]+?),? instead"
                           r"(?: of [^,]+?)?[.!]*", text,
                           re.I) or RETHOUGHT.fullmatch(text)  # fmt: skip
    said = instead["x"].lower().split() if instead else []
    if instead and len(said) <= 3 and not set(said) & (COMMAND_WORDS | {"use", "try", "make"}):
        text = f"instead, the same for {instead['x']}"
    before = None
    while text != before:  # "hey, could you please ... thanks": one layer at a time
        before = text
        text = TRAILING.sub("", POLITE.sub("", text)).strip()
    return text


def number(text: str) -> float | None:
    """A number written as digits or as words ("two", "twice", "forty-five", "10 million",
    "1,000", "2.5k"), or None."""
    text = text.strip().lower()
    if text in NUMBER_WORDS:
        return float(NUMBER_WORDS[text])
    if not re.fullmatch(r"\d{1,3}[,.]\d{3}", text):  # "1,000" is a thousand, "1,5" one and a half
        try:
            return float(text.replace(",", "."))
        except ValueError:
            pass
    return amount(text)


def amount(text: str) -> float | None:
    """The whole of `text` read as an amount, with thousands separators and scale words
    ("1,000", "1.000", "10 million", "ten million", "1.5m", "twenty-five"), or None."""
    text = text.strip().lower().removeprefix("a ").strip()
    found = re.fullmatch(r"(?P<base>.+?)(?: ?(?P<scale>" + "|".join(SCALE_WORDS) + r"))?", text)
    if found is None:
        return None
    base = _base(found.group("base").strip())
    if base is None:
        return None
    return base * SCALE_WORDS.get(found.group("scale") or "", 1.0)


def _base(text: str) -> float | None:
    if text in NUMBER_WORDS:
        return float(NUMBER_WORDS[text])
    compound = re.fullmatch(r"(\w+)[- ](one|two|three|four|five|six|seven|eight|nine)", text)
    if compound and compound.group(1) in NUMBER_WORDS and NUMBER_WORDS[compound.group(1)] >= 20:
        return float(NUMBER_WORDS[compound.group(1)] + NUMBER_WORDS[compound.group(2)])
    grouped = re.fullmatch(
        r"\d{1,3}(?P<sep>[,.\u00a0 ])\d{3}(?:(?P=sep)\d{3})*(?P<rest>[.,]\d+)?", text
    )
    if grouped:  # "1,000", "1.000.000", "1 000": thousands
        whole = re.sub(r"[,.\u00a0 ]", "", text[: len(text) - len(grouped.group("rest") or "")])
        return float(whole) + float("0." + (grouped.group("rest") or ".0")[1:])
    try:
        return float(text.replace(",", "."))
    except ValueError:
        return None


class Spelled:
    """A normalised clause with its command words corrected, and the words as typed."""

    def __init__(self, text: str, protected: Iterable[str] = ()) -> None:
        keep = {word for name in protected for word in re.findall(r"[a-z0-9]+", name.lower())}
        self.words = text.split(" ")
        self.fixed = [_fix(word.lower(), keep) for word in self.words]
        self.text = " ".join(self.fixed)
        self._starts = []
        at = 0
        for word in self.fixed:
            self._starts.append(at)
            at += len(word) + 1

    def typed(self, start: int, end: int) -> str:
        """The words as typed that the corrected text's characters `start:end` cover."""
        while start < end and self.text[start] == " ":
            start += 1
        while end > start and self.text[end - 1] == " ":
            end -= 1
        if start >= end:
            return ""
        first = next(i for i, at in reversed(list(enumerate(self._starts))) if at <= start)
        last = next(i for i, at in reversed(list(enumerate(self._starts))) if at < max(end, 1))
        typed = " ".join(self.words[first : last + 1])
        # Keep what the match cut from the first and last words (such as a trailing comma).
        head = start - self._starts[first]
        tail = self._starts[last] + len(self.fixed[last]) - end
        if self.words[first].lower() == self.fixed[first]:
            typed = typed[head:]
        if self.words[last].lower() == self.fixed[last] and tail > 0:
            typed = typed[:-tail]
        return typed.strip()


# Misspellings too far from their word for the rule below.
MISSPELLED = {"capitol": "capital", "capitols": "capitals",
              "highlite": "highlight", "hilight": "highlight", "hilite": "highlight",
              "colur": "colour", "collor": "color", "satelite": "satellite",
              "sattelite": "satellite", "transparant": "transparent", "opacitiy": "opacity",
              "basemape": "basemap", "zooom": "zoom", "zoomm": "zoom"}  # fmt: skip


def spelled_as(text: str, vocabulary: tuple[str, ...]) -> str:
    """`text` with its typos of these words corrected (as `Spelled` corrects command words)."""
    return " ".join(_fix(word, set(), vocabulary) for word in text.split(" "))


def _fix(word: str, keep: set[str], vocabulary: tuple[str, ...] = VOCABULARY) -> str:
    bare = word.strip(",;:'\"")
    if bare in MISSPELLED and bare not in keep:
        return word.replace(bare, MISSPELLED[bare])
    if len(bare) < 3 or not bare.isalpha() or bare in COMMAND_WORDS or bare in COMMON:
        return word
    if bare in keep:
        return word
    limit = 2 if len(bare) >= 7 else 1
    close = sorted(
        (distance, rank, known)
        for rank, known in enumerate(vocabulary)
        if abs(len(known) - len(bare)) <= limit
        and known[0] == bare[0]
        and (distance := OSA.distance(bare, known, score_cutoff=limit)) <= limit
    )
    if not close:
        return word
    return word.replace(bare, close[0][2])
