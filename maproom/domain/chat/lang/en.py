"""English: the language the agent reads in, and its replies (the catalogue every other
language follows, key for key)."""

from __future__ import annotations

import re
from typing import Any

from maproom.domain.chat.builtin.text import COMMAND_WORDS, COMMON

PHRASES: dict[str, str] = {}
REWRITES: list[tuple[re.Pattern[str], str]] = []
# Words that say a message is English (for telling languages apart).
WORDS = (
    COMMAND_WORDS
    | COMMON
    | frozenset(
        """
    undo redo revert how many much which what fields field biggest largest smallest highest
    lowest average total sum mean show hide zoom fly please thanks thank rotate tilt label
    labels buffer clip dissolve merge count filter only just again same too also do does
    is are there have has with without more than less fewer least most of in to on at by
    now instead rather actually make made done doing lets let's those these ones one
    """.split()  # noqa: SIM905 (a word list reads best as text)
    )
)
YES = frozenset(
    ["yes", "y", "yeah", "yep", "sure", "ok", "okay", "confirm", "confirmed", "do it",
     "go ahead", "please do", "yes please", "yes, remove them", "remove them", "delete them"]
)  # fmt: skip
KINDS = {"points": "points", "lines": "lines", "polygons": "polygons", "mixed": "mixed",
         "features": "features", "image tiles": "image tiles", "raster": "raster"}  # fmt: skip
TYPES = {"string": "text", "number": "number", "boolean": "true/false"}
THOUSANDS = ","
DECIMAL = "."


def shown(value: Any, thousands: str = THOUSANDS, decimal: str = DECIMAL) -> Any:
    """A value as a reply shows it: numbers with thousands separated ("37,400,000", "4.5")."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    if isinstance(value, float) and not value.is_integer():
        text = f"{value:,.2f}".rstrip("0").rstrip(".")
    else:
        text = f"{int(value):,}"
    return text.replace(",", "\0").replace(".", decimal).replace("\0", thousands)


def join(items: list[str], word: str = "and") -> str:
    """ "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _layers(v: dict[str, Any]) -> str:
    parts = [f"{x['name']} ({KINDS.get(x['kind'], x['kind'])}{', hidden' if x['hidden'] else ''})"
             for x in v["layers"]]  # fmt: skip
    count = v["count"]
    return f"This map has {count} layer{'s' if count != 1 else ''}, top first: {', '.join(parts)}."


def _fields(v: dict[str, Any]) -> str:
    parts = []
    for f in v["fields"]:
        kind = TYPES.get(f["type"], f["type"] or "?")
        extra = f", {shown(f['min'])} to {shown(f['max'])}" if f.get("min") is not None else ""
        parts.append(f"{f['name']} ({kind}{extra})")
    return f"{v['layer']} has {v['count']} field{'s' if v['count'] != 1 else ''}: {join(parts)}."


def _top(v: dict[str, Any]) -> str:
    items = [f"{x['name']} ({shown(x['value'])})" for x in v["features"]]
    if len(items) == 1:
        return f"The {v['sup']} of {v['layer']} by {v['field']} is {items[0]}."
    return f"The {len(items)} {v['sup']} of {v['layer']} by {v['field']}: {join(items)}."


def _categories(v: dict[str, Any]) -> str:
    items = [f"{x['value']} ({shown(x['count'])})" for x in v["values"]]
    return f"The values of {v['field']} in {v['layer']}: {join(items) or 'none'}."


def _undone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    return "Undid the last change." if steps == 1 else f"Undid the last {steps} changes."


def _redone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    return "Redid the change." if steps == 1 else f"Redid {steps} changes."


