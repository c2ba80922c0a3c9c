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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from maproom.domain.chat.builtin.text import Spelled

ART = r"(?:(?:the|a|an|my|our|this|that|those|these|all the|all|all of the) )?"
LAYER = r"(?: layers?| data(?:set)?| points?)?"
ON_MAP = r"(?: (?:on|in|from|of) (?:the )?(?:basemap|base map|background(?: map)?|map))?"
ON_BASEMAP = r"(?: on (?:the )?(?:basemap|base map|background map|background|map))?"
AMOUNT = (
    r"(?P<amount>(?: (?:a (?:little|tiny) )?bit| a little| slightly| a tad| a lot| much| way| far"
)
AMOUNT += (
    r"| more| a lot more| a bit more| all the way| twice| thrice| once| again| by \S+(?: levels?)?"
    r"| of \S+ (?:levels?|steps?)"
)
AMOUNT += (
    r"| a (?:couple|few)(?: of)?(?: (?:levels?|times|steps|notches))?"
    r"| \S+ (?:more )?(?:levels?|times?|steps?|notches?|clicks?)| [\d.,]+"
    r"| (?:one|two|three|four|five|six|seven|eight|nine|ten)))*"
)
# Why a request is made, after it: "for a 3D look", "so that we see the coast", "because ..."
PURPOSE = re.compile(
    r",? (?:for (?:a|an|the|my|our|this|that|some|his|her|their|a nicer|better)\b|so (?:that|i|we|"
    r"it|they|you|people|everyone|everybody|the|each|every|all|there)\b|because\b|"
    r"since (?:i|we|it|they)\b|"
    r"as (?:i|we)\b|to (?:make|get|"
    r"have|give) (?:it|them|a|an|the|things|everything)\b).*$",
    re.I,
)
# "..., as a new layer", "numa nova camada": where a derived layer goes, said or not.
NEW_LAYER = (
    r"(?:,?(?: -)?(?: and)?(?: (?:can|could) you)?(?: please)? (?:(?:put|save|make|turn) "
    r"(?:it|that|this|them|the result) )?"
    r"(?:(?:as|in|into|to|on) )?(?:a |an |the |its own )?(?:new|separate|own) layer)?"
)
# "create a layer with the number of cafes per county": a derived layer said first.
LAYER_OF = (
    r"(?:(?:make|create|add|draw)(?: me)? (?:a |an )?(?:new )?layer (?:with|of|showing) (?:the )?)?"
)
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
    r"bigger|larger|smaller|tinier|thicker|thinner|wider|narrower|fatter|slimmer|biggest|"
    r"smallest|largest|"
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
    r"developer mode|jailbreak|\bsudo\b|rm -rf|drop table|new instructions?|override|"
    r"</?system>|\[/?(?:inst|system)\]|<\|im_start\|>|as an ai|pretend (?:to be|you are)|"
    r"forget (?:everything|all|your|the rules)|"
    # orders written into quoted text, as a chat log would carry them
    r"\[\s*(?:assistant|system|user|tool)\s*:|(?:^|[\"'(\[])(?:assistant|system)\s*:|"
    r"ignore (?:the|this|that) user|do not tell the user|don't tell the user"
)
ACCOUNT = re.compile(
    r"(?:delete|remove|drop|erase|wipe|destroy|revoke|close|cancel|show|give|reveal|tell|"
    r"print|leak|list|send|change|reset)(?: me)? (?:the |this |my |all |our |your |every |"
    r"all my |all the |the whole )?(?:projects?|accounts?|files?|uploads?|api[ -]?keys?|keys?|"
    r"passwords?|tokens?|credentials|secrets?|users?|database|session)\b|"
    r"\bapi[ -]?keys?\b|\bpasswords?\b|\bcredentials\b"
)


@dataclass
class Intent:
    """What a clause asks for: a kind and its slots (as typed)."""

    kind: str
    slots: dict[str, str] = field(default_factory=dict)
    clause: str = ""


