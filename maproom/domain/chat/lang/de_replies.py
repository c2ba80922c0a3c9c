"""German replies: the catalogue of `en.REPLIES`, key for key, said in German."""

from __future__ import annotations

from typing import Any

from maproom.domain.chat.lang.en import shown as _shown
from maproom.domain.chat.lang.writing import Writing
from maproom.domain.chat.lang.writing import plural as _plural
from maproom.domain.chat.lang.writing import word as _word

THOUSANDS = "."
DECIMAL = ","
# What confirms a question (folded: lower case, no accents). Not a bare "bitte", "mach",
# "naturlich" nor "sicher": the first word of an answer is enough, and "bitte nicht" is a no.
YES: frozenset[str] = frozenset(
    ["ja", "j", "jo", "jap", "jep", "jawohl", "ok", "okay", "klar", "gerne", "gern", "genau",
     "einverstanden", "in ordnung", "los", "los geht's", "bestatigt", "bestatige",
     "ich bestatige", "ja, klar", "ja klar", "ja, gerne", "ja gerne", "ja, bitte", "ja bitte",
     "ja, naturlich", "ja naturlich", "ja, entfernen", "ja entfernen", "ja, entferne sie",
     "ja, losche sie", "ja, loschen", "entfernen", "entferne sie", "losche sie", "losch sie",
     "mach das", "mach es", "mach's", "mach ruhig", "entferne die ebenen", "losche die ebenen"]
)  # fmt: skip
KINDS = {"points": "Punkte", "lines": "Linien", "polygons": "Polygone", "mixed": "gemischt",
         "features": "Objekte", "image tiles": "Bildkacheln", "raster": "Raster"}  # fmt: skip
TYPES = {"string": "Text", "number": "Zahl", "boolean": "wahr/falsch"}
# A superlative of the English question, with "Objekt" in the singular and the plural.
_MOST = ("Objekt mit dem höchsten Wert", "Objekte mit den höchsten Werten")
_LEAST = ("Objekt mit dem niedrigsten Wert", "Objekte mit den niedrigsten Werten")
SUPERLATIVES = {
    "biggest": ("größte Objekt", "größten Objekte"),
    "largest": ("größte Objekt", "größten Objekte"),
    "greatest": ("größte Objekt", "größten Objekte"), "most": _MOST, "max": _MOST,
    "maximum": _MOST, "smallest": ("kleinste Objekt", "kleinsten Objekte"), "least": _LEAST,
    "fewest": _LEAST, "min": _LEAST, "minimum": _LEAST,
    "most populous": ("bevölkerungsreichste Objekt", "bevölkerungsreichsten Objekte"),
    "least populous": ("bevölkerungsärmste Objekt", "bevölkerungsärmsten Objekte"),
    "most visited": ("meistbesuchte Objekt", "meistbesuchten Objekte"),
    "least visited": ("am wenigsten besuchte Objekt", "am wenigsten besuchten Objekte"),
    "most popular": ("beliebteste Objekt", "beliebtesten Objekte"),
    "least popular": ("unbeliebteste Objekt", "unbeliebtesten Objekte"),
    "highest rated": ("bestbewertete Objekt", "bestbewerteten Objekte"),
    "best rated": ("bestbewertete Objekt", "bestbewerteten Objekte"),
    "most expensive": ("teuerste Objekt", "teuersten Objekte"),
    "cheapest": ("günstigste Objekt", "günstigsten Objekte"),
    "highest": ("höchste Objekt", "höchsten Objekte"),
    "lowest": ("niedrigste Objekt", "niedrigsten Objekte"),
    "longest": ("längste Objekt", "längsten Objekte"),
    "shortest": ("kürzeste Objekt", "kürzesten Objekte"),
    "top": ("erste Objekt", "ersten Objekte"), "bottom": ("letzte Objekt", "letzten Objekte"),
    "best": ("beste Objekt", "besten Objekte"),
    "worst": ("schlechteste Objekt", "schlechtesten Objekte"),
}  # fmt: skip
DIRECTIONS = {"north": "Norden", "south": "Süden", "east": "Osten", "west": "Westen",
              "northeast": "Nordosten", "northwest": "Nordwesten", "southeast": "Südosten",
              "southwest": "Südwesten"}  # fmt: skip
