"""Which continent a country is on, by its ISO 3166-1 alpha-2 code, for conditions such as
"the European cities" or "only the ones in Asia" (docs/chat.md, "Data answers").

The grouping is the everyday one of the United Nations geoscheme's continents (Russia and
Turkey count as European and Asian; Central America and the Caribbean as North American).
It is a short list written here rather than a dependency: it never changes with the data.
"""

from __future__ import annotations

import re

CODES = {
    "europe": """
        AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE
        LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM TR UA VA XK
    """,
    "asia": """
        AE AF AM AZ BD BH BN BT CN CY GE HK ID IL IN IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM
        MN MO MV MY NP OM PH PK PS QA RU SA SG SY TH TJ TL TM TR TW UZ VN YE
    """,
    "africa": """
        AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA
        MG ML MR MU MW MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW
    """,
    "north america": """
        AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX
        NI PA PM PR SV SX TC TT US VC VG VI
    """,
    "south america": "AR BO BR CL CO EC FK GF GY PE PY SR UY VE",
    "oceania": """
        AS AU CK FJ FM GU KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TO TV UM VU WF WS
    """,
}
CONTINENTS = {name: frozenset(codes.split()) for name, codes in CODES.items()}

# The continent a phrase names, in the five languages ("european", "europeias", "in Asien").
NAMED = [
    (re.compile(r"\b(?:north|nord|norte)[ -]?(?:americ|amerik|amériq|ameriq)|\bnorteameric|"
                r"\bamerique du nord|\bamerica del norte|\bamerica do norte"), "north america"),
    (re.compile(r"\b(?:south|sud|sul)[ -]?(?:americ|amerik|ameriq)|\bsudameric|\bsuramerica|"
                r"\bamerique du sud|\bamerica del sur|\bamerica do sul|\blatin americ"),
     "south america"),
    (re.compile(r"\beurop"), "europe"),
    (re.compile(r"\basia|\basiat|\basie\b|\basien"), "asia"),
    (re.compile(r"\bafric|\bafriq|\bafrik"), "africa"),
    (re.compile(r"\boceani|\bozeanien|\baustralasia"), "oceania"),
]  # fmt: skip


def named(phrase: str) -> frozenset[str] | None:
    """The country codes of the continent a folded phrase names, or None."""
    for pattern, name in NAMED:
        if pattern.search(phrase):
            return CONTINENTS[name]
    return None