SUP = (
    r"most populous|least populous|most populated|least populated|most visited|"
    r"least visited|most popular|least popular|"
    r"highest rated|best rated|most expensive|biggest|largest|smallest|highest|lowest|longest|"
    r"shortest|greatest|top|bottom|most|least|fewest|best|worst|cheapest|busiest|maximum|minimum|"
    r"max|min"
)
GO = (
    r"(?:fly|go|take me|bring me|take us|zoom|jump|move|navigate|head|travel|pan|center|centre|"
    r"frame|go see|go and see|go look at|go and look at|look at|see|visit|"
    r"focus|show me|find|locate|show)(?: the map| the view| us| me)?(?: in)?(?: over| in| into|"
    r" on| onto| to| towards| toward| at| for)?(?: to)?"
)
UNDO = (
    r"undo|undo that|undo it|take (?:that|it) back|revert(?: that| it| the last change)?|"
    r"go back|step back|roll back|rollback|reverse that|cancel that|oops|"
    r"(?:i )?did(?:n'?t| not) (?:mean|want) (?:that|this|it|to do that)"
)
# Data questions, filters, derived layers, history, camera angles, labels: readings that
# name what they ask for plainly, tried before the older, looser ones below.
FIRST_RULES: list[tuple[str, str]] = [
    (
        "too",
        r"(?:the )?(?P<layer>.+?) (?:are|is|look|looks|seem|seems|appear|appears) (?:a bit |way |"
        r"much |far |really |a little )?too (?P<too>small|tiny|big|large|huge|thin|thick|"
        r"faint|transparent|opaque|see-through|strong|bold)",
    ),
    (
        "undo",
        # "go back to where we were": the last move taken back
        r"(?P<view>(?:go|take (?:me|us)|bring (?:me|us)|jump|get (?:me |us )?)? ?back to "
        r"(?:where (?:we|i) (?:were|was)(?: before)?|the (?:previous|last|earlier|old) (?:view|"
        r"place|location|spot|position)|(?:the place )?(?:we|i) (?:were|was) (?:at )?before))|"
        r"(?:" + UNDO + r")(?: (?:the )?(?:last )?(?P<count>\S+(?: (?:times|changes|steps|"
        r"things|actions|edits))?))?(?: (?:please|again|once more|one more time))?",
    ),
    (
        "redo",
        r"(?:redo|redo that|redo it|re-do|do it again|(?P<back>bring it back|put it back)|"
        r"undo the undo)(?: (?:the )?(?:last )?(?P<count>\S+(?: (?:times|changes|steps))?))?",
    ),
    (
        "rotate",
        r"(?:rotate|turn|spin|orient|set the bearing|bearing)(?: the)?(?: map| view| camera| it)?"
        r"(?: (?:to the )?(?:left|right|clockwise|counter-?clockwise|anti-?clockwise))?"
        r"(?: by| to)?(?: an?)?(?: bearing| heading| angle)?(?: of)?"
        r"(?: (?:about|around|roughly|approximately|some))?"
        r"(?: (?P<degrees>-?[\w.]+) ?(?:degrees?|deg|°)?)?"
        r"(?: (?:to the )?(?:left|right|clockwise|counter-?clockwise|anti-?clockwise))?"
        r"(?: (?P<by>more))?|"
        r"(?:set|change|put|make|adjust)(?: the)?(?: (?:map|view|camera)(?:'s)?)? (?:bearing|"
        r"heading|rotation|orientation)(?: of the (?:map|view|camera))?(?: to| at| of| in)? "
        r"(?P<degrees2>-?[\w.]+) ?(?:degrees?|deg|°)?|"
        r"(?:reset|remove|undo|clear)(?: the)? (?P<reset>rotation|bearing)"
        r"(?P<both>(?:,| and) (?:the )?(?:tilt|pitch))?|"
        r"(?:(?:the )?(?:map|view) )?(?:(?:face|point) north(?: up)?|north[- ]up(?: again)?)|"
        r"(?:turn|rotate|orient|spin|set|put|make)(?: the)?(?: map| view)?(?: so(?: that)?| with)?"
        r"(?: the)? (?P<up>north|east|south|west)(?: is| faces| points| stays| ends up)?"
        r"(?: back| again)? (?:at the top|on top|up|upwards|facing up|pointing up|to the top)"
        r"(?: again| once more)?",
    ),
    (
        "tilt",
        r"(?:tilt|pitch|incline|lean|angle)(?: (?:a (?:little )?bit|slightly|a little))?"
        r"(?: the)?(?: map| view| camera| it)?"
        r"(?: (?:a (?:little )?bit|slightly|a little))?(?: (?:by|to))?"
        r"(?: (?:about|around|roughly|approximately|some))?(?: (?P<degrees>\S+)"
        r" ?(?:degrees?|deg|°)(?: (?:of )?(?:pitch|tilt))?)?(?: to (?P<degrees3>\d+(?:\.\d+)?))?"
        r"(?: so (?:it|that it|(?:that )?the [\w ]+?) looks? (?:3d|three.dimensional)|"
        r" (?:to|so (?:i|we) can) (?:see|view|look at)(?: it)?(?: in)? (?:3d|three.dimensional"
        r"|perspective))?|"
        r"(?:set|change|put|make|adjust)(?: the)?(?: (?:map|view|camera)(?:'s)?)? (?:tilt|pitch|"
        r"inclination)(?: of the (?:map|view|camera))?(?: to| at| of| in)? (?P<degrees2>[\w.]+)"
        r" ?(?:degrees?|deg|°)?|"
        r"(?:make it|show it|view|show|switch to|go|give me)(?: (?:in|a|the))? "
        r"(?:3d|3-d|three.dimensional|perspective|tilted|angled|oblique)"
        r"(?: (?:3d|3-d|tilted|angled))?"
        r"(?: view| mode| map| perspective)?|"
        r"(?:make|set|put)(?: the)? (?:map|view)(?: a (?:little |tiny )?bit| a little| slightly)?"
        r" (?:inclined|tilted|angled|oblique)"
        r"(?:,? (?:like|as|for) (?:a |an )?(?:3d|3-d|perspective)(?: view| map)?|,? (?:like|as) "
        r"(?:a |the )?(?:view|seen|looking)? ?(?:from|in) (?:a|an|the) (?:plane|airplane|aeroplane|"
        r"drone|helicopter|bird|window))?|"
        r"(?:a |the )?(?:3d|3-d|perspective|tilted|angled|oblique)(?: (?:3d|3-d|tilted|angled))?"
        r"(?: view| mode| map| perspective)(?: please)?|(?:3d|3-d)(?: please)?|"
        r"(?P<flat>(?:make it |it |make the (?:map|view|camera) |go back to |back to |view |"
        r"(?:the )?(?:camera|map|view) )?(?:flat|2d|top.down)"
        r"(?: view| again| map)?(?: again)?|untilt(?: the map)?|"
        r"no (?:more )?(?:tilt|pitch)(?: (?:any ?more|again))?|"
        r"(?:reset|remove|undo|clear)(?: the)? (?:tilt|pitch)|look straight down)",
    ),
    (
        "zoom_level",
        r"(?:zoom|go|jump|set(?: the)? zoom(?: level)?)(?: in| out)?(?: to)?"
        r"(?: zoom)?(?: level)? (?P<level>\S+)(?:(?: over| on| at| in| around| above)?"
        r" (?P<there>there|that place|it|here))|"
        r"zoom (?:in |to level \S+ )?(?P<there2>there)",
    ),
    (
        "zoom_there",
        r"zoom(?: in)?(?: to| into)? (?:level )?(?P<zoom>[a-z]+|\d+(?:\.\d+)?) "
        r"(?:over|on|at|in|around|above|for) (?P<place>.+)|"
        r"(?:zoom|fly|go|take me)(?: in)?(?: to| into| on| onto| over)? (?P<place2>.+?),? "
        r"(?:at|to|on) (?:zoom )?level (?P<zoom2>[a-z]+|\d+(?:\.\d+)?)|"
        # "zoom right in on the tower itself": to it, close
        r"zoom(?: right| all the way)? in(?: a lot| a bit| closer| close| more)? (?:on|onto) "
        r"(?P<place4>.+)|"
        r"zoom(?: in)?(?: to| into)? (?P<scale>street|city|town|neighbou?rhood|block|building|"
        r"country|region|state) (?:level|scale|view) (?:in|of|on|at|over|for) (?P<place3>.+)",
    ),
    (
        "aggregate",
        LAYER_OF + r"(?:(?:count|number of)(?: the)?(?: number of(?: the)?)? (?!how many)"
        r"(?P<points>.+?) "
        r"(?:in|per|within|inside|by) (?:each |every |the )?(?P<polygons>.+?)|"
        r"(?:count,? )?how many (?:of (?:the |our |my )?)?(?P<points2>.+?) (?:are |fall |lie |"
        r"there are )?(?:there )?"
        r"(?:in|per|inside|within) "
        r"(?:each|every) (?P<polygons2>.+?)(?: (?:are|lie|lies|fall|are there|there are|exist))?|"
        r"(?:(?:calculate|compute|work out|make|create|get|give me|show me|show) )?"
        r"(?:the )?(?P<stat>sum|total|average|mean|max|maximum|min|minimum)(?: of)?(?: the)? "
        r"(?P<field>[\w ]+?)(?: of (?:the )?(?P<points3>.+?))? (?:per|by|in each|for "
        r"each|in every|for every) (?P<polygons3>.+?)|"
        r"aggregate(?: the)? (?P<points4>.+?) (?:into|by|per|to|in|over) "
        r"(?:the |each )?(?P<polygons4>.+?))" + NEW_LAYER,
    ),
    (
        "feature_value",
        r"how many (?P<field>people|inhabitants|residents|visitors) (?:live in|are in|visit|"
        r"does|do|has|have)(?: the)? (?P<feature>.+?)(?: have| get| has)?|"
        r"what(?:'s| is) the (?P<field2>[\w ]+?) of (?P<feature2>.+)|"
        # "and what's its population?": of the feature the last answer named
        r"(?:and )?(?:what(?:'s| is| about)|how (?:big|large|long|high) is) "
        r"(?P<feature4>its|her|his) (?P<field4>[\w ]+)|"
        r"how (?P<field3>long|big|large) is (?:the )?(?P<feature3>.+)",
    ),
    (
        "count",
        # "what's the highest rating?" "how many have that?": those with the value answered
        r"how many(?: of them| ones| features| of those)? (?:have|has|got|share|get|are at) "
        r"(?P<answered>that|this|it|that value|that one|that rating|that number|that score|the "
        r"same(?: value| rating| number| score)?)|"
        # "how many cities does Germany have": the cities in Germany
        r"how many (?P<rest6>[\w ]+?) (?:does|do) (?P<inside>(?!(?:the|we|i|you|they|us)\b)"
        r"[\w .'-]+?) "
        r"(?:have|hold|contain|count)|"
        r"how many [\w ]+? (?:does|do) (?:the )?(?P<rest2>(?!(?:we|i|you|they|us)\b).+?)"
        r"(?: layer)? (?:have|hold|contain)|"
        r"(?:feature|row|record|point) count (?:for|of|in) (?:the )?(?P<rest3>.+)|"
        r"(?:how many|what(?:'s| is) the number of|the number of|count(?: the| all)?|"
        r"number of|total number of) (?P<rest>.+?)(?: are there| do (?:i|we) have| (?:we|i) have|"
        r" (?:we|i)(?:'ve| have)? got|"
        r" exist| have|"
        r" has|"
        r" there are| in total| altogether)?(?:(?: are| is)?(?: there)? (?:in|on) (?:the|this|"
        r"that|my) (?:layer|map|dataset|data|table))?",
    ),
    (
        "fields",
        r"(?:what|which) (?:fields|attributes|columns|properties|variables|data fields|"
        r"information|info|data)(?: (?:are|is|do|does))?(?: there)?(?: (?:in|on|for|of)"
        r" (?P<layer>.+?))?(?: (?:have|has|contain|hold|got|layer|available))*|"
        r"(?:what|which) (?:info|information|data|fields|columns|attributes) (?:do|does|have|"
        r"has) (?:we|i|you) (?:have|know|hold|got|get)? ?(?:about|on|for|of) (?:each |every |the "
        r"|our |my |all the )?(?P<layer8>.+?)|"
        r"(?:what|which) (?:info|information|data|fields|columns|attributes) (?:do|does|have|"
        r"has) "
        r"(?:the )?(?P<layer7>.+?)(?: (?:have|hold|contain|carry))?(?: layer)?"
        r"(?:,? (?:like|i mean|as in|so|e\.?g\.?) (?:what|which) (?:fields|columns|attributes))?|"
        r"(?:list|show|tell me|give me|describe)(?: me)?(?: the)? (?:fields|attributes|"
        r"columns|properties)(?: (?:of|in|for) (?P<layer2>.+))?|"
        r"(?:what|which) (?:fields|attributes|columns|properties) (?:do|does) "
        r"(?P<layer3>.+?) have|describe (?P<layer4>.+)|"
        r"(?:what|which) (?:fields|attributes|columns|properties) (?:has|have|does|do) "
        r"(?:the )?(?:layer )?(?P<layer5>.+?)(?: (?:have|got|contain))?|"
        r"(?:what|which) (?:are|is) (?:the|all the) (?:fields|attributes|columns|properties)"
        r"(?: (?:in|on|for|of) (?:the )?(?:layer (?:of )?(?:the )?)?(?P<layer6>.+))?",
    ),
    (
        "stat",
        r"(?:(?:what(?:'s| is| are| was)|tell me|give me|show me|find|calculate|compute|"
        r"(?:i|we) (?:need|want|would like|'d like)(?: to know)?) ?)?"
        r"(?:the |(?P<their>their|those) )?(?:exact |precise |full )?"
        r"(?P<stat>smallest|lowest|minimum|min|largest|biggest|highest|maximum|"
        r"max|average|avg|mean|total|sum|combined|overall)(?: value(?= of))?(?: up)?"
        r"(?: of(?: the)?| the|"
        r" all(?: the)?)?(?: (?P<field>[\w ]+?))?(?: field| column)?"
        r"(?: value| number| count| figure)?(?: (?:in|of|among|across|for|over) "
        r"(?:the |all(?: the)? |my )?(?P<layer>.+?))?"
        r"(?: (?:combined|together|altogether|all together|in total|overall|put together|"
        r"added up|added together))?|"
        r"how (?:many|much) (?P<field5>people|inhabitants|residents|visitors|population)"
        r"(?: (?:do|does|did|have|has|get|gets|live|are))?(?: in)?"
        r"(?: (?:they|those|these|there|them|"
        r"the|we|it|(?:the |all the |all )?(?!add |sum |have |get |make )(?P<layer5>[\w ]+?)))?"
        r"(?: (?:have|get|add up(?: to)?|sum up|make|live|receive|attract|draw))?"
        r" (?P<stat5>in total|altogether|together|combined|all together)|"
        # "how many people live in the northern districts": their total (an empty stat)
        r"how many (?P<field7>people|inhabitants|residents|citizens) (?:live|are living|reside)"
        r" in (?:all )?(?:the )?(?P<layer7>.+?)(?P<stat7>)|"
        r"how many (?P<field8>visitors|tourists) (?:do|does) (?:all )?(?:the )?(?P<layer8>.+?) "
        r"(?:get|receive|have|attract|draw)(?P<stat8>)|"
        r"how many (?P<field3>people|inhabitants|residents|visitors) (?P<stat3>in total|"
        r"altogether|overall|combined) (?:for|in|of|across|at) (?:all )?(?:the )?"
        r"(?P<layer3>.+)|"
        r"how many (?P<field2>people|inhabitants|residents|visitors) (?:live in |are in |have |"
        r"do |visit )?"
        r"(?:all )?(?:the )?(?P<layer2>.+?)(?: have)? (?P<stat2>in total|together|combined|"
        r"altogether|all together)(?: have)?",
    ),
    (
        "goto_top",
        GO + r" (?:the )?(?P<sup>" + SUP + r") (?P<layer>.+?)"
        r"(?: by (?P<field>[\w ]+))?|"
        + GO
        + r" (?:the )?(?P<layer2>.+?) (?:with|that has|having) (?:the )?"
        r"(?P<sup2>" + SUP + r") (?P<field2>[\w ]+)",
    ),
    (
        "top",
        r"(?:the )?(?:top|bottom) (?P<n6>\S+) (?P<sup6>" + SUP + r") (?P<layer6>.+?)|"
        r"(?:(?:what|which|who) (?:are|is|were|was)|list|show|name|give me|tell me|find)?"
        r"(?: me)?(?: the)? ?(?:(?P<n>\S+) )?(?P<sup>" + SUP + r") (?P<layer>.+?)"
        r"(?: (?:by|in terms of|based on) (?P<field>[\w ]+))?|"
        r"(?:what|which) (?P<n8>\d+|two|three|four|five|six|seven|eight|nine|ten) "
        r"(?P<layer8>.+?) (?:has|have|had|get|gets|receive|receives|draw|draws) (?:the )?"
        r"(?P<sup8>" + SUP + r"|more|fewer|less)(?: (?P<field8>[\w ]+))?|"
        # "how many km is the longest river?", "how many people does the biggest city have?"
        r"how (?:many|much|long) (?:(?P<field11>km|kilometers|kilometres|miles|meters|metres|"
        r"people|inhabitants|visitors) )?(?:is|are|does|do|has|have|measures?|long is|gets?)"
        r"(?: the)? "
        r"(?P<sup11>" + SUP + r") (?P<layer11>.+?)(?: (?:measure|long|have|has|get))?|"
        r"which (?:one )?of (?:the |my |our )?(?P<layer9>.+?) is (?:the )?(?P<sup9>" + SUP + r")"
        r"(?:,? and .*)?|"
        r"(?:what|which) (?P<layer2>.+?) (?:has|have|had|is|are|gets|get|receives|receive|draws|"
        r"attracts) (?:the )?"
        r"(?P<sup2>" + SUP + r"|more|fewer|less)(?: (?P<field2>[\w ]+?))?"
        r"(?: (?:living|who live|that live|live|residing)(?: in (?:it|them|there))?|"
        r" in (?:it|them)|"
        r" there)?|"
        r"(?:what|which) (?P<layer3>.+?) is (?:the )?(?P<sup3>" + SUP + r")|"
        # "tell me the 3 cities with the most population"
        r"(?:tell me|give me|show me|list|name|find)(?: the)? (?P<n12>\d+|two|three|four|five|six|"
        r"seven|eight|nine|ten) (?P<layer12>[\w ]+?) (?:with|that have|having|who have) (?:the )?"
        r"(?P<sup12>" + SUP + r"|more)(?: (?P<field12>[\w ]+))?|"
        r"(?:what|which|who)(?: is| are)? (?:the )?(?P<layer5>.+?) (?:with|that has|having)"
        r" (?:the )?(?P<sup5>" + SUP + r"|more|less|fewer)(?: (?P<field5>[\w ]+))?|"
        r"(?P<sup4>top|bottom) (?P<n4>\S+) (?P<layer4>.+?)(?: (?:by|in terms of) "
        r"(?P<field4>[\w ]+))?|"
        # "what is the length of the longest river"
        r"(?:what|how much)(?: is| are|'s)? the (?P<field7>[\w ]+?) of the (?P<sup7>"
        + SUP
        + r") (?P<layer7>.+?)",
    ),
    (
        "names",
        r"(?:which|what) (?P<layer5>[\w ]+? (?:have|has|with|are|is|whose|where|that have|that "
        r"are|that has|get|gets|receive|receives|draw|draws|attract|attracts) (?:more|less|"
        r"fewer|over|under|above|below|at least|at most|between|in|from|an?|the|no|not|\d)"
        r".+)|"
        # "which sites are parks": a value of theirs
        r"(?:which|what) (?:of (?:the |my |our )?)?(?P<layer6>[\w ]+? (?:are|is) [\w' -]+)",
    ),
    (
        "categories",
        r"(?:what|which|list(?: all)?|show me|name)(?: the)?(?: different| distinct|"
        r" unique| possible)? (?P<what>kinds|types|sorts|categories|classes|values|"
        r"[a-z]+) (?:of |are |do |does |is )?(?:the |there |in |among )*"
        r"(?P<layer>.*?)(?: (?:are there|exist|have|has|there are|are in the data|"
        r"in|are))?",
    ),
    (
        "unfilter",
        r"(?:show|display|bring back)(?: me)?(?: all)?(?: of)?(?: the)? (?P<layer>.+?)"
        r" again|(?:show|display) all(?: of)?(?: the)? (?P<layer2>.+)|"
        r"(?:remove|clear|reset|drop|delete|turn off|undo|get rid of|take off|lose)"
        r"(?: the| any| all| that| this| those| these| my| our)?"
        r" filters?(?: (?:on|from|of) (?:the )?(?P<layer3>.+))?|no (?:more )?filters?|"
        r"unfilter(?: the)?(?: (?P<layer4>.+))?",
    ),
    (
        "keep",
        r"(?:(?:make|create|save|put|copy|extract|add|give|i (?:need|want|would like))"
        r"(?: me| us)?(?: please)? )?(?:an? )?(?:new |separate |own )+"
        r"layer (?:only |just )?(?:with|of|from|for|containing|holding|that has)"
        r"(?: the| all(?: the)?| only(?: the)?| just(?: the)?)* (?P<rest>.+?)"
        r"(?: (?:called|named) (?P<name>.+))?|"
        r"(?:save|put|copy|extract|keep|turn|make)(?: the| all(?: the)?| only(?: the)?)? "
        r"(?P<rest2>.+?) (?:as|into|in|to) (?:an? )?(?:new|separate|own) layer"
        r"(?: (?:called|named) (?P<name2>.+))?",
    ),
    (
        "filter",
        # "of those, only the capitals": the filter narrows the one the layer has
        r"(?P<narrow>(?:and )?(?:of|from|among|out of) (?:those|these|them),? )?"
        r"(?:only show|show only|just show|show just|display only|only display|keep only|"
        r"only keep|show me only|show me just|(?:i|we) (?:only|just) (?:want|need)(?: to see)?|"
        r"(?:(?:apply|add|put|set|use) (?:a |the )?filter "
        r"(?:on|to|for)|filter)(?: the)?|only|just)(?: want| need)?(?: me)?"
        r"(?: the| all(?: the)?)? (?P<rest>(?:(?!,? (?:hide|remove|delete|zoom|colou?r|make|"
        r"then)\b).)+?)(?: on the map)?|"
        r"(?P<hide>hide|remove from view|don't show|do not show|exclude)(?: the| all"
        r"(?: the)?)? (?P<rest2>.+ (?:with|whose|where|that|which|having|in|from|"
        r"without|of|rated|over|under|above|below) .+)|"
        r"(?P<rest3>.+? (?:with|whose|where|that|which|having|rated|over|under|above|below|"
        r"more|less|at least|at most|\d).*?) only|"
        r"(?:show|display)(?: me)?(?: the| all(?: the)?)? (?P<rest6>.+? (?:with|whose|where|"
        r"having|from|in|over|under|above|below) .+)|"
        r"(?!(?:cut|clip|crop|trim|buffer|merge|dissolve|delete|remove|save|copy|extract)\b)"
        r"(?P<rest7>(?:the |all the |my |our )?[\w ]+?),? (?:only|just) (?:those|the ones|ones|the)"
        r"(?: that are| which are| with| that have| having| whose)? (?P<cond7>.+)|"
        # "the districts, the ones with more than 1000 people"
        r"(?P<rest8>(?:the |all the |my |our )?[\w ]+?),? (?:those|the ones) (?:that are|which are|"
        r"with|that have|having|whose) (?P<cond8>.+)|"
        r"filter(?: the)? (?P<rest5>.+?) (?:down )?to (?:those|the ones|ones|only those|only "
        r"the ones|just those|just the ones) (?:with |that have |having |that are |which are "
        r"|whose |where )?(?P<cond5>.+)|"
        # a condition alone: the answer to "which should I keep by population?"
        r"(?:(?:only|just|keep|show) )*(?:those |the ones |ones |ones? with |the ones with )?"
        r"(?P<bare>(?:more|less|fewer|over|under|above|below|at least|at most|between|greater|"
        r"bigger|smaller|higher|lower|>|<) .+)",
    ),
    (
        "buffer",
        r"(?:(?:buffer(?: around| of| for)?|draw(?: a)? buffers? (?:around|of|for)|"
        r"make(?: a)? buffers? (?:around|"
        r"of|for)|create(?: a)? buffers? (?:around|of|for)|add(?: a)? buffers? (?:to|"
        r"around|for))(?: the| all(?: the)?)? (?P<layer>.+?)(?: (?:by|of|with|at))? "
        r"(?P<distance>[\d.,]+|[a-z]+) ?(?P<unit>km|kilometers?|kilometres?|m|meters?|"
        r"metres?|mi|miles?)(?: buffers?)?(?: (?:called|named) (?P<name>.+))?|"
        r"(?:draw|make|create|add|show)?(?: me)?(?: an?)? ?(?P<distance2>[\d.,]+|[a-z]+)"
        r" ?(?P<unit2>km|kilometers?|kilometres?|m|meters?|metres?|mi|miles?)"
        r"(?: radius| [a-z]+)? (?:buffers?|zones?|areas?|circles?|radius|corridors?) "
        r"(?:around|of|for|"
        r"from|along) (?:the |each |every |all(?: the)? )?(?P<layer2>.+?)"
        r"(?: (?:called|named) (?P<name2>.+))?|"
        r"(?:draw|make|create|add|put)?(?: me)?(?: an?)? ?(?:buffers?(?: zones?)?|zones?|areas?|"
        r"circles?|rings?) (?:of|with a "
        r"radius of|with|at) (?P<distance3>[\d.,]+|[a-z]+) ?(?P<unit3>km|kilometers?|"
        r"kilometres?|m|meters?|metres?|mi|miles?) (?:around|of|for|from|to) "
        r"(?:the |each |every |all(?: the)? )?(?P<layer3>.+?)(?: (?:called|named) (?P<name3>.+))?)"
        + NEW_LAYER,
    ),
    (
        "dissolve",
        r"(?:dissolve|merge|combine|union|unite|fuse)(?: all)?(?: the)? "
        r"(?P<layer>(?:(?! into ).)+?)"
        r"(?: together| into groups)?"
        r"(?: (?:by|on|according to|based on|per) (?:the |their )?(?P<field>[\w ]+?))?"
        r"(?: into (?:one|a single)(?: shape| feature| polygon| area)?)?"
        r"(?: (?:called|named) (?P<name>.+))?" + NEW_LAYER + "|"
        # "merge the districts into one shape per region", "group the districts into their
        # regions, one shape per region"
        r"(?:(?:dissolve|merge|combine|group|join|fuse)(?: all)?(?: the)? (?P<layer2>.+?)|"
        r"(?:the )?(?P<layer3>.+?) (?:grouped|merged|dissolved|combined))"
        r"(?: into (?:their |the )?\w+)?,? (?:into )?(?:one|a single) (?:shape|feature|polygon|"
        r"area|outline) (?:per|for each|for every|by) (?P<field2>\w+)" + NEW_LAYER + "|"
        r"(?:the )?(?P<layer4>.+?) (?:grouped|merged|dissolved|combined) (?:by|into|per) "
        r"(?:their |the )?(?P<field4>\w+?)s?" + NEW_LAYER,
    ),
    (
        "clip",
        # "cut the rivers so only the parts inside France are left"
        r"(?:clip|cut|crop|trim)(?: the)? (?P<layer3>.+?) (?:so (?:that )?|down )?(?:to )?"
        r"(?:only |just )?(?:the )?(?:parts?|bits?|sections?|pieces?|portions?) (?:that are )?"
        r"(?:inside|in|within) (?:the )?(?P<other3>.+?)(?: (?:are|is) (?:left|kept|remaining))?"
        + NEW_LAYER
        + "|"
        r"(?:clip|cut|crop|trim)(?: the)? (?P<layer>.+?) (?:to|by|with|at|on|over|inside|within|"
        r"to fit) (?:the )?(?:(?:outline|outlines|contour|borders?|boundary|boundaries|shape|"
        r"extent|area|territory|limits) of (?:the )?)?(?P<other>.+?)"
        r"(?: (?:called|named) (?P<name>.+))?" + NEW_LAYER + "|"
        r"keep only the (?:part|parts|bit|bits) of(?: the)? (?P<layer2>.+?) (?:inside|"
        r"within|in) (?:the )?(?P<other2>.+)",
    ),
    (
        "label",
        r"(?:put|show|add|display|use)(?: the)? (?P<field13>names?|titles?) (?:of|for) "
        r"(?:the )?(?P<layer13>[\w ]+?) (?:like|as) labels?(?: (?:on|in) the map)?|"
        r"(?:put|show|add|write|display) (?:their|the|its) (?P<field9>names?|titles?|labels?) "
        r"on (?:them|it|the map|the (?P<layer9>.+?))|"
        r"(?P<off>hide|remove|turn off|switch off|no|disable|drop)(?: the| all)? "
        r"(?:labels|names)(?: (?:of|on|for|from) (?:the )?(?P<layer>.+?))?(?: layer)?|"
        r"(?:label|annotate)(?: the| each| every| all(?: the)?)? (?P<layer2>.+?)"
        r"(?: (?:with|by|using) (?:the |their |"
        r"its )?(?P<field2>[\w ]+?))?|"
        r"(?:show|add|display|put|turn on|switch on)(?: the)? (?P<field3>names?|titles?|labels?) "
        r"(?:of|on|for) (?:the )?(?P<layer3>.+?)(?: (?:on|in) the map)?|"
        r"(?:show|add|display|put)(?: the)? (?P<field5>[\w ]+?) (?:of|on|for) (?:the )?"
        r"(?P<layer5>.+?) as labels|"
        r"(?:show|add|display|put|use)(?: the)? (?P<layer6>\w+?) (?P<field6>names?|titles?) as "
        r"labels(?: (?:on|in) the map)?|"
        r"(?:add|show|put|place|turn on|display)(?: the)? labels (?:to|on|for|in|at) (?:the )?"
        r"(?:layer )?(?P<layer4>.+?)(?: layer)?(?: (?:with|by|using|showing) (?:the |their |its )?"
        r"(?P<field4>[\w ]+))?(?: (?:on|in) the map)?|"
        r"(?:show|add|display|put|turn on|switch on)(?: the| their| its)? (?P<field7>names)|"
        # "make labels with the name of the cities" (es "pon etiquetas con el nombre de...")
        r"(?:(?:add|show|put|make|place|display|use|turn on|switch on) )?(?:the )?labels? "
        r"(?:with|showing|using|from) (?:the |their |its )?(?P<field10>[\w ]+?)"
        r"(?: (?:of|for|on|in|to|at))?(?: (?:each|every|all)(?: one)?(?: of)?)?(?: the)? "
        r"(?P<layer10>.+?)(?: layer)?"
        r"(?: (?:on|in) the map)?|"
        # "can each site show its name on the map?", "put the names of the sites like labels"
        r"(?:(?:can|could|would|will|let|make) )?(?:each|every|all(?: the)?|the) (?P<layer11>.+?)"
        r" (?:show|display|have)"
        r" (?:its|their) (?P<field11>names?|titles?|labels?|\w+)(?: (?:on|in) the map)?|"
        r"(?:put|show|add|display|use)(?: the)? (?P<field12>names?|titles?) (?:of|for) "
        r"(?:the )?(?P<layer12>[\w ]+?) (?:like|as) labels?",
    ),
    (
        "size_by",
        # "make the dots bigger for the sites that get more visitors"
        r"(?:make )?(?:the )?(?:dots?|circles?|points?|symbols?|markers?) (?:bigger|larger) for "
        r"(?:the )?(?P<layer16>[\w ]+?) (?:that|which|with) (?:get|have|has|gets|draw) "
        r"(?:more|higher|bigger) (?P<field16>\w+)|"
        # "make the big cities obvious: the more people live there, the bigger the dot"
        r"(?:make )?(?:the )?(?:(?:big|large|popular|busy|important|main|good|best) )?"
        r"(?P<layer15>[\w ]+?)(?: (?:obvious|stand out|visible|"
        r"pop))?[:,;-]? the (?:more|higher|larger|bigger) (?:the |their )?(?P<field15>\w+)"
        r"(?: [\w']+){0,3},? the (?:bigger|larger) (?:the |their |its )?(?:dots?|circles?|points?|"
        r"symbols?|markers?|bubbles?)(?: should be| will be| gets)?|"
        # "make the city dots bigger the more people live there", "... bigger when the
        # population is bigger"
        r"(?:make |let |could )?(?:the )?(?:(?:circles|dots|points|markers|symbols|bubbles) "
        r"(?:for|of) (?:the )?)?(?P<layer11>.+?)(?: dots?| circles?| points?| markers?|"
        r" symbols?| bubbles?)? (?:get |grow |become |be |are )?(?:bigger|larger|thicker|wider|"
        r"more thick|more wide)(?: or (?:smaller|thinner|narrower|bigger))? (?:the (?:more|"
        r"higher|larger|bigger|greater) (?:the |their )?(?P<field11>[\w]+)(?: is| are| they have|"
        r" live there| lives there| there)?|when (?:the |their |its )?(?P<field12>[\w]+) is "
        r"(?:bigger|higher|larger|greater)|"
        # "... thicker the longer they are", "... thicker when they are longer": the field the
        # adjective names
        r"the (?P<field18>longer|bigger|larger|busier|more populated|more populous|more visited|"
        r"more popular) (?:they|it) (?:are|is|get|gets)|"
        r"(?:when|if) (?:they|it) (?:are|is|get|gets) (?P<field17>longer|bigger|larger|busier|"
        r"more populated|more populous|more visited|more popular)|"
        r"(?:by|according to|depending on|with) (?:the |their )?"
        r"(?P<field13>[\w ]+?))(?:,? so .*)?|"
        r"(?:make |let )?(?:the )?(?:(?:circles|dots|points|markers|symbols|bubbles) "
        r"(?:for|of) (?:the )?)?(?P<layer14>.+?) (?:by|according to|depending on) (?:the |their )?"
        r"(?P<field14>\w+) (?:bigger|larger)|"
        # "(make) the size of the circles of the cities depend on the population"
        r"(?:make |let )?(?:the )?(?:sizes?|radius|thickness|width) of(?: the)? "
        r"(?:(?:circles|points|dots|markers|"
        r"symbols|bubbles) (?:of|for)(?: the)? )?(?P<layer10>.+?)(?: should| must| will| would|"
        r" could| can)? (?:depends?|var(?:y|ies)|"
        r"scales?|grows?|changes?)(?: on| with| by| according to) (?:the |their |its )?"
        r"(?P<field10>[\w ]+?)|"
        r"(?:change|vary|set|scale|adjust|base)(?: the)? (?:symbol |circle |point )?"
        r"(?:sizes?|radius)"
        r" of(?: the)? (?P<layer9>.+?) (?:by|according to|based on|depending on|with|on) "
        r"(?:the |their |its )?(?P<field9>[\w ]+?)|"
        r"(?:size|scale|sise)(?: of)?(?: the)? (?P<layer>.+?) (?:by|according to|based on|"
        r"proportional to|proportionally to|with) (?:the |their |its )?"
        r"(?P<field>[\w ]+?)|"
        r"(?:make|set|draw)(?: the)? "
        r"(?!(?:the )?(?:point |symbol |dot |line )?(?:size|width|radius))"
        r"(?P<layer2>.+?)(?:'s)?(?: size| sizes| symbols?"
        r"| circles?| dots?| points?| width| lines?)?(?: sized| scaled| size)? (?:proportional to|"
        r"depend on|"
        r"depending on|based on|according to|vary with|scale with|grow with|by) "
        r"(?:the |their |its )?(?P<field2>[\w ]+?)|"
        r"(?:(?:can|could|should|would) )?(?:the )?(?P<layer4>.+?)(?:'s)?(?: symbols?| circles?|"
        r" dots?| points?| lines?)? (?:be )?"
        r"(?:sized|scaled|sized up|drawn bigger) (?:by|according to|with|based on|depending on) "
        r"(?:the |their |its )?(?P<field4>[\w ]+?)|"
        r"(?:make |let )?(?:the )?(?:size|width|radius|thickness|symbol size|point size|"
        r"line width|sizes) (?:of (?:the )?(?P<layer3>.+?) )?(?:(?:should|must|needs to|has to|"
        r"will|can) )?(?:be )?(?:by|according to|based on|from|"
        r"depend on|depends on|depending on|vary with|varies with|proportional to) "
        r"(?:the |their )?(?P<field3>[\w ]+?)|"
        # "make the city circles bigger for bigger populations"
        r"(?:(?:make|draw|show)(?: the)?|(?:can|could) the) (?P<layer5>.+?)(?: circles?| dots?|"
        r" points?| symbols?| lines?)? (?:get |be |grow |look )?(?:bigger|larger|thicker|wider)"
        r" (?:for|with|where there (?:is|are)) "
        r"(?:the )?(?:bigger|larger|higher|greater|more|longer) (?P<field5>[\w ]+?)",
    ),
    (
        "heatmap",
        r"(?:show|make|turn|display|render|draw|view|visuali[sz]e|change)(?: the)? "
        r"(?P<layer>.+?)(?: layer)? (?:as|into|to) (?:a )?heat ?map,? (?:weighted by|"
        r"weighed by|based on|by|using|according to) (?:the |their )?(?P<weight>[\w ]+)|"
        r"(?:(?:make|create|show|draw|give|get|see|have|do|build|generate|add|put)(?: me| us)? )?"
        r"(?:an? )?heat ?map (?:(?:of|for|from|on) )?"
        r"(?:the )?(?P<layer2>.+?),? (?:weighted|weighed|by|based on|using|according to|with) "
        r"(?:by )?"
        r"(?:the |their )?(?P<weight2>[\w ]+)|"
        r"heat ?map (?:on|of|for) (?:the )?(?P<layer4>.+?),? weight(?:ed)? ?(?:=|:|by|on) ?"
        r"(?P<weight4>[\w ]+)|"
        r"(?:make|turn)(?: the)? (?P<layer3>.+?) (?:into )?an? heat ?map,? (?:weighted|weighed) "
        r"by (?:the |their )?(?P<weight3>[\w ]+)",
    ),
    (
        "move_layer",
        r"(?:move|bring|send|put|raise|lower|push|pull)(?: the)? (?P<layer>.+?)"
        r"(?: layer)?"
        r" (?P<where>up|down|higher|lower|forward|backward|backwards|to the (?:top"
        r"|front|"
        r"bottom|back)|on top|to top|to bottom|to front|to back|above everything|"
        r"below everything|behind everything|in front|"
        r"(?:above|over|below|under|beneath|behind) (?:all(?: of)?(?: the)? (?:others|other "
        r"layers|layers|the rest)|the others|the rest|(?:all )?the other layers|everything "
        r"else))(?: of (?:everything|the others|"
        r"all(?: the)? (?:other )?layers))?"
        r"(?: (?:one|1|a) ?(?:level|step|place|position|layer|notch)?)?|"
        r"(?:move|put|place|bring|send|draw|show|raise|lower|drop)?(?: the)? "
        r"(?P<layer2>.+?)(?: layer)? (?:just |right |directly |immediately )?(?P<rel>above|below|"
        r"over|under|beneath|underneath|on top of|behind|in front of|on top|beneath|under) (?:the"
        r" )?"
        r"(?P<other>.+?)(?: layer)?",
    ),
    (
        "names",
        r"(?:list|name|tell me|give me|what are)(?: me)?(?: all)?(?: of)? the (?:names of "
        r"(?:the |all (?:the )?)?)?(?P<layer>.+?)(?: names)?|"
        r"what are the (?P<layer2>.+?) called|(?:list|name) (?:all )?(?:the )?(?P<layer3>.+)",
    ),
    (
        "colour_each",
        r"(?:give|make|colou?r|paint|show)(?: every| each| all(?: the)?| the)? (?P<layer>.+?) "
        r"(?:in |with )?(?:a |an )?(?:different|unique|distinct|separate|its own|their own) "
        r"colou?rs?|(?:colou?r|paint) (?:every|each) (?P<layer2>.+?) differently",
    ),
    (
        "plain_style",
        r"(?:turn|switch) (?:the )?heat ?map off|(?:turn|switch) off (?:the )?heat ?map|"
        r"(?:remove|disable|get rid of|undo|drop|no more)(?: the)? heat ?map(?: (?:of|on|from) "
        r"(?:the )?(?P<layer>.+))?|(?:show|draw|display) (?:the )?(?P<layer2>.+?) as (?:points|"
        r"dots|circles|lines|polygons|shapes) again|"
        r"(?:reset|restore|clear)(?: the)? (?:style|styling|look|colou?rs?) (?:of|on|for) "
        r"(?:the )?(?P<layer3>.+)|(?:reset|restore) (?:the )?(?P<layer4>.+?)(?:'s)? "
        r"(?:style|styling|look|colou?rs?)",
    ),
    (
        "outline",
        r"(?:outline|stroke|border)(?: the)? (?P<layer>.+?) (?:in|with) (?P<color>[#\w ]+)|"
        r"(?:make|set|colou?r|paint|change)(?: the)? (?P<layer2>.+?)(?:'s)? (?:borders?|"
        r"outlines?|strokes?|edges?)(?: to| in)? (?P<color2>[#\w ]+)|"
        r"give (?:the )?(?P<layer3>.+?) (?:an? )?(?P<color3>[#\w ]+?) (?:border|outline|"
        r"stroke|edge)s?|with (?:an? )?(?P<color4>[#\w ]+?) (?:border|outline|stroke|edge)s?",
    ),
    (
        "basemap_too",
        r"(?:the )?(?:map|basemap|background|base map) (?:is|looks|seems) (?:way |much |a bit "
        r"|far )?too (?P<too>dark|bright|light|busy|cluttered)",
    ),
    (
        "coordinates",
        GO + r"? ?(?:lat(?:itude)?:? ?(?P<lat>-?\d+(?:\.\d+)?)[,;]? (?:lon|lng|long|longitude):? ?"
        r"(?P<lng>-?\d+(?:\.\d+)?)|(?P<a>-?\d+(?:\.\d+)?) ?, ?(?P<b>-?\d+(?:\.\d+)?))"
        r"(?: (?:at )?zoom (?:level )?(?P<zoom>\d+(?:\.\d+)?))?",
    ),
    (
        # "and the smallest?" after "which city has the most people": the other end
        "other_end",
        r"(?:(?:and|what about|how about|and what about|but|or)(?: for)? )?(?:the )?(?:(?P<n>\d+|"
        r"two|three|four|five) )?(?P<sup>" + SUP + r")(?: (?:one|ones|city|cities|place|"
        r"places|feature|features|district|districts|site|sites|river|rivers|county|counties|"
        r"cafe|cafes|value|number))?|"
        r"(?:and )?(?:which|what) (?:one|ones|of them) (?:has|have|is|are|gets?|get) the "
        r"(?P<sup2>" + SUP + r")(?: one| value| number)?",
    ),
    (
        "instead",
        r"(?:use|with|make it|try|now|and|but)(?: in| with)?(?: only| just)? "
        r"(?P<classes>\S+) classes"
        r"(?: (?:on|for|in|with) (?:that|this|it|them|those|these))?(?: instead)?|"
        r"(?:use|try|with)(?: the)? (?P<field>[\w ]+?) field(?: for (?:them|it|those))?"
        r"(?: instead)?|(?:use|try)(?: the)? (?P<field2>[\w ]+?)(?: instead)?|"
        r"(?:the same|same)(?: thing)? but (?:in |with )?(?P<classes2>\S+) classes",
    ),
    (
        "same",
        r"(?P<instead>instead,? )?(?:do |make |apply )?(?:the same|same thing|likewise|"
        r"the same thing|that too|"
        r"same)(?: (?:for|to|with|on) (?:the )?(?P<layer>.+?))?(?: too| as well)?"
        # "do the same for the sites, weighted by visitors": another field
        r"(?:,? (?:but )?(?:weighted|sized|scaled|colou?red|classified|labell?ed|shaded|based|"
        r"using|by|with)(?: by| on)? (?:the |their |its )?(?P<by>[\w ]+?))?|"
        r"(?:and|also|now) (?:the )?(?P<layer2>.+?)(?: too| as well)|"
        # "and the cities the same colour", "make the districts the same"
        r"(?:(?:and|also|now) )?(?:make |colou?r |paint )?(?:the )?(?P<layer6>[\w ]+?) "
        r"(?:in )?(?:the "
        r"same|likewise|similarly)(?: colou?r| style| way| as well| too)?|"
        # "and the sites by the number of visitors": the same, by another field
        r"(?:(?:and|also|now) )?the (?P<layer5>[\w ]+?) (?:by|according to|based on|weighted by) "
        r"(?:the |their )?(?:number of )?(?P<by2>[\w ]+)|"
        # "make the rivers thicker when they are longer. By the length": the field restated
        r"(?P<restated>(?:by|according to|based on|depending on|with) (?:the |their |its )?"
        r"(?P<by3>[\w ]+))|"
        r"(?:do|make|apply) (?:that|this|it)(?: too| also| as well)? (?:for|to|with|on) "
        r"(?:the )?(?P<layer4>.+?)"
        r"(?: too| as well| also)?|"
        r"(?:and )?(?:the )?(?P<layer3>.+?) (?:too|also|as well)|"
        # "hide the rivers and also the cities": a bare layer after a clause of this message
        r"(?:the |all the )?(?P<bare>[\w ]+)",
    ),
]