PLACE_KINDS = {"country": "ein Land", "region": "eine Region", "city": "eine Stadt",
               "area": "ein Gebiet"}  # fmt: skip
STYLES = {"dark": "Dunkel", "light": "Hell", "satellite": "Satellit", "streets": "Straßenkarte",
          "blank": "Leer", "offline": "Offline"}  # fmt: skip
PARTS = {"roads": "Straßen", "labels": "Beschriftungen", "water": "Wasser", "parks": "Parks",
         "buildings": "Gebäude", "boundaries": "Grenzen", "land": "Landflächen"}  # fmt: skip
METHODS = {"quantile": "nach Quantilen", "equal": "mit gleichen Abständen"}
# After "mit".
STATS = {"count": "der Anzahl", "sum": "der Summe", "mean": "dem Mittelwert",
         "max": "dem Maximum", "min": "dem Minimum"}  # fmt: skip
COLOURS = {
    "red": "rot", "blue": "blau", "green": "grün", "yellow": "gelb", "orange": "orange",
    "purple": "lila", "violet": "violett", "pink": "rosa", "black": "schwarz", "white": "weiß",
    "grey": "grau", "gray": "grau", "brown": "braun", "gold": "gold", "turquoise": "türkis",
    "navy": "marineblau", "sky blue": "himmelblau", "teal": "petrol", "maroon": "weinrot",
    "cyan": "cyan", "magenta": "magenta", "beige": "beige", "lime": "limettengrün",
    "olive": "olivgrün", "lavender": "lavendel", "coral": "korallenrot", "salmon": "lachsrosa",
    "burgundy": "bordeauxrot", "indigo": "indigo", "mint": "mintgrün", "ochre": "ocker",
    "rose": "pink", "sea green": "meergrün", "forest green": "waldgrün",
}  # fmt: skip
# Before a colour ("dunkelblau", "leuchtend rot"), or alone ("dunkel eingefärbt").
SHADES = {"dark": "dunkel", "light": "hell", "pale": "blass", "deep": "tief",
          "bright": "leuchtend "}  # fmt: skip
# Alone ("dunkler eingefärbt"), and before a colour ("in einem dunkleren Blau").
SHIFTS = {"darker": ("dunkler", "dunkleren"), "lighter": ("heller", "helleren"),
          "paler": ("blasser", "blasseren"), "deeper": ("kräftiger", "kräftigeren"),
          "brighter": ("leuchtender", "leuchtenderen")}  # fmt: skip
# Size and opacity changes: what was done, and what cannot be done.
SIZING = {
    "grow": ("{layers}{much} vergrößert.", "{layers} nicht vergrößern"),
    "shrink": ("{layers}{much} verkleinert.", "{layers} nicht verkleinern"),
    "thicken": ("{layers}{much} breiter dargestellt.", "{layers} nicht breiter darstellen"),
    "thin": ("{layers}{much} schmaler dargestellt.", "{layers} nicht schmaler darstellen"),
    "fade": ("{layers}{much} transparenter gemacht.",
             "die Transparenz von {layers} nicht ändern"),
    "unfade": ("{layers}{much} weniger transparent gemacht.",
               "die Transparenz von {layers} nicht ändern"),
    "half": ("Deckkraft von {layers} auf 50 % gesetzt.",
             "die Transparenz von {layers} nicht ändern"),
    "clear": ("Deckkraft von {layers} auf 30 % gesetzt.",
              "die Transparenz von {layers} nicht ändern"),
    "solid": ("Deckkraft von {layers} auf 100 % gesetzt.",
              "die Transparenz von {layers} nicht ändern"),
    "times": ("Größe von {layers} mit {n} multipliziert.",
              "die Größe von {layers} nicht ändern"),
    "value": ("Größe von {layers} auf {n} gesetzt.", "die Größe von {layers} nicht ändern"),
    "other": ("{layers} geändert: {n}.", "{layers} so nicht ändern: {n}"),
}  # fmt: skip
MUCH = {"much": " deutlich", "little": " etwas", "": ""}


