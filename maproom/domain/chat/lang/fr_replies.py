"""French replies: the catalogue of `en.REPLIES`, key for key, said in French."""

from __future__ import annotations

from typing import Any

from maproom.domain.chat.lang.en import shown as _shown
from maproom.domain.chat.lang.writing import Writing
from maproom.domain.chat.lang.writing import word as _word

THOUSANDS = "\u202f"  # a narrow no-break space: "37 400 000"
DECIMAL = ","
# What confirms a question (folded: lower case, no accents). Not a bare "absolument" nor
# "evidemment": the first word of an answer is enough, and "absolument pas" is a no.
YES: frozenset[str] = frozenset(
    ["oui", "ouais", "ok", "okay", "d'accord", "dac", "daccord", "bien sur",
     "oui, bien sur", "oui bien sur", "vas-y", "allez-y", "go", "entendu", "parfait",
     "exactement", "tout a fait", "volontiers", "ca marche", "je confirme", "confirme",
     "confirmer", "fais-le", "faites-le", "oui, merci", "oui merci",
     "oui, s'il vous plait", "oui s'il vous plait", "oui, s'il te plait", "oui, les supprimer",
     "oui les supprimer", "les supprimer", "supprime-les", "supprimez-les", "oui, supprime-les",
     "oui, supprimez-les", "efface-les", "effacez-les", "supprime les couches",
     "supprimez les couches"]
)  # fmt: skip
KINDS = {"points": "points", "lines": "lignes", "polygons": "polygones", "mixed": "mixte",
         "features": "entités", "image tiles": "tuiles d'image", "raster": "raster"}  # fmt: skip
TYPES = {"string": "texte", "number": "nombre", "boolean": "vrai/faux"}
# A superlative of the English question, in the singular and the plural ("le plus grand").
SUPERLATIVES = {
    "biggest": ("plus grand", "plus grands"), "largest": ("plus grand", "plus grands"),
    "greatest": ("plus grand", "plus grands"), "most": ("plus élevé", "plus élevés"),
    "max": ("plus élevé", "plus élevés"), "maximum": ("plus élevé", "plus élevés"),
    "smallest": ("plus petit", "plus petits"), "least": ("plus faible", "plus faibles"),
    "fewest": ("plus faible", "plus faibles"), "min": ("plus faible", "plus faibles"),
    "minimum": ("plus faible", "plus faibles"),
    "most populous": ("plus peuplé", "plus peuplés"),
    "least populous": ("moins peuplé", "moins peuplés"),
    "most visited": ("plus visité", "plus visités"),
    "least visited": ("moins visité", "moins visités"),
    "most popular": ("plus populaire", "plus populaires"),
    "least popular": ("moins populaire", "moins populaires"),
    "highest rated": ("mieux noté", "mieux notés"), "best rated": ("mieux noté", "mieux notés"),
    "most expensive": ("plus cher", "plus chers"), "cheapest": ("moins cher", "moins chers"),
    "highest": ("plus élevé", "plus élevés"), "lowest": ("plus bas", "plus bas"),
    "longest": ("plus long", "plus longs"), "shortest": ("plus court", "plus courts"),
    "top": ("premier", "premiers"), "bottom": ("dernier", "derniers"),
    "best": ("meilleur", "meilleurs"), "worst": ("pire", "pires"),
}  # fmt: skip
# After "vers".
DIRECTIONS = {"north": "le nord", "south": "le sud", "east": "l'est", "west": "l'ouest",
              "northeast": "le nord-est", "northwest": "le nord-ouest",
              "southeast": "le sud-est", "southwest": "le sud-ouest"}  # fmt: skip
PLACE_KINDS = {"country": "un pays", "region": "une région", "city": "une ville",
               "area": "une zone"}  # fmt: skip
STYLES = {"dark": "sombre", "light": "clair", "satellite": "satellite", "streets": "plan",
          "blank": "vide", "offline": "hors ligne"}  # fmt: skip
PARTS = {"roads": "les routes", "labels": "les étiquettes", "water": "l'eau",
         "parks": "les parcs", "buildings": "les bâtiments", "boundaries": "les frontières",
         "land": "les terres"}  # fmt: skip
METHODS = {"quantile": "par quantiles", "equal": "à intervalles égaux"}
STATS = {"count": "le nombre", "sum": "la somme", "mean": "la moyenne", "max": "le maximum",
         "min": "le minimum"}  # fmt: skip
