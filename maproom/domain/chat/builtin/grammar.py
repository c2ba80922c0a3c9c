"""What a clause of a message asks for: one `Intent` with its slots, or None.

Each rule is a regular expression over the clause as `text.Spelled` corrected it, tried in
order; a rule's named groups are its slots, read back as typed (so a place or a layer name keeps
its spelling for the fuzzy look-ups that follow). Rules only recognise the shape of a request;
whether "the cafes" is a layer, "roads" a basemap category or "Lisbon" a place is decided later
(`agent.py`), against the project and the gazetteer.

`clauses` splits a message into the clauses it may be made of ("switch to dark mode and fly to
Berlin"): the whole message first, then splits at "and", "then", ";" and sentence ends, so that
"fly to Bosnia and Herzegovina" stays one clause when that reads best.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from maproom.domain.chat.builtin.text import Spelled

ART = r"(?:(?:the|a|an|my|our|this|that|those|these|all the|all|all of the) )?"
LAYER = r"(?: layers?| data(?:set)?| points?)?"
ON_MAP = r"(?: (?:on|in|from|of) (?:the )?(?:basemap|base map|background(?: map)?|map))?"
AMOUNT = (
    r"(?P<amount>(?: (?:a (?:little|tiny) )?bit| a little| slightly| a tad| a lot| much| way| far"
)
AMOUNT += (
    r"| more| a lot more| a bit more| all the way| twice| thrice| once| again| by \S+(?: levels?)?"
)
AMOUNT += r"| \S+ (?:more )?(?:levels?|times?|steps?|notches?|clicks?)| \S+))*"
STYLE_WORDS = (
    r"dark|darker|night|black|light|lighter|day|white|bright|satellite|aerial|imagery|"
    r"satellite imagery|aerial imagery|photo|photos|satellite view|streets?|street map|road map|"
    r"osm|openstreetmap|blank|none|empty|plain|nothing|offline|no basemap|no map|default|normal"
)
CATEGORY_WORDS = (
    r"roads?|streets|highways|labels?|place names|names|text|water|oceans?|seas?|lakes?|rivers?|"
    r"parks?|green ?spaces?|buildings?|boundaries|borders?|land"
)
DIRECTIONS = r"north|south|east|west|left|right|up|down|northeast|northwest|southeast|southwest"
SIZE_WORDS = (
    r"bigger|larger|smaller|tinier|thicker|thinner|wider|narrower|fatter|slimmer|"
    r"more transparent|less transparent|more opaque|less opaque|semi-transparent|"
    r"semi transparent|see-through|see through|transparent|opaque|fainter|more visible|"
    r"much bigger|much smaller|a bit bigger|a bit smaller|a little bigger|a little smaller"
)
REFUSE = re.compile(
    r"\b(?:weather|forecast|temperature|joke|poem|song|story|recipe|stock|stocks|bitcoin|"
    r"crypto|news|translate|translation|email|e-mail|essay|homework|password|passwords|"
    r"credit card|horoscope|lottery)\b"
)
INJECTION = re.compile(
    r"ignore (?:all |any |the )?(?:previous|prior|above|earlier|your) (?:instructions|rules|"
    r"prompts?)|system prompt|you are now|disregard (?:all|any|the|your|previous)|"
    r"developer mode|jailbreak|api[ -]?keys?|\bsudo\b|rm -rf|drop table|"
    r"delete (?:the|this|my|all) (?:projects?|accounts?|files?|keys?)|"
    r"(?:remove|delete|drop) (?:the |this )?project|new instructions?|override|</?system>|"
    r"\[/?(?:inst|system)\]|<\|im_start\|>|as an ai|pretend (?:to be|you are)"
)


@dataclass
class Intent:
    """What a clause asks for: a kind and its slots (as typed)."""

    kind: str
    slots: dict[str, str] = field(default_factory=dict)
    clause: str = ""


RULES: list[tuple[str, str]] = [
    ("help", r"help|help me|what can you do|what do you do|how does this work|commands|"
             r"what can i (?:say|ask|do)|options|\?"),
    ("greet", r"(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening)|yo)(?: there)?"
              r"(?: maproom)?"),
    ("thanks", r"(?:thanks|thank you|thx|cheers|great|nice|cool|perfect|awesome)(?: .*)?"),
    ("list", r"(?:(?:list|show|tell|give|name|what are|which are|display)(?: me| us)? )?"
             r"(?:all )?(?:the |my |our )?(?:layers|layer list|list of layers)"
             r"(?: (?:are there|do i have|do we have|on the map|in (?:this|the) (?:map|project)"
             r"|you have))?|what(?:'s| is| are)? (?:on|in) (?:the|this|my) (?:map|project)|"
             r"what (?:layers|data) (?:are there|do i have|do we have|are on the map|is there|"
             r"is on the map)|which layers(?: .*)?|how many layers(?: .*)?"),
    ("home", r"(?:reset|restore|recenter|re-center)(?: the)?(?: map| view| camera| zoom| position)*"
             r"(?: to (?:the )?(?:default|start|beginning|world|home|original)(?: view)?)?|"
             r"(?:go |take me |bring me )?(?:back )?home|(?:go )?back to (?:the )?(?:start|home|"
             r"beginning|default(?: view)?|world(?: view)?|original view)|"
             r"(?:show|zoom out to|see|view|display)(?: me)?(?: the)? (?:whole |entire |full )?"
             r"(?:world|globe|planet|earth)|(?:the )?(?:whole |entire )?world(?: view| map)?|"
             r"default view|full (?:view|extent)|zoom (?:all the way )?out to (?:the )?(?:whole )?"
             r"world|go home|start (?:over|again|afresh)"),
    ("zoom_level", r"(?:zoom|set(?: the)? zoom|change(?: the)? zoom|go|jump|move)(?: in| out)?"
                   r"(?: the map)?(?: to| at)?(?: zoom)?(?: level)? (?P<level>\d+(?:\.\d+)?)|"
                   r"(?:zoom )?level (?P<level2>\d+(?:\.\d+)?)"),
    ("zoom", r"zoom ?(?P<sign>[+-]) ?(?P<amount3>\d+(?:\.\d+)?)|(?P<dir6>too close|too near|"
             r"too far(?: away| out)?|too zoomed (?:in|out))|(?:back|pull|step) (?P<dir7>out|back|"
             r"off|away)" + AMOUNT.replace("amount", "amount4") + r"|"
             r"(?:zoom|go|get|move|come)(?P<dir> in| out| closer| further| farther| back| away)"
             r"(?: the map| on the map| more)?" + AMOUNT + r"|"
             r"(?P<dir2>closer|further|farther|further away|farther away|zoom in|zoom out)"
             + AMOUNT.replace("amount", "amount2") + r"|zoom (?P<dir3>in|out)(?: all the way)?|"
             r"zoom all the way (?P<dir4>in|out)|(?:max(?:imum)?|full) zoom(?P<dir5> in)?"),
    ("pan", r"(?:pan|move|scroll|shift|slide|go|head|look|nudge|drag)(?: the map| the view| the"
            r" camera)?"
            r"(?P<amount_before> a (?:little |tiny )?bit| a little| slightly| a lot| far)?"
            r"(?: over)?(?: to the| towards the| to| towards| toward|)? ?"
            r"(?P<dir>" + DIRECTIONS + r")"
            r"(?:wards?)?" + AMOUNT + r"|(?P<dir2>" + DIRECTIONS + r")(?: a bit| a little| a"
                r" lot)?"),
    ("unmask", r"(?:clear|remove|hide|turn off|switch off|delete|drop|reset|disable|undo|get rid"
               r" of)"
               r"(?: the| that| this| any)?(?: country)?(?: mask| highlight| highlighting|"
               r" spotlight"
               r"| shading| focus)(?:s)?(?: on .+)?|unmask|unhighlight|un-highlight|"
               r"stop (?:highlighting|masking)(?: .+)?|"
               r"no (?:more )?(?:mask|highlight|highlighting)s?|"
               r"show all countries|(?:take|turn) (?:off|away) the (?:mask|highlight)"),
    ("mask", r"(?:highlight|mask|spotlight|isolate|emphasi[sz]e|outline|focus on|shade|grey out"
             r"|gray out|dim|darken)(?: everything| all| the rest| the world| other countries)?"
             r"(?: (?:outside|except|but|apart from|besides|other than|around))?(?: the country"
             r"(?: of)?)? (?P<place>.+?)(?: in (?P<color>[#\w ]+))?(?: on the map)?"),
    ("basemap_category", r"(?P<verb>hide|show|turn off|turn on|switch off|switch on|remove|disable|"
                         r"enable|toggle|display)(?: the| all)? (?P<cats>(?:" + CATEGORY_WORDS +
                         r")(?:(?:,| and|, and) (?:the )?(?:" + CATEGORY_WORDS + r"))*)" + ON_MAP),
    ("category_colour", r"(?:make|colou?r|paint|turn|set|change)(?: the)? "
                        r"(?P<cats>" + CATEGORY_WORDS + r")(?: colou?r)?" + ON_MAP +
                        r"(?: to| in| into)? (?P<color>.+)"),
    ("basemap", r"(?:(?:go|switch|change|get) )?back to(?: the| a)? "
                r"(?P<style3>" + STYLE_WORDS + r")"
                r"(?: mode| theme| basemap| base map| map| style| view| background)?|"
                r"(?:switch|change|set|turn|go|use|make|put|flip|move|toggle|show|display|give)"
                r"(?: it| me)?"
                r"(?: the)?(?: basemap| base map| background| map| map style| style| theme| mode"
                r"| view| display)?(?: to| into| on| over to| for)?(?: a| an| the)? "
                r"(?P<style>" + STYLE_WORDS + r")(?: mode| theme| basemap| base map| map| style|"
                                              r" view"
                r"| tiles| background| layer)?|(?P<style2>" + STYLE_WORDS + r")(?: mode| theme|"
                    r" basemap"
                r"| base map| map| style| view| tiles| background)?(?: please)?|"
                r"(?:remove|hide|turn off|switch off|disable|drop|get rid of|no)(?: the)? "
                r"(?P<off>basemap|base map|background map|background)"),
    ("clear_ai", r"(?:clear|remove|delete|drop|get rid of|erase)(?: all)?(?: of)?(?: the)? "
                 r"(?:ai|a\.i\.|generated|ai-generated|ai generated|added|temporary|your)"
                 r"(?: generated| created| made)?(?: layers?| data)(?: you (?:added|made"
                 r"|created))?|"
                 r"(?:clear|remove|delete|drop|undo) (?:the |all (?:the )?)?(?:layers|things"
                 r"|stuff) "
                 r"you (?:added|made|created|drew)"),
    ("remove_all", r"(?:clear|remove|delete|drop|get rid of|erase|wipe|trash)(?: out)?(?: all)?"
                   r"(?: of)?(?: the| my)? (?:everything|all|every layer|all layers|layers|"
                   r"all the layers|the map|all of them|all data|the whole map|it all)"
                   r"(?: from the map| on the map| off the map)?|"
                   r"(?:clear|wipe|empty)(?: the)? map"),
    ("rename", r"(?:rename|re-name|retitle|relabel)(?: the)? (?P<layer>.+?)(?: layer)? (?:to|as"
               r"|into) "
               r"(?P<name>.+)|(?:change|set|update)(?: the)? (?:name|title) of(?: the)?"
               r" (?P<layer2>.+?)"
               r"(?: layer)? (?:to|as|into) (?P<name2>.+)|(?:call|name)(?: the)? (?P<layer3>.+?)"
               r" layer "
               r"(?P<name3>.+)"),
    ("move_layer", r"(?:move|bring|send|put|raise|lower|push|pull)(?: the)? (?P<layer>.+?)"
                   r"(?: layer)?"
                   r" (?P<where>up|down|higher|lower|forward|backward|backwards|to the (?:top"
                   r"|front|"
                   r"bottom|back)|on top|to top|to bottom|to front|to back|above everything|"
                   r"below everything|behind everything|in front)(?: of (?:everything|the others|"
                   r"all(?: the)? (?:other )?layers))?"
                   r"(?: (?:one|1|a) ?(?:level|step|place|position|layer|notch)?)?|"
                   r"(?:move|put|place|bring|send|draw|show|raise|lower|drop)?(?: the)? "
                   r"(?P<layer2>.+?)(?: layer)? (?P<rel>above|below|over|under|beneath|underneath"
                   r"|on top of|behind|in front of|on top|beneath|under) (?:the )?"
                   r"(?P<other>.+?)(?: layer)?"),
    ("heatmap", r"(?:show|make|turn|display|render|draw|view|visuali[sz]e|change)(?: the)? "
                r"(?P<layer>.+?)(?: layer)? (?:as|into|to) (?:a )?heat ?map|(?:make|create|show"
                r"|draw)"
                r"(?: me)? (?:a )?heat ?map (?:of|for|from) (?:the )?(?P<layer2>.+)"),
    ("classify", r"(?:colou?r|shade|style|classify|paint|symboli[sz]e|visuali[sz]e|theme|show"
                 r"|display"
                 r"|map|categori[sz]e|group|split)(?: the)? (?P<layer>.+?)(?: layer)? (?:by|based"
                 r" on|"
                 r"according to|using|on) (?:the |their |its )?(?P<field>[\w\- ]+?)(?: field|"
                 r" column"
                 r"| attribute| value| values)?(?P<opts>(?:,? (?:in|with|using|into|as) .+)?)|"
                 r"(?:make|create|draw|show)(?: me)? (?:a )?(?:choropleth|thematic map|heat map of "
                 r"values) (?:of|for) (?:the )?(?P<layer2>.+?) (?:by|using|on|based on) "
                 r"(?:the )?(?P<field2>[\w\- ]+)"),
    ("opacity", r"(?:set|change|make|put)(?: the)?(?: (?P<layer>.+?))?(?:'s)? "
                r"(?:opacity|transparency|alpha)(?: of(?: the)? (?P<layer2>.+?))? ?(?:to |at |=)?"
                r"(?P<value>\d+(?:\.\d+)?)(?P<pct> ?%| percent)?|(?:make|set|put)(?: the)? "
                r"(?P<layer3>.+?) (?:at |to )?(?P<value2>\d+(?:\.\d+)?)(?P<pct2> ?%| percent)?"
                r" (?P<unit>opacity|opaque|transparent|transparency)|(?P<unit2>opacity"
                r"|transparency)"
                r" (?P<value3>\d+(?:\.\d+)?)(?P<pct3> ?%| percent)?|"
                r"(?:the )?(?P<layer4>.+?) (?:at|to) (?P<value4>\d+(?:\.\d+)?)"
                r"(?P<pct4> ?%| percent)? (?P<unit3>opacity|opaque|transparent|transparency)"),
    ("size", r"(?:make|set|turn|render|draw)(?: the)? (?P<layer>.+?) (?P<how>" + SIZE_WORDS + r")"
             r"(?: please)?|(?P<how2>" + SIZE_WORDS + r")(?: the)? (?P<layer2>.+)|"
             r"(?P<verb>increase|decrease|reduce|enlarge|shrink|grow|boost|lower|raise)(?: the)? "
             r"(?P<what>size|width|thickness|radius|opacity|transparency|visibility)(?: of)?"
             r"(?: the)? ?(?P<layer3>.*)"),
    ("colour", r"(?:change|set|make)(?: the)? (?:fill )?colou?r of(?: the)? (?P<layer2>.+?) "
               r"(?:to|into|as) (?P<color2>.+)|"
               r"(?:colou?r|paint|make|turn|set|change|recolou?r|tint|fill|use)(?: the)? "
               r"(?P<layer>.+?)(?: layer)?(?:'s)?(?: colou?r| fill| fill colou?r| points| lines)?"
               r"(?: to| in| into| with| as)? (?P<color>(?:#[0-9a-f]{3,6}|[a-z]+(?: [a-z]+)?))"
               r"(?: colou?r)?|(?:use|make it|make them) (?P<color3>.+)"),
    ("only", r"(?:show|display|keep|leave)(?: me)? only(?: the)? (?P<layer>.+?)(?: layers?)?"
             r"(?: visible)?|only (?:show|display|keep)(?: the)? (?P<layer2>.+?)(?: layers?)?|"
             r"just (?:show|display)(?: the)? (?P<layer3>.+?)(?: layers?)?|"
             r"(?:just|only)(?: the)? (?P<layer5>.+?)(?: layers?)?|"
             r"(?:hide|turn off|switch off|disable|remove) (?:everything|all(?: the)?(?: other)?"
             r"(?: layers)?|all others|the others|"
             r"the rest) (?:except|but|apart from|other than|besides)(?: the)? (?P<layer4>.+?)"
             r"(?: layers?)?"),
    ("toggle", r"toggle(?: the)? (?P<layer>.+?)" + LAYER),
    ("hide", r"(?:hide|turn off|switch off|disable|deactivate|make invisible|conceal|remove from "
             r"view)(?: the| my)? (?P<layer>.+?)" + LAYER + r"(?: for now| please| from view)?|"
             r"(?:but )?not(?: the)? (?P<layer4>.+?)" + LAYER + r"|"
             r"(?:make|set)(?: the)? (?P<layer2>.+?)" + LAYER + r" (?:invisible|hidden)|"
             r"(?:turn|switch)(?: the)? (?P<layer3>.+?)" + LAYER + r" off"),
    ("zoom_layer", r"(?:zoom|fly|go|jump|fit|pan|center|centre|move)(?: the map| the view)?"
                   r"(?: in)?(?: to| on| onto| over| into)(?: the)?(?: extent of| bounds of| full"
                   r" extent"
                   r" of)?(?: the)? (?P<layer>.+?) (?:layer|data|dataset)|(?:fit|frame)(?: the)?"
                   r"(?: map| view)?(?: to)?(?: the)? (?P<layer2>.+)|show (?:all|the whole|the"
                   r" full "
                   r"extent) of(?: the)? (?P<layer3>.+)|zoom to (?:fit|extent)(?: the)?"
                   r" (?P<layer4>.+)"),
    ("show", r"(?:show|unhide|un-hide|display|turn on|switch on|enable|activate|reveal|bring back|"
             r"restore|make visible)(?: me| us)?(?: the| my)? (?P<layer>.+?)" + LAYER +
             r"(?: again| layer)?|(?:make|set)(?: the)? (?P<layer2>.+?)" + LAYER + r" visible|"
             r"(?:turn|switch)(?: the)? (?P<layer3>.+?)" + LAYER + r" (?:back )?on|"
             r"bring(?: the)? (?P<layer4>.+?)" + LAYER + r" back(?: on| up)?"),
    ("remove", r"(?:remove|delete|drop|get rid of|erase|trash|discard|take off|take away)(?: the|"
               r" my)?"
               r" (?P<layer>.+?)" + LAYER + r"(?: from the map| off the map)?"),
    ("goto", r"zoom(?: in)?(?: to| into)? (?:level )?(?P<zoom3>\d+(?:\.\d+)?) (?:over|on|at|in|"
             r"around|above) (?P<place3>.+)|"
             r"(?:fly|go|take me|bring me|take us|bring us|zoom|jump|move|navigate|head|travel|pan|"
             r"center|centre|recenter|re-center|focus|teleport|transport me|send me|get me)"
             r"(?: the map| the view| the camera| us| me)?(?: in| out)?(?: over| in| into| on|"
             r" onto| to"
             r"| towards| toward| around| at| for| too)?(?: to)? (?P<place>.+?)(?: at (?:zoom"
             r" )?(?:level )?"
             r"(?P<zoom>\d+(?:\.\d+)?)| zoom (?P<zoom2>\d+(?:\.\d+)?)| (?:at|to) (?:the )?"
             r"(?P<scale>street|city|town|neighbou?rhood|block|building|country|region|state)"
             r" (?:level|scale|view))?|"

             r"(?:show|display|find|locate|where is|where's|wheres|look at|view|see|visit|open|"
             r"search for|search|i want to see|let me see|can i see|take a look at|look for)"
             r"(?: me| us)?(?: the map of| a map of| the city of| the country of)? (?P<place2>.+)"),
    ("place", r"(?P<place>[a-z][\w .,'\-]*)"),
]  # fmt: skip
COMPILED = [(kind, re.compile(pattern)) for kind, pattern in RULES]
# Slots that name things (read back as typed); the others are words of the grammar (corrected).
TYPED = frozenset({"place", "layer", "name", "field", "opts", "other"})
SEPARATORS = re.compile(
    r"(?:,? and then |,? then |; |\. |, and | and also | also | and |, (?=\w)"
    r"| (?=without |with no )|,? but (?=not ))"
)


def parse(spelled: Spelled) -> Iterator[Intent]:
    """Every reading of one clause, best first (a clause may fit several rules)."""
    for kind, rule in COMPILED:
        found = rule.fullmatch(spelled.text)
        if found is None:
            continue
        slots = {
            name.rstrip("0123456789"): (
                spelled.typed(*found.span(name))
                if name.rstrip("0123456789") in TYPED
                else value.strip()
            )
            for name, value in found.groupdict().items()
            if value is not None
        }
        slots["clause"] = spelled.text
        yield Intent(kind, slots, spelled.text)


def clauses(message: str) -> Iterator[list[str]]:
    """Ways to cut a normalised message into clauses: whole first, then at every separator,
    then at fewer of them (each separator kept or not, left to right)."""
    yield [message]
    cuts = [m for m in SEPARATORS.finditer(message)]
    if not cuts or len(cuts) > 6:
        return
    for mask in range((1 << len(cuts)) - 1, 0, -1):
        parts, start = [], 0
        for i, cut in enumerate(cuts):
            if mask >> (len(cuts) - 1 - i) & 1:
                parts.append(message[start : cut.start()])
                start = cut.end()
        parts.append(message[start:])
        if all(part.strip() for part in parts):
            yield [part.strip() for part in parts]


def refusal(message: str) -> str | None:
    """Why a message is not map work the agent will do ("injection" or "off-topic"), or None."""
    if INJECTION.search(message):
        return "injection"
    if REFUSE.search(message):
        return "off-topic"
    return None