def shown(value: Any) -> Any:
    """A value as a German reply shows it: "37.400.000", "4,5"."""
    return _shown(value, THOUSANDS, DECIMAL)


def join(items: list[str], word: str = "und") -> str:
    """ "a, b und c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


_number, _distance, _parts, _with, _sized, _sizing = Writing(
    shown, join, PARTS, SIZING, MUCH
).helpers()


def _colour(said: Any) -> str:
    """A colour said in English ("dark blue", "darker", "#ff8800"), before "eingefärbt"."""
    text = str(said).strip().lower()
    shade, _, base = text.partition(" ")
    if text in SHIFTS:
        return SHIFTS[text][0]
    if text in SHADES:
        return SHADES[text].strip()
    if text in COLOURS:
        return COLOURS[text]
    if shade in SHIFTS and base in COLOURS:
        return f"in einem {SHIFTS[shade][1]} {COLOURS[base].capitalize()}"
    if shade in SHADES and base in COLOURS:
        return SHADES[shade] + COLOURS[base]
    return f"in {said}"


def _cannot_size(v: dict[str, Any]) -> str:
    kind, _, number = _sizing(v["how"])
    return "Ich kann " + SIZING[kind][1].format(layers=v["layers"], n=number) + "."


def _layers(v: dict[str, Any]) -> str:
    parts = [f"{x['name']} ({KINDS.get(x['kind'], x['kind'])}"
             f"{', ausgeblendet' if x['hidden'] else ''})" for x in v["layers"]]  # fmt: skip
    count = v["count"]
    if count == 1:
        return f"Diese Karte hat 1 Ebene: {', '.join(parts)}."
    return f"Diese Karte hat {shown(count)} Ebenen, von oben nach unten: {', '.join(parts)}."


def _fields(v: dict[str, Any]) -> str:
    parts = []
    for f in v["fields"]:
        kind = TYPES.get(f["type"], f["type"] or "?")
        extra = f", {shown(f['min'])} bis {shown(f['max'])}" if f.get("min") is not None else ""
        parts.append(f"{f['name']} ({kind}{extra})")
    count = _plural(v["count"], "Feld", "Felder")
    return f"Die Ebene {v['layer']} hat {shown(v['count'])} {count}: {join(parts)}."


def _top(v: dict[str, Any]) -> str:
    items = [f"{x['name']} ({shown(x['value'])})" for x in v["features"]]
    sup = v["sup"]
    one, many = SUPERLATIVES.get(sup, (f"{sup} Objekt", f"{sup} Objekte"))
    if len(items) == 1:
        return f"Das {one} in {v['layer']} nach {v['field']}: {items[0]}."
    return f"Die {len(items)} {many} in {v['layer']} nach {v['field']}: {join(items)}."


def _categories(v: dict[str, Any]) -> str:
    items = [f"{x['value']} ({shown(x['count'])})" for x in v["values"]]
    if not items:
        return f"{v['field']} hat in {v['layer']} keine Werte."
    return f"Die Werte von {v['field']} in {v['layer']}: {join(items)}."


def _undone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    if steps == 1:
        return "Letzte Änderung rückgängig gemacht."
    return f"Die letzten {steps} Änderungen rückgängig gemacht."


def _redone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    return "Änderung wiederhergestellt." if steps == 1 else f"{steps} Änderungen wiederhergestellt."


def _only(v: dict[str, Any]) -> str:
    hidden = v["hidden"]
    others = "eine andere Ebene" if hidden == 1 else f"{shown(hidden)} andere Ebenen"
    return f"Nur noch {v['layers']} sichtbar" + (f" ({others} ausgeblendet)." if hidden else ".")


def _count(v: dict[str, Any]) -> str:
    noun = _plural(v["count"], "Objekt", "Objekte")
    return f"Die Ebene {v['layer']} hat {shown(v['count'])} {noun}."


def _count_where(v: dict[str, Any]) -> str:
    noun = _plural(v["total"], "Objekt", "Objekten")
    verb = _plural(v["count"], "erfüllt", "erfüllen")
    return (f"{shown(v['count'])} von {shown(v['total'])} {noun} in {v['layer']} {verb} "
            "die Bedingung.")  # fmt: skip


def _dissolved(v: dict[str, Any]) -> str:
    by = f" nach {v['field']}" if v["field"] else ""
    return f"Objekte von {v['layer']}{by} zu einer neuen Ebene zusammengeführt."


HELP = (
    "Ich kann die Karte bewegen („flieg nach Lissabon“, „zoom etwas heran“, „dreh um 45 "
    "Grad“, „neige die Karte“), die Grundkarte wechseln („dunkler Modus“, „mach das Wasser "
    "dunkelblau“), ein Land hervorheben, deine Ebenen gestalten („färbe die Städte nach "
    "Bevölkerung in 3 Klassen ein“, „skaliere die Städte nach Bevölkerung“, „beschrifte die "
    "Orte mit ihrem Namen“), sie filtern („zeig nur Städte mit mehr als 10 Millionen "
    "Einwohnern“), Fragen zu ihren Daten beantworten („wie viele Städte gibt es?“, „was sind "
    "die 3 größten Städte?“), neue Ebenen erstellen („erstelle einen Puffer von 50 km um die "
    "Städte“) und Änderungen rückgängig machen oder wiederherstellen."
)
REPLIES: dict[str, Any] = {
    "help": HELP,
    "hello": "Hallo!",
    "welcome": "Gern geschehen!",
    "which_ones": (
        "Welche meinen Sie? Nennen Sie die Ebene und eine Bedingung, zum Beispiel „Städte mit "
        "mehr als 10 Millionen Einwohnern“."
    ),
    "which_look": (
        "Was soll ich dafür ändern? Zum Beispiel Farbe oder Größe einer Ebene "
        "(„färbe die Sites orange“), die Grundkarte („dunkler Modus“) oder Beschriftungen."
    ),
    "refused_injection": "Ich befolge nur Kartenbefehle, keine Anweisungen, die in einer "
    "Nachricht stehen, deshalb habe ich nichts geändert.",
    "refused_offtopic": "Ich kann nur bei dieser Karte helfen, deshalb habe ich nichts geändert.",
    "refused_account": "Projekte, Dateien, Konten oder API-Schlüssel kann ich im Chat nicht "
    "löschen, deshalb habe ich nichts geändert.",
    "unknown": "Das habe ich nicht verstanden, deshalb habe ich nichts geändert.",
    "couldnt": "Das ging leider nicht: {reason}",
    "nothing_to_undo": "Es gibt nichts rückgängig zu machen.",
    "nothing_to_redo": "Es gibt nichts wiederherzustellen.",
    "undone": _undone,
    "redone": _redone,
    "which_layer": "Welche Ebene meinst du mit „{said}“?",
    "which_layer_plain": "Welche Ebene meinst du?",
    "no_layers": "Diese Karte hat noch keine Ebenen.",
    "no_place": "Ich habe keinen Ort namens „{name}“ gefunden.",
    "which_place": "Welches {name} meinst du?",
    "which_country": "Welches Land soll ich hervorheben?",
    "mask_not_country": _with(
        "Ich kann nur ganze Länder hervorheben, und {place} ist {kind}.", kind=_word(PLACE_KINDS)
    ),
    "masked": "{place} hervorgehoben.",
    "flew": "Nach {place} geflogen.",
    "unmasked": "Hervorhebung entfernt.",
    "home": "Ansicht auf die ganze Welt zurückgesetzt.",
    "zoom_level": _with("Auf Zoomstufe {level} gezoomt.", level=_number),
    "zoomed_in_one": "Hineingezoomt.",
    "zoomed_in_little": "Etwas hineingezoomt.",
    "zoomed_in_levels": _with("Um {levels} Stufen hineingezoomt.", levels=_number),
    "zoomed_in_all": "Ganz hineingezoomt.",
    "zoomed_out_one": "Herausgezoomt.",
    "zoomed_out_little": "Etwas herausgezoomt.",
    "zoomed_out_levels": _with("Um {levels} Stufen herausgezoomt.", levels=_number),
    "zoomed_out_all": "Ganz herausgezoomt.",
    "panned": _with("Karte nach {direction} verschoben.", direction=_word(DIRECTIONS)),
    "bearing": _with("Karte auf {degrees}° gedreht.", degrees=_number),
    "bearing_reset": "Die Karte ist wieder nach Norden ausgerichtet.",
    "pitch": _with("Karte auf {degrees}° geneigt.", degrees=_number),
    "pitch_reset": "Die Karte ist wieder flach.",
    "layers": _layers,
    "showed": "{layers} eingeblendet.",
    "hid": "{layers} ausgeblendet.",
    "toggled": "Sichtbarkeit von {layers} umgeschaltet.",
    "only": _only,
    "renamed": "{layer} in {name} umbenannt.",
    "removed": "{layers} entfernt.",
    "nothing_to_remove": "Es gibt keine Ebenen zum Entfernen.",
    "no_ai_layers": "Es gibt keine vom Assistenten erstellten Ebenen zum Entfernen.",
    "move_itself": "{layer} kann nicht relativ zu sich selbst verschoben werden.",
    "moved_above": "{layer} über {other} verschoben.",
    "moved_below": "{layer} unter {other} verschoben.",
    "moved_top": "{layer} ganz nach oben verschoben.",
    "moved_bottom": "{layer} ganz nach unten verschoben.",
    "moved_up": "{layer} eine Position nach oben verschoben.",
    "moved_down": "{layer} eine Position nach unten verschoben.",
    "no_extent": "In {layers} gibt es nichts, worauf ich zoomen könnte.",
    "zoomed_to": "Auf {layers} gezoomt.",
    "image_layer": "{layer} ist eine Bildebene: ihre Farben stammen aus dem Bild selbst.",
    "coloured": _with("{layers} {colour} eingefärbt.", colour=_colour),
    "cannot_size": _cannot_size,
    "sized": _sized,
    "opacity": "Deckkraft von {layers} auf {percent} % gesetzt.",
    "no_field": "{layer} hat kein Feld wie „{field}“; die Felder sind {fields}.",
    "no_fields": "{layer} hat keine Felder.",
    "heatmap_points": "Eine Heatmap braucht Punkte, und {layer} hat keine.",
    "heatmap": "{layer} wird als Heatmap angezeigt.",
    "heatmap_weighted": "{layer} wird als Heatmap angezeigt, gewichtet nach {field}.",
    "classified": _with(
        "{layer} nach {field} eingefärbt ({classes} Klassen {method}).", method=_word(METHODS)
    ),
    "categorized": "{layer} nach {field} eingefärbt (eine Farbe pro Wert).",
    "cannot_size_by": "Nur Punkte und Linien können nach einem Feld skaliert werden, und "
    "{layer} hat weder das eine noch das andere.",
    "field_constant": "{field} hat in {layer} überall denselben Wert, die Größen würden sich "
    "also nicht unterscheiden.",
    "sized_by": "{layer} nach {field} skaliert.",
    "labels_off": "Beschriftungen von {layers} ausgeblendet.",
    "labelled": "{layers} mit {field} beschriftet.",
    "basemap": _with("Grundkarte auf „{style}“ umgestellt.", style=_word(STYLES)),
    "category_shown": _with("{parts} auf der Grundkarte eingeblendet.", parts=_parts),
    "category_hidden": _with("{parts} auf der Grundkarte ausgeblendet.", parts=_parts),
    "category_coloured": _with(
        "{parts} auf der Grundkarte {colour} eingefärbt.", parts=_parts, colour=_colour
    ),
    "no_numbers": "{layer} hat kein Zahlenfeld zum Vergleichen.",
    "which_colour": "Welche Farbe sollen {layers} bekommen?",
    "which_number": "Welches Feld von {layer} meinst du? Die Zahlenfelder sind {fields}.",
    "no_condition": "Ich konnte „{said}“ nicht als Bedingung für {layer} lesen.",
    "data_error": "Ich konnte diese Daten nicht lesen: {reason}",
    "count": _count,
    "count_where": _count_where,
    "no_outline": "{layer} hat keinen Umriss zum Einfärben (nur Punkte und Flächen).",
    "outlined": _with("Umriss von {layers} {colour} eingefärbt.", colour=_colour),
    "style_reset": "{layers} wieder im einfachen Stil.",
    "names": lambda v: (
        "{layer}: ".format(layer=v["layer"])
        + ", ".join(v["names"])
        + (" und {more} weitere.".format(more=shown(v["more"])) if v["more"] else ".")
    ),
    "feature_value": lambda v: "Der Wert von {field} für {feature} ist {value}.".format(
        field=v["field"], feature=v["feature"], value=shown(v["value"])
    ),
    "fields": _fields,
    "stat_min": "Der kleinste Wert von {field} in {layer} ist {value}.",
    "stat_max": "Der größte Wert von {field} in {layer} ist {value}.",
    "stat_min_named": "Der kleinste Wert von {field} in {layer} ist {value} ({name}).",
    "stat_max_named": "Der größte Wert von {field} in {layer} ist {value} ({name}).",
    "stat_mean": "Der Mittelwert von {field} in {layer} ist {value}.",
    "stat_sum": "Die Summe von {field} in {layer} ist {value}.",
    "none_found": "Kein Objekt in {layer} erfüllt die Bedingung.",
    "top": _top,
    "categories": _categories,
    "filtered": "{layer} gefiltert: Nur die passenden Objekte werden angezeigt.",
    "filter_how": (
        "Welche Objekte von {layers} soll ich nach {field} behalten? "
        "Nennen Sie eine Bedingung, zum Beispiel „{field} über 1000“."
    ),
    "filtered_hide": "Die passenden Objekte von {layer} ausgeblendet.",
    "not_filtered": "{layers} zeigt bereits alle Objekte.",
    "unfiltered": "Alle Objekte von {layers} werden wieder angezeigt.",
    "buffered": _with(
        "Puffer von {distance} um {layer} als neue Ebene erstellt.", distance=_distance
    ),
    "aggregate_kinds": "Zum Aggregieren brauche ich Punkte ({points}) und Polygone ({polygons}).",
    "aggregated": _with(
        "Neue Ebene aus {polygons} erstellt, mit {stat} von {points} in jedem Polygon.",
        stat=_word(STATS),
    ),
    "dissolved": _dissolved,
    "clipped": "{layer} auf {to} zugeschnitten, als neue Ebene.",
    "kept": "Die passenden Objekte von {layer} als neue Ebene gespeichert.",
    "confirm_remove": "{count} Ebenen entfernen ({names})? (Rückgängig holt sie zurück.)",
    "confirm_yes": "Ja, entfernen",
    "confirm_no": "Nein, behalten",
    "removed_confirmed": "Erledigt: Die Ebenen wurden entfernt.",
    "kept_layers": "OK, es wurde nichts entfernt.",
    "not_removed": "Es wurde nichts entfernt: {reason}",
}