COLOURS = {
    "red": "rouge", "blue": "bleu", "green": "vert", "yellow": "jaune", "orange": "orange",
    "purple": "violet", "violet": "violet", "pink": "rose", "black": "noir", "white": "blanc",
    "grey": "gris", "gray": "gris", "brown": "marron", "gold": "doré", "turquoise": "turquoise",
    "navy": "bleu marine", "sky blue": "bleu ciel", "teal": "bleu canard",
    "maroon": "bordeaux", "cyan": "cyan", "magenta": "magenta", "beige": "beige",
    "lime": "vert citron", "olive": "vert olive", "lavender": "lavande", "coral": "corail",
    "salmon": "saumon", "burgundy": "bordeaux", "indigo": "indigo", "mint": "vert menthe",
    "ochre": "ocre", "rose": "rose", "sea green": "vert d'eau", "forest green": "vert forêt",
}  # fmt: skip
SHADES = {"dark": "foncé", "light": "clair", "pale": "pâle", "deep": "profond",
          "bright": "vif"}  # fmt: skip
SHIFTS = {"darker": "plus foncé", "lighter": "plus clair", "paler": "plus pâle",
          "deeper": "plus profond", "brighter": "plus vif"}  # fmt: skip
# Size and opacity changes: what was done, and what cannot be done.
SIZING = {
    "grow": ("J'ai{much} augmenté la taille de {layers}.", "augmenter la taille de {layers}"),
    "shrink": ("J'ai{much} réduit la taille de {layers}.", "réduire la taille de {layers}"),
    "thicken": ("J'ai{much} épaissi {layers}.", "épaissir {layers}"),
    "thin": ("J'ai{much} affiné {layers}.", "affiner {layers}"),
    "fade": ("J'ai{much} augmenté la transparence de {layers}.",
             "changer la transparence de {layers}"),
    "unfade": ("J'ai{much} réduit la transparence de {layers}.",
               "changer la transparence de {layers}"),
    "half": ("J'ai mis l'opacité de {layers} à 50\u202f%.",
             "changer la transparence de {layers}"),
    "clear": ("J'ai mis l'opacité de {layers} à 30\u202f%.",
              "changer la transparence de {layers}"),
    "solid": ("J'ai supprimé la transparence de {layers}.",
              "changer la transparence de {layers}"),
    "times": ("J'ai multiplié la taille de {layers} par {n}.", "changer la taille de {layers}"),
    "value": ("J'ai réglé la taille de {layers} sur {n}.", "changer la taille de {layers}"),
    "other": ("J'ai modifié {layers}\u00a0: {n}.", "modifier {layers} ainsi\u00a0: {n}"),
}  # fmt: skip
MUCH = {"much": " beaucoup", "little": " un peu", "": ""}


def shown(value: Any) -> Any:
    """A value as a French reply shows it: "37 400 000" (narrow no-break spaces), "4,5"."""
    return _shown(value, THOUSANDS, DECIMAL)