RULES: list[tuple[str, str]] = [
    ("help", r"help|help me|what can you do|what do you do|how does this work|commands|"
             r"what can i (?:say|ask|do)|options|\?"),
    ("greet", r"(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening)|yo)(?: there)?"
              r"(?: maproom)?"),
    # "thanks, that's great" (but "nice job! now hide the sites" is thanks and a request)
    ("thanks", r"(?:thanks|thank you|thx|cheers|great|nice|cool|perfect|awesome)(?:[,.!]* (?:a lot|"
               r"so much|very much|you|job|work|mate|man|one|stuff|that|this|it|is|it's|that's|"
               r"looks?|good|great|nice|perfect|thanks|again|for (?:that|this|the help|your help)|"
               r"so|really|very|amazing|awesome|lovely|wonderful|brilliant|exactly|what i wanted|"
               r"what i needed))*[,.!]*"),
    ("list", r"(?:(?:list|show|tell|give|name|what are|which are|display)(?: me| us)? )?"
             r"(?:all )?(?:the |my |our )?(?:layers|layer list|list of layers)"
             r"(?: (?:are there|do i have|do we have|on the map|in (?:this|the) (?:map|project)"
             r"|you have))?|what(?:'s| is| are)? (?:on|in) (?:the|this|my) (?:map|project)|"
             r"what (?:layers|data) (?:are there|do i have|do we have|are on the map|is there|"
             r"is on the map)|which layers(?: .*)?|how many layers(?: .*)?|"
             r"what does (?:the|this|my) (?:map|project) (?:show|contain|have)(?: .*)?|"
             r"is there (?:a|any) (?:layer|dataset|data) (?:about|of|with|for|on) .+"),
    ("home", r"(?:reset|restore|recenter|re-center)(?: the)?(?: map| view| camera| zoom| position)*"
             r"(?: to (?:the )?(?:default|start|beginning|world|home|original)(?: view)?)?|"
             r"(?:go |take me |bring me )?(?:back )?home|(?:go )?back to (?:the )?(?:start|home|"
             r"beginning|default(?: view)?|world(?: view)?|(?:original|initial|starting|start|"
             r"first) (?:view|position|map))|"
             r"(?:show|zoom out to|see|view|display)(?: me)?(?: the)? (?:whole |entire |full )?"
             r"(?:world|globe|planet|earth)|(?:the )?(?:whole |entire )?world(?: view| map)?|"
             r"default view|full (?:view|extent)|zoom (?:all the way )?out to (?:the )?(?:whole )?"
             r"world|go home|start (?:over|again|afresh)"),
    ("zoom_level", r"(?:zoom|(?:set|put|make|change)(?: the)? zoom|go|jump|move)"
                   # "zoom out 3" is three levels out; "zoom out to 3" is level 3
                   r"(?:(?: in| out)(?: the map)?(?: to| at| on)|(?: the map)?(?: to| at| on| in)?)"
                   r"(?: the)?(?: zoom)?(?: level)? "
                   r"(?P<level>\d+(?:\.\d+)?)|"
                   r"(?:zoom )?level (?P<level2>\d+(?:\.\d+)?)|"
                   r"(?:(?:zoom|go|jump|(?:set|put|make|change)(?: the)? zoom)(?: to| at| on| in)?"
                   r"(?: the)? (?:zoom )?level|zoom level|set(?: the)? zoom(?: level)? to) "
                   r"(?P<level3>[a-z]+(?:[ -][a-z]+)?)"),
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
               r"| shading| focus)(?:s)?(?: again)?(?: (?:on|from|of|over|around) .+)?|"
               r"unmask|unhighlight|un-highlight|"
               r"stop (?:highlighting|masking)(?: .+)?|"
               r"no (?:more )?(?:mask|highlight|highlighting)s?|"
               r"show all countries|(?:take|turn) (?:off|away|out) the (?:mask|highlight)"
               r"(?: (?:on|from|of|over|around) .+)?|"
               r"(?:take|turn) the (?:mask|highlight) (?:off|away)(?: (?:of|from)?.+)?|"
               r"(?:unmask|unhighlight|un-highlight|stop highlighting|stop masking) .+"),
    ("mask", r"(?:mask out|black out|shade|grey out|gray out|dim|darken|fade out|fade) "
             r"(?P<place6>(?:the rest|everything else|all the rest|the others|other countries)"
             r"(?: of the world)?)|"
             r"(?:switch|change|move|set)(?: the)? (?:highlight(?:ed)? country|highlight|mask|"
             r"country mask) to (?P<place2>.+?)(?: instead)?|"
             r"(?:mask out|black out|highlight|mask|spotlight|isolate|emphasi[sz]e|outline|"
             r"focus on|shade|grey out|gray out|dim|darken|fade out|fade)"
             r"(?: everything| all| the rest of the world| the rest| the world| other countries)?"
             r"(?: (?:outside(?: of)?|except|but|apart from|besides|other than|around))?"
             r"(?: the country"
             r"(?: of)?)? (?P<place>.+?)(?: in (?P<color>[#\w ]+))?(?: on the map)?"
             r"(?:,? instead(?: of .+)?)?"
             r"(?:,? and (?:fade|dim|darken|grey|gray|black|shade)(?: out)? (?:the rest(?: of the "
             r"world)?|everything else|all the rest|other countries|the others))?"),
    ("basemap_category", r"(?P<verb>hide|show|turn off|turn on|switch off|switch on|remove|disable|"
                         r"enable|toggle|display)(?: the| all)? (?P<cats>(?:" + CATEGORY_WORDS +
                         r")(?:(?:,| and|, and) (?:the )?(?:" + CATEGORY_WORDS + r"))*)" + ON_MAP),
    ("category_colour", r"(?:make|colou?r|paint|turn|set|change)(?: the)? "
                        r"(?P<cats>(?:" + CATEGORY_WORDS + r")(?:(?:,| and) (?:the )?(?:"
                        + CATEGORY_WORDS + r"))*)(?: colou?r)?" + ON_MAP +
                        r"(?: to| in| into| of)? (?P<color>.+?)" + ON_BASEMAP + "|"
                        # "and the water in dark blue", "water in navy", "water color #0a3d62"
                        r"(?:the )?(?P<cats2>" + CATEGORY_WORDS + r")" + ON_MAP +
                        r"(?: (?:in|to|as)| colou?r(?: to| in| of| as)?:?) (?P<color2>.+?)"
                        + ON_BASEMAP),
    ("basemap", r"(?:(?:go|switch|change|get) )?back to(?: the| a)? "
                r"(?P<style3>" + STYLE_WORDS + r")"
                r"(?: mode| theme| basemap| base map| map| style| view| background| one)?|"
                r"(?:switch|change|set|turn|go|use|make|put|flip|move|toggle|show|display|give|have|"
                r"get|bring back|go with|go for|try)(?: it| me| us)?"
                r"(?: the)?(?: basemap| base map| background| map| map style| style| theme| mode"
                r"| view| display)?(?: to| into| on| over to| for)?(?: a| an| the)? "
                r"(?P<style>" + STYLE_WORDS + r")(?: mode| theme| basemap| base map| map| style|"
                                              r" view"
                r"| tiles| background| layer| one)?(?: again| back)?|(?:again )?(?P<style2"
                r">" + STYLE_WORDS + r")(?: mode|"
                r" theme| basemap| base map| map| style| view| tiles| background)?(?: again)?"
                r"(?: please)?|"
                r"(?:remove|hide|turn off|switch off|disable|drop|get rid of|no|without)"
                r"(?: the| a| any)? (?P<off>basemap|base map|background map|background)|"
                r"(?:\w+ )*?(?:a |an |the )?(?:basemap|base map|background(?: map)?|map style|map) "
                r"(?:with|showing|of|in)(?: the| a)? (?P<style4>" + STYLE_WORDS + r")"
                r"(?: \(\w+\))?"),
    ("clear_ai", r"(?:clear|remove|delete|drop|get rid of|erase)(?: all)?(?: of)?(?: the)? "
                 r"(?:ai|a\.i\.|generated|ai-generated|ai generated|added|temporary|your)"
                 r"(?: generated| created| made)?(?: layers?| data)(?: you (?:added|made"
                 r"|created))?|"
                 r"(?:clear|remove|delete|drop|undo) (?:the |all (?:the )?)?(?:layers|things"
                 r"|stuff) "
                 r"you (?:added|made|created|drew)"),
    ("remove_all", r"(?:clear|remove|delete|drop|get rid of|erase|wipe|trash|kill|nuke|scrap|"
                   r"bin|ditch|zap|throw away|throw out)(?: out)?(?: all)?"
                   r"(?: of)?(?: the| my)? (?:everything|all|every layer|all layers|layers|"
                   r"all the layers|the map|all of them|all data|the whole map|it all)"
                   r"(?: from the map| on the map| off the map)?"
                   # "delete all layers except the cities": the others (asked first)
                   r"(?:,? (?:except|but|apart from|other than|besides|save)(?: for)?(?: the)?"
                   r"(?: ones? of| ones?)?(?: the)? (?P<keep>.+?)(?: layer| layers| one)?)?|"
                   r"(?:clear|wipe|empty)(?: the)? map"),
    ("rename", r"(?:rename|re-name|retitle|relabel)(?: the)? (?P<layer>.+?)(?: layer)? (?:to|as"
               r"|into) "
               r"(?P<name>.+)|(?:call|name)(?: the)? (?P<layer5>[\w ]+?)(?: layer)? "
               r"(?P<name5>[\"'\u201c\u2018].+)|"
               r"(?:change|set|update)(?: the)? (?:name|title) of(?: the)?"
               r" (?P<layer2>.+?)"
               r"(?: layer)? (?:to|as|into|for(?= [\"'«]| [A-Z])) (?P<name2>.+)|"
               r"(?:call|name)(?: the)? (?P<layer3>.+?)"
               r" layer "
               r"(?P<name3>.+)"),
    ("heatmap", r"(?:show|make|turn|display|render|draw|view|visuali[sz]e|change)(?: the)? "
                r"(?P<layer>.+?)(?: layer)? (?:as|into|to) (?:a )?heat ?map|(?:make|create|show"
                r"|draw|do|build|add|give me|put|generate)"
                r"(?: me| us)? (?:a )?heat ?map (?:of|for|from|with) (?:the )?(?P<layer2>.+)"),
    ("classify", r"(?:colou?r|shade|style|classify|paint|symboli[sz]e|visuali[sz]e|theme|show"
                 r"|display"
                 r"|map|categori[sz]e|group|split)(?: the)? (?P<layer>.+?)(?: layer)? (?:by|based"
                 r" on|"
                 r"according to|using|on) (?:the |their |its )?(?P<field>[\w\- ]+?)(?: field|"
                 r" column"
                 r"| attribute| value| values)?(?P<opts>(?:,? (?:in|with|using|into|as) .+|"
                 r",? \S+ (?:classes|colou?rs|groups|bins|categories|steps|breaks))?)|"
                 r"(?:colou?r|shade|style|classify|paint|symboli[sz]e|categori[sz]e|group)"
                 r"(?: (?:it|them|everything))? (?:by|based on|according to|using) "
                 r"(?:the |their |its )?(?P<field3>[\w\- ]+?)"
                 r"(?: field| column| attribute| values?)?"
                 r"(?P<opts3>(?:,? (?:in|with|using|into|as) .+|,? \S+ (?:classes|colou?rs|groups|"
                 r"bins|categories|steps|breaks))?)|"
                 r"(?:make|create|draw|show)(?: me)? (?:a )?(?:choropleth|thematic map|heat map of "
                 r"values) (?:of|for) (?:the )?(?P<layer2>.+?) (?:by|using|on|based on) "
                 r"(?:the )?(?P<field2>[\w\- ]+)|"
                 # "graduated colours on district value, 5 classes"
                 r"(?:(?:use|apply|do|make|give me|add) )?(?:an? )?(?:graduated|classed|"
                 r"choropleth) (?:colou?rs?|colou?ring|shading|style|map|symbology)(?: (?:on|for|"
                 r"of|to) (?:the )?(?:(?P<layer5>[\w ]+?) (?:by|on|using) (?:the )?"
                 r"(?P<field5>[\w\- ]+?)|(?P<layer4>\w+) (?P<field4>[\w\-]+)))"
                 r"(?P<opts4>(?:,? (?:in|with|using|into|as) .+|,? \S+ (?:classes|colou?rs|groups|"
                 r"bins|categories|steps|breaks))?)"),
    ("opacity", r"(?:set|change|make|put)(?: the)?(?: (?P<layer>.+?))?(?:'s)? "
                r"(?P<unit4>opacity|transparency|alpha)(?: of(?: the)? (?P<layer2>.+?))? ?"
                r"(?:to |at |=)?"
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
             r"(?: the)? ?(?P<layer3>.*)|"
             # "(and perhaps) three pixels wide", after a clause that named the layer
             r"(?:(?:and|perhaps|maybe|also|then) )*(?:make (?:it|them) )?(?P<value>\S+) ?"
             r"(?:pixels?|px)(?: wide| thick| across| in size| big)?"),
    ("colour", r"(?:colou?r|paint|make|turn|recolou?r)(?: the| all the)? (?P<layer5>(?:\w+ )?"
               r"(?:dots|points|circles|markers|pins|squares|polygons|areas|shapes|lines|routes))"
               r"(?: to| in| into)? (?P<color5>#[0-9a-f]{3,6}|[a-z]+(?: [a-z]+)?)|"
               r"(?:change|set|make)(?: the)? (?:fill )?colou?r of(?: the)? (?P<layer2>.+?) "
               r"(?:to|into|as) (?P<color2>.+)|"
               r"(?P<uncoloured>change|set|pick|choose)(?: the)? (?:fill )?colou?rs? of(?: the)? "
               r"(?P<layer4>.+)|"
               r"(?:colou?r|paint|make|turn|set|change|recolou?r|tint|fill|use)(?: the)? "
               r"(?P<layer>.+?)(?: layer)?(?:'s)?(?: colou?r| fill| fill colou?r| points| lines)?"
               r"(?: to| in| into| with| as)? (?P<color>(?:#[0-9a-f]{3,6}|[a-z]+(?: [a-z]+)?))"
               r"(?: colou?r)?|(?:use|make it|make them) (?P<color3>.+)"),
    ("only", r"(?:show|display|keep|leave)(?: me)? only(?: the)? (?P<layer>.+?)(?: layers?)?"
             r"(?: visible)?|only (?:show|display|keep)(?: the)? (?P<layer2>.+?)(?: layers?)?|"
             r"just (?:show|display)(?: the)? (?P<layer3>.+?)(?: layers?)?|"
             r"(?:just|only)(?: want| need)?(?: the)? (?P<layer5>.+?)(?: layers?)?|"
             r"(?:hide|turn off|switch off|disable|remove) (?:everything|all(?: the)?(?: other)?"
             r"(?: layers)?|every(?: other)? layer|each(?: other)? layer|all others|the others|"
             r"the rest) (?:except|but|apart from|other than|besides)(?: the)? (?P<layer4>.+?)"
             r"(?: layers?)?"),
    ("hide_rest", r"(?:hide|turn off|switch off|disable|remove from view)(?: all)?(?: of)?"
                  r"(?: the)? (?:rest|others|other layers|other ones|remaining layers|"
                  r"rest of the layers)|"
                  r"(?:turn|switch) (?:off )?(?:all )?(?:of )?(?:the )?(?:rest|others|other layers|"
                  r"other ones|remaining layers|rest of the layers)(?: off)?|"
                  r"hide everything else|(?:everything|all) else (?:off|hidden)|"
                  r"(?:turn|switch) (?:off )?everything else(?: off)?|the rest off"),
    # "make it pop", "jazz it up": a look wished for, no change named
    ("look", r"(?:make|get) (?:it|the map|this|things|everything|the whole thing|the design|the "
             r"style)(?: look)?(?: (?:a bit|a little|much|way|really|even))?(?: more)? (?:pop|"
             r"popping|elegant|nicer|prettier|pretty|beautiful|professional|modern|fancy|stylish|"
             r"sleek|striking|attractive|appealing|fresh|exciting|eye-catching|vibrant|lively|"
             r"classy|sophisticated|chic)|(?:jazz|spice|pretty|smarten|liven) (?:it|the map|this|"
             r"things) up|(?:improve|beautify|polish|prettify) (?:it|the map|the look|the design|"
             r"the style)|give (?:it|the map) (?:more |some |a bit of )?(?:pop|pizzazz|flair|"
             r"style|oomph|wow)"),
    # "show only the big ones": which ones, and big by what, is not said
    ("which_ones", r"(?:show |keep |display )?(?:only|just) (?:the )?(?:big|bigger|biggest|large|"
                   r"larger|small|smaller|important|main|major|popular|good|best|relevant|"
                   r"interesting) ones"),
    ("remove_rest", r"(?:delete|remove|drop|get rid of|clear|erase)(?: all)?(?: of)?(?: the)? "
                    r"(?:rest|others|other layers|other ones|remaining layers|rest of the layers)"
                    r"(?: too| as well| also)?|(?:delete|remove|drop) everything else(?: too)?"),
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
             r"restore|make visible|see|view)(?: me| us)?(?: the| my)? (?P<layer>.+?)" + LAYER +
             r"(?: again| layer)?|(?:make|set)(?: the)? (?P<layer2>.+?)" + LAYER + r" visible|"
             r"(?:turn|switch)(?: the)? (?P<layer3>.+?)" + LAYER + r" (?:back )?on|"
             r"bring(?: the)? (?P<layer4>.+?)" + LAYER + r" back(?: on| up)?"),
    ("remove", r"(?:remove|delete|drop|get rid of|erase|trash|discard|take off|take away)(?: the|"
               r" my)?"
               r" (?P<layer>.+?)" + LAYER + r"(?: from the map| off the map)?"),
    ("goto", r"(?!(?:fly|go|take|bring|zoom|jump|move|navigate|head|travel|pan|center|centre|"
             r"show|find|frame|focus|set|put|change)\b)"
             r"(?P<place5>[a-z][\w .'-]+?) at zoom(?: level)? (?P<zoom5>\d+(?:\.\d+)?)|"
             r"(?:(?:set|put|change)(?: the)? )?zoom(?: in)?(?: to| into| at)? (?:level )?"
             r"(?P<zoom3>\d+(?:\.\d+)?),?(?: (?:and )?(?:centere?d?|centred?|focused))? "
             r"(?:over|on|at|in|around|above) (?P<place3>.+)|"
             r"(?:fly|go|take me|bring me|take us|bring us|zoom|jump|move|navigate|head|travel|pan|"
             r"center|centre|recenter|re-center|focus|teleport|transport me|send me|get me|frame|"
             r"(?:take|bring|send|point|put|set)(?= the (?:map|view|camera)))"
             r"(?: the map| the view| the camera| us| me)?(?: in| out)?(?: over| in| into| on|"
             r" onto| to"
             r"| towards| toward| around| at| for| too)?(?: to)? (?P<place>.+?)(?: at (?:zoom"
             r" )?(?:level )?"
             r"(?P<zoom>\d+(?:\.\d+)?)| zoom (?P<zoom2>\d+(?:\.\d+)?)| (?:at|to) (?:the )?"
             r"(?P<scale>street|city|town|neighbou?rhood|block|building|country|region|state)"
             r" (?:level|scale|view))?|"

             r"(?:show|display|find|locate|where(?: exactly)? is|where's|wheres|look at|view|see|"
             r"visit|open|(?:need|want|get)(?: me)?(?: the| a)? map (?:on|of|for|at|around|over)|"
             r"search for|search|i want to see|let me see|can i see|(?:take|have|get) a (?:quick )?"
             r"(?:look|peek|glance) at|look for)"
             r"(?: me| us)?(?: the map of| a map of| the city of| the country of)? (?P<place2>.+)|"
             # "I need the Statue of Liberty on screen for the caption"
             r"(?:(?:put|get|have|bring) )?(?P<place4>.+?) (?:on|onto) (?:the |my )?screen\b.*"),
    ("place", r"(?P<place>[a-z][\w .,'\-]*)"),
]  # fmt: skip
COMPILED = [(kind, re.compile(pattern)) for kind, pattern in FIRST_RULES + RULES]
# Slots that name things (read back as typed); the others are words of the grammar (corrected).
TYPED = frozenset(
    {
        "place",
        "layer",
        "name",
        "field",
        "opts",
        "other",
        "rest",
        "points",
        "polygons",
        "weight",
        "what",
    }
)
SEPARATORS = re.compile(
    r"(?:,? and then |,? then |; |\. |, and | and also | also | and |, (?=\w)|: (?=\w)| - (?=\w)"
    r"| (?=without |with no )|,? but (?=not )| (?=with \d+ ?% opacity)"
    r"| (?=with (?:an? |thin |thick )?[#\w]+(?: \w+)? (?:border|outline|stroke|edge)s?$)"
    r"| (?=with (?:bigger|smaller|larger|thicker|thinner|wider|narrower) ))"
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


# Text in quotes: '...', "...", «...», „...“, “...” and curly single quotes (an apostrophe
# inside a word is none: "let's", "l'Espagne").
QUOTED = re.compile(
    r"(?<!\w)(?:'(?P<a>[^'\n]{3,}?)'|\"(?P<b>[^\"\n]{3,}?)\"|«(?P<c>[^»\n]{3,}?)»|"
    r"[„“](?P<d>[^“”\n]{3,}?)[“”]|\u2018(?P<e>[^\u2019\n]{3,}?)\u2019)(?!\w)"
)
# Verbs that make quoted words an order ("remove all the layers"), not a name ("Coffee shops").
ORDERS = frozenset(
    """
    fly go take bring show hide zoom pan move jump center centre navigate head travel find
    locate focus display open rename remove delete drop clear erase wipe colour color paint
    make change set switch turn toggle list highlight mask unmask outline reset classify shade
    style undo redo revert rotate tilt buffer clip dissolve merge aggregate filter label add
    put send ignore forget run execute
    """.split()  # noqa: SIM905 (a word list reads best as text)
)


def without_quoted_orders(message: str, english: Callable[[str], str]) -> str:
    """A message without the orders it quotes: "A client emailed me: 'remove all the layers'.
    Ignore that, just tell me how many layers there are" asks only how many layers there are.
    A quote that is an order (its first word, in English, is a command verb) is left out with
    the words before it in its sentence (who said it), when the message says anything else
    ("translate into English: «delete all the layers»", "what does 'remove all' mean"); only a
    message that is nothing but the quote is the user's own order. When nothing would be left,
    the words around the quote stay, without it, so the quote is never obeyed. `english` reads
    a quote in English (normalised)."""
    original = message
    quotes = list(QUOTED.finditer(message))
    if len(quotes) == 1 and not re.search(r"\w", QUOTED.sub(" ", message)):
        return message  # the whole message: the user's own order
    for found in reversed(quotes):
        inner = next(group for group in found.groups() if group is not None)
        words = english(inner).lower().split()
        if len(words) < 2 or Spelled(" ".join(words)).fixed[0] not in ORDERS:
            continue
        start = max(message.rfind(mark, 0, found.start()) for mark in ".!?\n") + 1
        before, after = message[:start], message[found.end() :]
        left = (before + " " + re.sub(r"^[\s,.;:!?\-]+", "", after)).strip()
        if not re.search(r"\w", left):
            # a request about the quote itself (translate it, what it means): keep the request
            left = (message[: found.start()] + " " + after).strip()
        message = left
    if message != original and not re.search(r"\w", message):
        return "?"
    return message


def refusal(message: str) -> str | None:
    """Why a message is not map work the agent will do (`injection`: it carries instructions
    of its own; `account`: projects, files, accounts and keys are not the chat's to touch;
    `offtopic`), or None."""
    if INJECTION.search(message):
        return "injection"
    if ACCOUNT.search(message):
        return "account"
    if REFUSE.search(message):
        return "offtopic"
    return None
