"""Colours as people name them: CSS names ("dark blue", "tomato"), hex ("#ff8800", "f80"), and
a few everyday words CSS lacks ("dark purple", "pale yellow", "sky blue", "navy").

The CSS colour names come from `webcolors`; a shade word ("dark", "light", "pale", "bright",
"deep") before a name CSS does not know mixes the base colour with black or white.
"""

from __future__ import annotations

import colorsys
import re

import webcolors

HEX = re.compile(r"#?([0-9a-f]{6}|[0-9a-f]{3})")
SHADES = {"dark": 0.35, "deep": 0.3, "light": -0.45, "pale": -0.6, "bright": -0.15, "soft": -0.3}
EVERYDAY = {
    "sky blue": "#87ceeb", "navy": "#000080", "sea green": "#2e8b57", "forest green": "#228b22",
    "lime": "#00ff00", "gold": "#ffd700", "beige": "#f5f5dc", "mint": "#98ff98",
    "teal": "#008080", "turquoise": "#40e0d0", "magenta": "#ff00ff", "cyan": "#00ffff",
    "burgundy": "#800020", "maroon": "#800000", "olive": "#808000", "lavender": "#e6e6fa",
    "violet": "#ee82ee", "indigo": "#4b0082", "coral": "#ff7f50", "salmon": "#fa8072",
    "grey": "#808080", "gray": "#808080", "rose": "#ff007f", "ochre": "#cc7722",
    # CSS purple (#800080) is a magenta to most eyes: a purple people point at when asked;
    # CSS brown (#a52a2a) is a dark red: a brown like wood or coffee.
    "purple": "#7b1fa2", "brown": "#8b5a2b", "coffee": "#6f4e37", "coffee brown": "#6f4e37",
}  # fmt: skip
NAMES = frozenset(webcolors.names("css3")) | {name.replace(" ", "") for name in EVERYDAY}


COMPARATIVES = {"darker": "dark", "deeper": "deep", "lighter": "light", "paler": "pale",
                "softer": "soft",
                "brighter": "bright"}  # fmt: skip


CODED = re.compile(r"(?:^|[\s,(:])(#[0-9a-f]{6}|#[0-9a-f]{3})\)?[.!]*$")


def words(typed: str) -> str:
    """A colour as the user said it ("dark blue", "#ff8800"); a name given with its code
    ("our brand navy, #0a3d62") is the code."""
    coded = CODED.search(typed.strip().lower())
    return coded.group(1) if coded else re.sub(r"^(?:in|to|with|a|an) ", "", typed.strip().lower())


def parse(text: str) -> str | None:
    """A `#rrggbb` colour from a name or a hex code, or None when it names no colour."""
    text = words(text).removeprefix("the colour ").removeprefix("the color ")
    text = re.sub(r"^(?:in |to |with |into |a |an |some )+", "", text).strip()
    text = re.sub(r"(?: colou?r| shade| tone)$", "", text).strip()
    shade, _, rest = text.partition(" ")
    if shade in COMPARATIVES and rest:  # "a darker blue"
        text = f"{COMPARATIVES[shade]} {rest}"
    found = HEX.fullmatch(text)
    if found and (text.startswith("#") or not text.isalpha()):
        digits = found.group(1)
        return "#" + (digits if len(digits) == 6 else "".join(ch * 2 for ch in digits))
    if text in EVERYDAY:
        return EVERYDAY[text]
    joined = text.replace(" ", "").replace("-", "")
    try:
        return str(webcolors.name_to_hex(joined))
    except ValueError:
        pass
    shade, _, base = text.partition(" ")
    if shade in SHADES and base:
        colour = parse(base)
        if colour is not None:
            return mix(colour, SHADES[shade])
    return None


def family(colour: str) -> str | None:
    """The everyday name of a `#rrggbb` colour's family ("dark blue" is "blue")."""
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
        return None
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, light, saturation = colorsys.rgb_to_hls(r, g, b)
    hue *= 360
    if light < 0.12:
        return "black"
    if light > 0.92:
        return "white"
    if saturation < 0.18:
        return "grey"
    if 10 <= hue < 45 and light < 0.4:
        return "brown"
    if (hue >= 330 or hue < 15) and light >= 0.75:
        return "pink"
    bands = [(15, "red"), (45, "orange"), (70, "yellow"), (165, "green"), (255, "blue"),
             (290, "purple"), (340, "pink"), (361, "red")]  # fmt: skip
    return next(name for top, name in bands if hue < top)


def mix(colour: str, amount: float) -> str:
    """Towards black (`amount` > 0) or white (< 0)."""
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    target = 0 if amount > 0 else 255
    weight = abs(amount)
    mixed = [round(c * (1 - weight) + target * weight) for c in channels]
    return "#" + "".join(f"{c:02x}" for c in mixed)