HELP = (
    'I can move the map ("fly to Lisbon", "zoom in a bit", "rotate 45 degrees", "tilt the '
    'map"), switch the basemap ("dark mode", "make the water dark blue"), highlight a '
    'country, style your layers ("colour the cities by population in 3 classes", "size the '
    'cities by population", "label the sites by name"), filter them ("only show cities with '
    'more than 10 million people"), answer questions about their data ("how many cities are '
    'there?", "what are the 3 biggest cities?"), make new layers ("buffer the cities by 50 '
    'km"), and undo or redo changes.'
)
REPLIES: dict[str, Any] = {
    "help": HELP,
    "hello": "Hello!",
    "welcome": "You're welcome.",
    "which_ones": (
        'Which ones do you mean? Tell me the layer and a condition, for example "cities with '
        'more than 10 million people".'
    ),
    "which_look": (
        "What should I change for that? For example a layer's colour or size "
        '("make the sites orange"), the basemap ("dark mode") or labels.'
    ),
    "refused_injection": "I only follow map commands, not instructions written into a message, "
    "so I changed nothing.",
    "refused_offtopic": "I can only help with this map, so I changed nothing.",
    "refused_account": "I can't delete projects, files, accounts or API keys from the chat, so I "
    "changed nothing.",
    "unknown": "I didn't understand that, so I changed nothing.",
    "couldnt": "I couldn't do that: {reason}",
    "nothing_to_undo": "There is nothing to undo.",
    "nothing_to_redo": "There is nothing to redo.",
    "undone": _undone,
    "redone": _redone,
    "which_layer": 'Which layer do you mean by "{said}"?',
    "which_layer_plain": "Which layer do you mean?",
    "no_layers": "There are no layers on this map yet.",
    "no_place": 'I couldn\'t find a place called "{name}".',
    "which_place": "Which {name} do you mean?",
    "which_country": "Which country should I highlight?",
    "mask_not_country": "I can only highlight whole countries, and {place} is a {kind}.",
    "masked": "Highlighted {place}.",
    "flew": "Flew to {place}.",
    "unmasked": "Cleared the highlight.",
    "home": "Reset the view to the whole world.",
    "zoom_level": "Zoomed to level {level}.",
    "zoomed_in_one": "Zoomed in.",
    "zoomed_in_little": "Zoomed in a little.",
    "zoomed_in_levels": "Zoomed in {levels} levels.",
    "zoomed_in_all": "Zoomed in all the way.",
    "zoomed_out_one": "Zoomed out.",
    "zoomed_out_little": "Zoomed out a little.",
    "zoomed_out_levels": "Zoomed out {levels} levels.",
    "zoomed_out_all": "Zoomed out all the way.",
    "panned": "Panned {direction}.",
    "bearing": "Rotated the map to {degrees}°.",
    "bearing_reset": "The map faces north again.",
    "pitch": "Tilted the map to {degrees}°.",
    "pitch_reset": "The map is flat again.",
    "layers": _layers,
    "showed": "Showed {layers}.",
    "hid": "Hid {layers}.",
    "toggled": "Toggled {layers}.",
    "only": lambda v: (
        f"Showing only {v['layers']}"
        + (f" (hid {v['hidden']} other{'s' if v['hidden'] != 1 else ''})" if v["hidden"] else "")
        + "."
    ),
    "renamed": "Renamed {layer} to {name}.",
    "removed": "Removed {layers}.",
    "nothing_to_remove": "There are no layers to remove.",
    "no_ai_layers": "There are no layers made by the assistant to clear.",
    "move_itself": "{layer} can't move relative to itself.",
    "moved_above": "Moved {layer} above {other}.",
    "moved_below": "Moved {layer} below {other}.",
    "moved_top": "Moved {layer} to the top.",
    "moved_bottom": "Moved {layer} to the bottom.",
    "moved_up": "Moved {layer} up.",
    "moved_down": "Moved {layer} down.",
    "no_extent": "{layers} has no extent to zoom to.",
    "zoomed_to": "Zoomed to {layers}.",
    "image_layer": "{layer} is an image layer; its colours are its own.",
    "coloured": "Coloured {layers} {colour}.",
    "cannot_size": "I can't make {layers} {how}.",
    "sized": "Made {layers} {how}.",
    "opacity": "Set the opacity of {layers} to {percent}%.",
    "no_field": '{layer} has no field like "{field}"; its fields are {fields}.',
    "no_fields": "{layer} has no fields.",
    "heatmap_points": "A heatmap needs points, and {layer} has none.",
    "heatmap": "Showing {layer} as a heatmap.",
    "heatmap_weighted": "Showing {layer} as a heatmap weighted by {field}.",
    "classified": "Coloured {layer} by {field} ({classes} {method} classes).",
    "categorized": "Coloured {layer} by {field} (one colour per value).",
    "cannot_size_by": "Only points and lines can be sized by a field, and {layer} has neither.",
    "field_constant": "{field} has the same value everywhere in {layer}, so sizes would not vary.",
    "sized_by": "Sized {layer} by {field}.",
    "labels_off": "Hid the labels of {layers}.",
    "labelled": "Labelled {layers} with {field}.",
    "basemap": "Switched the basemap to {style}.",
    "category_shown": "Showed the {parts} on the basemap.",
    "category_hidden": "Hid the {parts} on the basemap.",
    "category_coloured": "Coloured the {parts} on the basemap {colour}.",
    "no_numbers": "{layer} has no numeric field to compare.",
    "which_colour": "Which colour should {layers} be?",
    "which_number": "Which field of {layer} do you mean? Its numeric fields are {fields}.",
    "no_condition": 'I couldn\'t read "{said}" as a condition on {layer}.',
    "data_error": "I couldn't read that data: {reason}",
    "count": lambda v: (
        f"{v['layer']} has {shown(v['count'])} feature{'s' if v['count'] != 1 else ''}."
    ),
    "count_where": lambda v: (
        f"{shown(v['count'])} of the {shown(v['total'])} features of {v['layer']} match."
    ),
    "fields": _fields,
    "style_reset": "{layers} back to the plain style.",
    "outlined": "Outlined {layers} in {colour}.",
    "no_outline": "{layer} has no outline to colour (only points and polygons do).",
    "names": lambda v: (
        f"{v['layer']}: {', '.join(v['names'])}"
        + (f" and {shown(v['more'])} more." if v["more"] else ".")
    ),
    "feature_value": lambda v: f"The {v['field']} of {v['feature']} is {shown(v['value'])}.",
    "stat_min": "The smallest {field} in {layer} is {value}.",
    "stat_max": "The largest {field} in {layer} is {value}.",
    "stat_min_named": "The smallest {field} in {layer} is {value} ({name}).",
    "stat_max_named": "The largest {field} in {layer} is {value} ({name}).",
    "stat_mean": "The average {field} in {layer} is {value}.",
    "stat_sum": "The total {field} in {layer} is {value}.",
    "none_found": "No feature of {layer} matches.",
    "top": _top,
    "categories": _categories,
    "filtered": "Filtered {layer}: only the matching features are shown.",
    "filter_how": (
        "Which of {layers} should I keep by {field}? "
        'Tell me a condition, for example "{field} over 1,000".'
    ),
    "filtered_hide": "Hid the matching features of {layer}.",
    "not_filtered": "{layers} shows all its features already.",
    "unfiltered": "Showing all the features of {layers} again.",
    "buffered": "Made a {distance} buffer around {layer} as a new layer.",
    "aggregate_kinds": "I need points ({points}) and polygons ({polygons}) to aggregate.",
    "aggregated": "Made a new layer of {polygons} with the {stat} of {points} in each.",
    "dissolved": lambda v: (
        f"Dissolved {v['layer']}"
        + (f" by {v['field']}" if v["field"] else "")
        + " into a new layer."
    ),
    "clipped": "Clipped {layer} to {to} as a new layer.",
    "kept": "Saved the matching features of {layer} as a new layer.",
    "confirm_remove": "Remove {count} layers ({names})? (Undo brings them back.)",
    "confirm_yes": "Yes, remove them",
    "confirm_no": "No, keep them",
    "removed_confirmed": "Done: removed the layers.",
    "kept_layers": "OK, nothing was removed.",
    "not_removed": "Nothing was removed: {reason}",
}
