"""The basemap: its style and its parts ("dark mode", "satellite imagery", "hide the roads on
the basemap", "make the water dark blue", "make the sea a darker blue")."""

from __future__ import annotations

import re

from maproom.domain.chat.builtin import colours, targets
from maproom.domain.chat.builtin.gazetteer import fold
from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Done, Outcome, phrase
from maproom.domain.chat.builtin.targets import join, singular

CATEGORIES = {
    "road": "roads", "street": "roads", "highway": "roads", "label": "labels", "name": "labels",
    "place name": "labels", "text": "labels", "water": "water", "ocean": "water", "sea": "water",
    "lake": "water", "river": "water", "park": "parks", "green space": "parks",
    "greenspace": "parks", "building": "buildings", "boundarie": "boundaries",
    "boundary": "boundaries", "border": "boundaries", "land": "land", "country border":
    "boundaries", "country boundarie": "boundaries",
}  # fmt: skip
STYLES = {
    "dark": "dark", "darker": "dark", "night": "dark", "black": "dark", "light": "light",
    "lighter": "light", "day": "light", "white": "light", "bright": "light", "default": "light",
    "normal": "light", "satellite": "satellite", "aerial": "satellite", "imagery": "satellite",
    "satellite imagery": "satellite", "aerial imagery": "satellite", "photo": "satellite",
    "photos": "satellite", "satellite view": "satellite", "street": "streets",
    "streets": "streets", "street map": "streets", "road map": "streets", "osm": "streets",
    "openstreetmap": "streets", "blank": "blank", "none": "blank", "empty": "blank",
    "plain": "blank", "nothing": "blank", "no basemap": "blank", "no map": "blank",
    "offline": "offline",
}  # fmt: skip
# How each part of the basemap looks before anyone recolours it, roughly (for "darker").
TYPICAL = {"water": "#a9cfe0", "land": "#f4f1ea", "parks": "#c8e6c9", "roads": "#ffffff",
           "buildings": "#d9d0c9", "boundaries": "#9a97a8", "labels": "#555555"}  # fmt: skip
SHIFTS = {"dark": 0.35, "darker": 0.35, "deeper": 0.3, "light": -0.45, "lighter": -0.45,
          "paler": -0.6, "brighter": -0.15}  # fmt: skip
SHOWING = ("show", "turn on", "switch on", "enable", "display", "bring back")


def categories(text: str) -> list[str] | None:
    """The basemap parts a phrase names ("the roads and labels"), or None."""
    found = []
    for part in re.split(r",? and |, ", fold(text)):
        part = re.sub(r"^the ", "", part).strip()
        key = CATEGORIES.get(part) or CATEGORIES.get(singular(part))
        if key is None:
            return None
        found.append(key)
    return list(dict.fromkeys(found))


def _a_layer(mind: Mind, text: str) -> bool:
    """Whether a phrase names a layer rather than the basemap ("hide the roads" hides a layer
    called Roads), unless the message says basemap."""
    explicit = re.search(r"basemap|base map|background", mind.message, re.IGNORECASE)
    return not explicit and isinstance(targets.named(mind, text), list)


@resolves("basemap")
def basemap(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "dark mode", "switch to satellite", "no basemap"."""
    style = "blank" if slots.get("off") else STYLES.get(fold(slots.get("style", "")), "")
    if not style:
        return None
    return Done([{"type": "set_basemap_style", "style": style}], [phrase("basemap", style=style)])


@resolves("basemap_category")
def basemap_category(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "hide the roads on the basemap", "no labels"."""
    found = categories(slots.get("cats", ""))
    if not found or _a_layer(mind, slots.get("cats", "")):
        return None
    visible = slots.get("verb", "").strip() in SHOWING
    actions = [{"type": "set_basemap_category", "category_key": key, "visible": visible}
               for key in found]  # fmt: skip
    return Done(actions, [phrase("category_shown" if visible else "category_hidden",
                                 parts=join(found))])  # fmt: skip


@resolves("category_colour")
def category_colour(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "make the water dark blue", "the sea a darker blue", "make the water darker"."""
    found = categories(slots.get("cats", ""))
    said = colours.words(slots.get("color", ""))
    if not found or _a_layer(mind, slots.get("cats", "")):
        return None
    current = mind.state.get("basemap", {}).get("categories", {})
    actions = []
    for key in found:
        value = colours.parse(said)
        if value is None and said in SHIFTS:  # "darker": from the colour it has now
            base = (current.get(key) or {}).get("color") or TYPICAL[key]
            value = colours.mix(base, SHIFTS[said])
        if value is None:
            return None
        actions.append({"type": "set_basemap_category", "category_key": key, "color": value})
    return Done(actions, [phrase("category_coloured", parts=join(found), colour=said)])


@resolves("basemap_too")
def basemap_too(mind: Mind, slots: dict[str, str]) -> Outcome | None:
    """ "the map is too dark" (light), "too bright" (dark), "too busy" (blank)."""
    style = {"dark": "light", "bright": "dark", "light": "dark"}.get(
        slots.get("too") or "", "blank"
    )
    return mind.resolve("basemap", {"style": style})