def join(items: list[str], word: str = "et") -> str:
    """ "a, b et c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


_number, _distance, _parts, _with, _sized, _sizing = Writing(
    shown, join, PARTS, SIZING, MUCH
).helpers()


def _plural(count: Any, one: str, many: str) -> str:
    """The singular for 0 and 1 ("0 entité", "1 entité"), the plural from 2."""
    return one if isinstance(count, int | float) and abs(count) < 2 else many


def _colour(said: Any) -> str:
    """A colour said in English ("dark blue", "darker", "#ff8800"), after "colorer"."""
    text = str(said).strip().lower()
    shade, _, base = text.partition(" ")
    if text in SHIFTS or text in SHADES:
        return f"dans un ton {SHIFTS.get(text) or SHADES[text]}"
    if text in COLOURS:
        return f"en {COLOURS[text]}"
    if shade in SHIFTS and base in COLOURS:
        return f"en {COLOURS[base]} {SHIFTS[shade]}"
    if shade in SHADES and base in COLOURS:
        return f"en {COLOURS[base]} {SHADES[shade]}"
    return f"en {said}"


def _cannot_size(v: dict[str, Any]) -> str:
    kind, _, number = _sizing(v["how"])
    return "Je ne peux pas " + SIZING[kind][1].format(layers=v["layers"], n=number) + "."


def _layers(v: dict[str, Any]) -> str:
    parts = [f"{x['name']} ({KINDS.get(x['kind'], x['kind'])}{', masquée' if x['hidden'] else ''})"
             for x in v["layers"]]  # fmt: skip
    count = v["count"]
    if count == 1:
        return f"Cette carte a 1 couche\u00a0: {', '.join(parts)}."
    return f"Cette carte a {shown(count)} couches, de haut en bas\u00a0: {', '.join(parts)}."


def _fields(v: dict[str, Any]) -> str:
    parts = []
    for f in v["fields"]:
        kind = TYPES.get(f["type"], f["type"] or "?")
        extra = f", de {shown(f['min'])} à {shown(f['max'])}" if f.get("min") is not None else ""
        parts.append(f"{f['name']} ({kind}{extra})")
    count = _plural(v["count"], "champ", "champs")
    return f"La couche {v['layer']} a {shown(v['count'])} {count}\u00a0: {join(parts)}."


def _top(v: dict[str, Any]) -> str:
    items = [f"{x['name']} ({shown(x['value'])})" for x in v["features"]]
    one, many = SUPERLATIVES.get(v["sup"], (v["sup"], v["sup"]))
    if len(items) == 1:
        return f"Dans {v['layer']}, le {one} selon {v['field']} est {items[0]}."
    return (f"Dans {v['layer']}, les {len(items)} {many} selon {v['field']} sont\u00a0: "
            f"{join(items)}.")  # fmt: skip


def _categories(v: dict[str, Any]) -> str:
    items = [f"{x['value']} ({shown(x['count'])})" for x in v["values"]]
    if not items:
        return f"{v['field']} n'a aucune valeur dans {v['layer']}."
    return f"Les valeurs de {v['field']} dans {v['layer']}\u00a0: {join(items)}."


def _undone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    if steps == 1:
        return "J'ai annulé la dernière modification."
    return f"J'ai annulé les {steps} dernières modifications."


def _redone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    return "J'ai rétabli la modification." if steps == 1 else f"J'ai rétabli {steps} modifications."


def _only(v: dict[str, Any]) -> str:
    hidden = v["hidden"]
    others = "une autre couche" if hidden == 1 else f"{shown(hidden)} autres couches"
    return f"Je n'affiche plus que {v['layers']}" + (f" (j'ai masqué {others})." if hidden else ".")


def _count(v: dict[str, Any]) -> str:
    noun = _plural(v["count"], "entité", "entités")
    return f"La couche {v['layer']} compte {shown(v['count'])} {noun}."


def _count_where(v: dict[str, Any]) -> str:
    noun = _plural(v["count"], "entité", "entités")
    verb = _plural(v["count"], "correspond", "correspondent")
    return (f"{shown(v['count'])} {noun} sur {shown(v['total'])} dans {v['layer']} {verb} "
            "à la condition.")  # fmt: skip


def _dissolved(v: dict[str, Any]) -> str:
    by = f" selon {v['field']}" if v["field"] else ""
    return f"J'ai regroupé {v['layer']}{by} dans une nouvelle couche."


HELP = (
    "Je peux déplacer la carte («\u00a0vole vers Lisbonne\u00a0», «\u00a0zoome un peu\u00a0», "
    "«\u00a0tourne de 45 degrés\u00a0», «\u00a0incline la carte\u00a0»), changer le fond de "
    "carte («\u00a0mode sombre\u00a0», «\u00a0mets l'eau en bleu foncé\u00a0»), mettre un pays "
    "en évidence, styliser vos couches («\u00a0colore les villes selon la population en 3 "
    "classes\u00a0», «\u00a0change la taille des villes selon la population\u00a0», "
    "«\u00a0étiquette les sites par nom\u00a0»), les filtrer («\u00a0n'affiche que les villes "
    "de plus de 10 millions d'habitants\u00a0»), répondre à des questions sur leurs données "
    "(«\u00a0combien y a-t-il de villes\u202f?\u00a0», «\u00a0quelles sont les 3 plus grandes "
    "villes\u202f?\u00a0»), créer de nouvelles couches («\u00a0fais une zone tampon de 50 km "
    "autour des villes\u00a0») et annuler ou rétablir des modifications."
)
REPLIES: dict[str, Any] = {
    "help": HELP,
    "hello": "Bonjour\u202f!",
    "welcome": "Avec plaisir\u202f!",
    "which_ones": (
        "Lesquels voulez-vous dire\u202f? Donnez-moi la couche et une condition, par exemple "
        "«\u00a0villes de plus de 10 millions d'habitants\u00a0»."
    ),
    "which_look": (
        "Que dois-je changer pour cela\u202f? Par exemple la couleur ou la taille d'une couche "
        "(«\u00a0colore les sites en orange\u00a0»), le fond de carte (« mode sombre ») ou les "
        "étiquettes."
    ),
    "refused_injection": "Je ne suis que les commandes de carte, pas les instructions écrites "
    "dans un message, donc je n'ai rien modifié.",
    "refused_offtopic": "Je ne peux vous aider qu'avec cette carte, donc je n'ai rien modifié.",
    "refused_account": "Je ne peux pas supprimer de projets, de fichiers, de comptes ni de clés "
    "d'API depuis le chat, donc je n'ai rien modifié.",
    "unknown": "Je n'ai pas compris, donc je n'ai rien modifié.",
    "couldnt": "Je n'ai pas pu le faire\u00a0: {reason}",
    "nothing_to_undo": "Il n'y a rien à annuler.",
    "nothing_to_redo": "Il n'y a rien à rétablir.",
    "undone": _undone,
    "redone": _redone,
    "which_layer": "Quelle couche entendez-vous par «\u00a0{said}\u00a0»\u202f?",
    "which_layer_plain": "De quelle couche parlez-vous\u202f?",
    "no_layers": "Cette carte n'a encore aucune couche.",
    "no_place": "Je n'ai trouvé aucun lieu appelé «\u00a0{name}\u00a0».",
    "which_place": "De quel {name} parlez-vous\u202f?",
    "which_country": "Quel pays dois-je mettre en évidence\u202f?",
    "mask_not_country": _with(
        "Je ne peux mettre en évidence que des pays entiers, et {place} est {kind}.",
        kind=_word(PLACE_KINDS),
    ),
    "masked": "J'ai mis {place} en évidence.",
    "flew": "Voici {place}.",
    "unmasked": "J'ai retiré la mise en évidence.",
    "home": "J'ai recentré la vue sur le monde entier.",
    "zoom_level": _with("J'ai zoomé au niveau {level}.", level=_number),
    "zoomed_in_one": "J'ai zoomé.",
    "zoomed_in_little": "J'ai un peu zoomé.",
    "zoomed_in_levels": _with("J'ai zoomé de {levels} niveaux.", levels=_number),
    "zoomed_in_all": "J'ai zoomé au maximum.",
    "zoomed_out_one": "J'ai dézoomé.",
    "zoomed_out_little": "J'ai un peu dézoomé.",
    "zoomed_out_levels": _with("J'ai dézoomé de {levels} niveaux.", levels=_number),
    "zoomed_out_all": "J'ai dézoomé au maximum.",
    "panned": _with("J'ai déplacé la carte vers {direction}.", direction=_word(DIRECTIONS)),
    "bearing": _with("J'ai orienté la carte à {degrees}°.", degrees=_number),
    "bearing_reset": "La carte est de nouveau orientée vers le nord.",
    "pitch": _with("J'ai incliné la carte à {degrees}°.", degrees=_number),
    "pitch_reset": "La carte est de nouveau à plat.",
    "layers": _layers,
    "showed": "J'ai affiché {layers}.",
    "hid": "J'ai masqué {layers}.",
    "toggled": "J'ai inversé l'affichage de {layers}.",
    "only": _only,
    "renamed": "J'ai renommé {layer} en {name}.",
    "removed": "J'ai supprimé {layers}.",
    "nothing_to_remove": "Il n'y a aucune couche à supprimer.",
    "no_ai_layers": "Il n'y a aucune couche créée par l'assistant à effacer.",
    "move_itself": "Je ne peux pas déplacer {layer} par rapport à elle-même.",
    "moved_above": "J'ai placé {layer} au-dessus de {other}.",
    "moved_below": "J'ai placé {layer} en dessous de {other}.",
    "moved_top": "J'ai placé {layer} tout en haut.",
    "moved_bottom": "J'ai placé {layer} tout en bas.",
    "moved_up": "J'ai monté {layer} d'un cran.",
    "moved_down": "J'ai descendu {layer} d'un cran.",
    "no_extent": "Il n'y a rien sur quoi zoomer dans {layers}.",
    "zoomed_to": "J'ai zoomé sur {layers}.",
    "image_layer": "{layer} est une couche d'image\u00a0: ses couleurs sont celles de l'image.",
    "coloured": _with("J'ai coloré {layers} {colour}.", colour=_colour),
    "cannot_size": _cannot_size,
    "sized": _sized,
    "opacity": "J'ai mis l'opacité de {layers} à {percent}\u202f%.",
    "no_field": "{layer} n'a aucun champ comme «\u00a0{field}\u00a0»\u202f; ses champs sont "
    "{fields}.",
    "no_fields": "{layer} n'a aucun champ.",
    "heatmap_points": "Une carte de chaleur a besoin de points, et {layer} n'en a pas.",
    "heatmap": "J'affiche {layer} en carte de chaleur.",
    "heatmap_weighted": "J'affiche {layer} en carte de chaleur pondérée par {field}.",
    "classified": _with(
        "J'ai coloré {layer} selon {field} ({classes} classes {method}).", method=_word(METHODS)
    ),
    "categorized": "J'ai coloré {layer} selon {field} (une couleur par valeur).",
    "cannot_size_by": "Seuls les points et les lignes peuvent changer de taille selon un champ, "
    "et {layer} n'a ni l'un ni l'autre.",
    "field_constant": "{field} a la même valeur partout dans {layer}, donc les tailles ne "
    "varieraient pas.",
    "sized_by": "J'ai fait varier la taille de {layer} selon {field}.",
    "labels_off": "J'ai masqué les étiquettes de {layers}.",
    "labelled": "J'ai étiqueté {layers} avec {field}.",
    "basemap": _with("J'ai choisi le fond de carte {style}.", style=_word(STYLES)),
    "category_shown": _with("J'ai affiché {parts} sur le fond de carte.", parts=_parts),
    "category_hidden": _with("J'ai masqué {parts} sur le fond de carte.", parts=_parts),
    "category_coloured": _with(
        "J'ai coloré {parts} du fond de carte {colour}.", parts=_parts, colour=_colour
    ),
    "no_numbers": "{layer} n'a aucun champ numérique à comparer.",
    "which_colour": "De quelle couleur voulez-vous {layers}\u202f?",
    "which_number": "De quel champ de {layer} parlez-vous\u202f? Ses champs numériques sont "
    "{fields}.",
    "no_condition": "Je n'ai pas pu lire «\u00a0{said}\u00a0» comme une condition sur {layer}.",
    "data_error": "Je n'ai pas pu lire ces données\u00a0: {reason}",
    "count": _count,
    "count_where": _count_where,
    "no_outline": "{layer} n'a pas de contour à colorer (seuls les points et les polygones).",
    "outlined": _with("J'ai coloré le contour de {layers} {colour}.", colour=_colour),
    "style_reset": "{layers} a retrouvé le style simple.",
    "names": lambda v: (
        "{layer}\u202f: ".format(layer=v["layer"])
        + ", ".join(v["names"])
        + (" et {more} de plus.".format(more=shown(v["more"])) if v["more"] else ".")
    ),
    "feature_value": lambda v: "La valeur de {field} de {feature} est {value}.".format(
        field=v["field"], feature=v["feature"], value=shown(v["value"])
    ),
    "fields": _fields,
    "stat_min": "La plus petite valeur de {field} dans {layer} est {value}.",
    "stat_max": "La plus grande valeur de {field} dans {layer} est {value}.",
    "stat_min_named": "La plus petite valeur de {field} dans {layer} est {value} ({name}).",
    "stat_max_named": "La plus grande valeur de {field} dans {layer} est {value} ({name}).",
    "stat_mean": "La moyenne de {field} dans {layer} est de {value}.",
    "stat_sum": "Le total de {field} dans {layer} est de {value}.",
    "none_found": "Aucune entité de {layer} ne correspond.",
    "top": _top,
    "categories": _categories,
    "filtered": "J'ai filtré {layer}\u00a0: seules les entités qui correspondent sont affichées.",
    "filter_how": (
        "Quelles entités de {layers} dois-je garder selon {field}\u00a0? "
        "Donnez-moi une condition, par exemple «\u00a0{field} supérieur à 1000\u00a0»."
    ),
    "filtered_hide": "J'ai masqué les entités de {layer} qui correspondent.",
    "not_filtered": "{layers} affiche déjà toutes ses entités.",
    "unfiltered": "J'affiche de nouveau toutes les entités de {layers}.",
    "buffered": _with(
        "J'ai créé une zone tampon de {distance} autour de {layer} dans une nouvelle couche.",
        distance=_distance,
    ),
    "aggregate_kinds": "Pour agréger, il me faut des points ({points}) et des polygones "
    "({polygons}).",
    "aggregated": _with(
        "J'ai créé une nouvelle couche de {polygons} avec {stat} de {points} dans chaque polygone.",
        stat=_word(STATS),
    ),
    "dissolved": _dissolved,
    "clipped": "J'ai découpé {layer} suivant les limites de {to} dans une nouvelle couche.",
    "kept": "J'ai enregistré les entités de {layer} qui correspondent dans une nouvelle couche.",
    "confirm_remove": "Supprimer {count} couches ({names})\u202f? (Annuler les rétablit.)",
    "confirm_yes": "Oui, les supprimer",
    "confirm_no": "Non, les garder",
    "removed_confirmed": "C'est fait\u00a0: j'ai supprimé les couches.",
    "kept_layers": "D'accord, je n'ai rien supprimé.",
    "not_removed": "Rien n'a été supprimé\u00a0: {reason}",
}
