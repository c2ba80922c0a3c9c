"""Spanish replies: the catalogue of `en.REPLIES`, key for key, said in Spanish."""

from __future__ import annotations

import re
from typing import Any

from maproom.domain.chat.lang.en import shown as _shown
from maproom.domain.chat.lang.writing import Writing
from maproom.domain.chat.lang.writing import plural as _plural
from maproom.domain.chat.lang.writing import word as _word

THOUSANDS = "."
DECIMAL = ","
# What confirms a question (folded: lower case, no accents). Not a bare "claro": the first word
# of an answer is enough, and "claro que no" is a no.
YES: frozenset[str] = frozenset(
    ["si", "s", "sip", "vale", "ok", "okey", "okay", "de acuerdo", "adelante", "hazlo",
     "dale", "venga", "confirmo", "confirmado", "afirmativo", "correcto", "exacto", "perfecto",
     "por supuesto", "claro que si", "pues claro", "desde luego", "claro, adelante",
     "claro, hazlo", "claro, eliminalas", "si, claro", "si, por favor", "si por favor",
     "si, eliminalas", "si, borralas", "si, quitalas", "eliminalas", "borralas", "quitalas",
     "eliminalas todas", "borralas todas", "elimina las capas", "borra las capas"]
)  # fmt: skip
KINDS = {"points": "puntos", "lines": "líneas", "polygons": "polígonos", "mixed": "mixta",
         "features": "elementos", "image tiles": "teselas de imagen",
         "raster": "ráster"}  # fmt: skip
TYPES = {"string": "texto", "number": "número", "boolean": "verdadero/falso"}
# A superlative of the English question, in the singular and the plural ("el más grande").
SUPERLATIVES = {
    "biggest": ("más grande", "más grandes"), "largest": ("más grande", "más grandes"),
    "greatest": ("mayor", "mayores"), "most": ("mayor", "mayores"), "max": ("mayor", "mayores"),
    "maximum": ("mayor", "mayores"), "smallest": ("más pequeño", "más pequeños"),
    "least": ("menor", "menores"), "fewest": ("menor", "menores"), "min": ("menor", "menores"),
    "minimum": ("menor", "menores"), "most populous": ("más poblado", "más poblados"),
    "least populous": ("menos poblado", "menos poblados"),
    "most visited": ("más visitado", "más visitados"),
    "least visited": ("menos visitado", "menos visitados"),
    "most popular": ("más popular", "más populares"),
    "least popular": ("menos popular", "menos populares"),
    "highest rated": ("mejor valorado", "mejor valorados"),
    "best rated": ("mejor valorado", "mejor valorados"),
    "most expensive": ("más caro", "más caros"), "cheapest": ("más barato", "más baratos"),
    "highest": ("más alto", "más altos"), "lowest": ("más bajo", "más bajos"),
    "longest": ("más largo", "más largos"), "shortest": ("más corto", "más cortos"),
    "top": ("primero", "primeros"), "bottom": ("último", "últimos"),
    "best": ("mejor", "mejores"), "worst": ("peor", "peores"),
}  # fmt: skip
DIRECTIONS = {"north": "norte", "south": "sur", "east": "este", "west": "oeste",
              "northeast": "noreste", "northwest": "noroeste", "southeast": "sureste",
              "southwest": "suroeste"}  # fmt: skip
PLACE_KINDS = {"country": "un país", "region": "una región", "city": "una ciudad",
               "area": "una zona"}  # fmt: skip
STYLES = {"dark": "oscuro", "light": "claro", "satellite": "de satélite", "streets": "callejero",
          "blank": "en blanco", "offline": "sin conexión"}  # fmt: skip
PARTS = {"roads": "las carreteras", "labels": "las etiquetas", "water": "el agua",
         "parks": "los parques", "buildings": "los edificios", "boundaries": "las fronteras",
         "land": "la tierra"}  # fmt: skip
METHODS = {"quantile": "por cuantiles", "equal": "de intervalos iguales"}
STATS = {"count": "el número", "sum": "la suma", "mean": "la media", "max": "el máximo",
         "min": "el mínimo"}  # fmt: skip
COLOURS = {
    "red": "rojo", "blue": "azul", "green": "verde", "yellow": "amarillo", "orange": "naranja",
    "purple": "morado", "violet": "violeta", "pink": "rosa", "black": "negro", "white": "blanco",
    "grey": "gris", "gray": "gris", "brown": "marrón", "gold": "dorado", "turquoise": "turquesa",
    "navy": "azul marino", "sky blue": "celeste", "teal": "verde azulado", "maroon": "granate",
    "cyan": "cian", "magenta": "magenta", "beige": "beis", "lime": "verde lima",
    "olive": "verde oliva", "lavender": "lavanda", "coral": "coral", "salmon": "salmón",
    "burgundy": "burdeos", "indigo": "índigo", "mint": "verde menta", "ochre": "ocre",
    "rose": "rosa", "sea green": "verde mar", "forest green": "verde bosque",
}  # fmt: skip
SHADES = {"dark": "oscuro", "light": "claro", "pale": "pálido", "deep": "intenso",
          "bright": "vivo"}  # fmt: skip
SHIFTS = {"darker": "más oscuro", "lighter": "más claro", "paler": "más pálido",
          "deeper": "más intenso", "brighter": "más vivo"}  # fmt: skip
# Size and opacity changes: what was done, and what cannot be done.
SIZING = {
    "grow": ("Aumenté{much} el tamaño de {layers}.", "aumentar el tamaño de {layers}"),
    "shrink": ("Reduje{much} el tamaño de {layers}.", "reducir el tamaño de {layers}"),
    "thicken": ("Aumenté{much} el grosor de {layers}.", "aumentar el grosor de {layers}"),
    "thin": ("Reduje{much} el grosor de {layers}.", "reducir el grosor de {layers}"),
    "fade": ("Aumenté{much} la transparencia de {layers}.",
             "cambiar la transparencia de {layers}"),
    "unfade": ("Reduje{much} la transparencia de {layers}.",
               "cambiar la transparencia de {layers}"),
    "half": ("Puse la opacidad de {layers} al 50 %.",
             "cambiar la transparencia de {layers}"),
    "clear": ("Puse la opacidad de {layers} al 30 %.",
              "cambiar la transparencia de {layers}"),
    "solid": ("Quité la transparencia de {layers}.", "cambiar la transparencia de {layers}"),
    "times": ("Multipliqué por {n} el tamaño de {layers}.", "cambiar el tamaño de {layers}"),
    "value": ("Puse el tamaño de {layers} en {n}.", "cambiar el tamaño de {layers}"),
    "other": ("Cambié {layers}: {n}.", "cambiar {layers} así: {n}"),
}  # fmt: skip
MUCH = {"much": " mucho", "little": " un poco", "": ""}


def shown(value: Any) -> Any:
    """A value as a Spanish reply shows it: "37.400.000", "4,5"."""
    return _shown(value, THOUSANDS, DECIMAL)


def join(items: list[str], word: str = "y") -> str:
    """ "a, b y c" ("e" before an "i" sound: "Ríos e Islas")."""
    if len(items) <= 1:
        return "".join(items)
    if word == "y" and re.match(r"h?[ií](?![aeiouáéó])", items[-1], re.IGNORECASE):
        word = "e"
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


_number, _distance, _parts, _with, _sized, _sizing = Writing(
    shown, join, PARTS, SIZING, MUCH
).helpers()


def _colour(said: Any) -> str:
    """A colour said in English ("dark blue", "darker", "#ff8800"), after "pintar"."""
    text = str(said).strip().lower()
    shade, _, base = text.partition(" ")
    if text in SHIFTS or text in SHADES:
        return f"de un tono {SHIFTS.get(text) or SHADES[text]}"
    if text in COLOURS:
        return f"de {COLOURS[text]}"
    if shade in SHIFTS and base in COLOURS:
        return f"de un {COLOURS[base]} {SHIFTS[shade]}"
    if shade in SHADES and base in COLOURS:
        return f"de {COLOURS[base]} {SHADES[shade]}"
    return f"de color {said}" if text.startswith("#") else f"de {said}"


def _cannot_size(v: dict[str, Any]) -> str:
    kind, _, number = _sizing(v["how"])
    return "No puedo " + SIZING[kind][1].format(layers=v["layers"], n=number) + "."


def _layers(v: dict[str, Any]) -> str:
    parts = [f"{x['name']} ({KINDS.get(x['kind'], x['kind'])}{', oculta' if x['hidden'] else ''})"
             for x in v["layers"]]  # fmt: skip
    count = v["count"]
    if count == 1:
        return f"Este mapa tiene 1 capa: {', '.join(parts)}."
    return f"Este mapa tiene {shown(count)} capas, de arriba abajo: {', '.join(parts)}."


def _fields(v: dict[str, Any]) -> str:
    parts = []
    for f in v["fields"]:
        kind = TYPES.get(f["type"], f["type"] or "?")
        extra = f", de {shown(f['min'])} a {shown(f['max'])}" if f.get("min") is not None else ""
        parts.append(f"{f['name']} ({kind}{extra})")
    count = _plural(v["count"], "campo", "campos")
    return f"La capa {v['layer']} tiene {shown(v['count'])} {count}: {join(parts)}."


def _top(v: dict[str, Any]) -> str:
    items = [f"{x['name']} ({shown(x['value'])})" for x in v["features"]]
    one, many = SUPERLATIVES.get(v["sup"], (v["sup"], v["sup"]))
    if len(items) == 1:
        return f"En {v['layer']}, el {one} según {v['field']} es {items[0]}."
    return f"En {v['layer']}, los {len(items)} {many} según {v['field']} son: {join(items)}."


def _categories(v: dict[str, Any]) -> str:
    items = [f"{x['value']} ({shown(x['count'])})" for x in v["values"]]
    if not items:
        return f"{v['field']} no tiene valores en {v['layer']}."
    return f"Los valores de {v['field']} en {v['layer']}: {join(items)}."


def _undone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    return "Deshice el último cambio." if steps == 1 else f"Deshice los últimos {steps} cambios."


def _redone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    return "Rehice el cambio." if steps == 1 else f"Rehice {steps} cambios."


def _only(v: dict[str, Any]) -> str:
    hidden = v["hidden"]
    others = "otra" if hidden == 1 else f"otras {shown(hidden)}"
    return f"Solo se ve {v['layers']}" + (f" (oculté {others})." if hidden else ".")


def _count(v: dict[str, Any]) -> str:
    noun = _plural(v["count"], "elemento", "elementos")
    return f"La capa {v['layer']} tiene {shown(v['count'])} {noun}."


def _count_where(v: dict[str, Any]) -> str:
    noun = _plural(v["total"], "elemento", "elementos")
    verb = _plural(v["count"], "cumple", "cumplen")
    return (f"{shown(v['count'])} de {shown(v['total'])} {noun} de {v['layer']} {verb} "
            "la condición.")  # fmt: skip


def _dissolved(v: dict[str, Any]) -> str:
    by = f" según {v['field']}" if v["field"] else ""
    return f"Disolví {v['layer']}{by} en una capa nueva."


HELP = (
    "Puedo mover el mapa («vuela a Lisboa», «acércate un poco», «rota 45 grados», «inclina el "
    "mapa»), cambiar el mapa base («modo oscuro», «pon el agua azul oscuro»), resaltar un "
    "país, dar estilo a tus capas («colorea las ciudades por población en 3 clases», «cambia "
    "el tamaño de las ciudades según la población», «etiqueta los sitios por nombre»), "
    "filtrarlas («muestra solo las ciudades con más de 10 millones de habitantes»), responder "
    "preguntas sobre sus datos («¿cuántas ciudades hay?», «¿cuáles son las 3 ciudades más "
    "grandes?»), crear capas nuevas («crea un área de influencia de 50 km alrededor de las "
    "ciudades») y deshacer o rehacer cambios."
)
REPLIES: dict[str, Any] = {
    "help": HELP,
    "hello": "¡Hola!",
    "welcome": "¡De nada!",
    "which_ones": (
        "¿Cuáles quieres decir? Dime la capa y una condición, por ejemplo «ciudades con más de "
        "10 millones de habitantes»."
    ),
    "which_look": (
        "¿Qué cambio para eso? Por ejemplo el color o el tamaño de una capa "
        "(«pinta los sitios de naranja»), el mapa base («modo oscuro») o las etiquetas."
    ),
    "refused_injection": "Solo sigo órdenes sobre el mapa, no instrucciones escritas dentro de "
    "un mensaje, así que no cambié nada.",
    "refused_offtopic": "Solo puedo ayudarte con este mapa, así que no cambié nada.",
    "refused_account": "No puedo borrar proyectos, archivos, cuentas ni claves de API desde el "
    "chat, así que no cambié nada.",
    "unknown": "No lo entendí, así que no cambié nada.",
    "couldnt": "No pude hacerlo: {reason}",
    "nothing_to_undo": "No hay nada que deshacer.",
    "nothing_to_redo": "No hay nada que rehacer.",
    "undone": _undone,
    "redone": _redone,
    "which_layer": "¿A qué capa te refieres con «{said}»?",
    "which_layer_plain": "¿A qué capa te refieres?",
    "no_layers": "Este mapa todavía no tiene capas.",
    "no_place": "No encontré ningún lugar llamado «{name}».",
    "which_place": "¿A qué {name} te refieres?",
    "which_country": "¿Qué país resalto?",
    "mask_not_country": _with(
        "Solo puedo resaltar países enteros, y {place} es {kind}.", kind=_word(PLACE_KINDS)
    ),
    "masked": "Resalté {place}.",
    "flew": "Volé a {place}.",
    "unmasked": "Quité el resaltado.",
    "home": "Volví a la vista del mundo entero.",
    "zoom_level": _with("Puse el zoom en el nivel {level}.", level=_number),
    "zoomed_in_one": "Acerqué el mapa.",
    "zoomed_in_little": "Acerqué un poco el mapa.",
    "zoomed_in_levels": _with("Acerqué el mapa {levels} niveles.", levels=_number),
    "zoomed_in_all": "Acerqué el mapa al máximo.",
    "zoomed_out_one": "Alejé el mapa.",
    "zoomed_out_little": "Alejé un poco el mapa.",
    "zoomed_out_levels": _with("Alejé el mapa {levels} niveles.", levels=_number),
    "zoomed_out_all": "Alejé el mapa al máximo.",
    "panned": _with("Moví el mapa hacia el {direction}.", direction=_word(DIRECTIONS)),
    "bearing": _with("Giré el mapa a {degrees}°.", degrees=_number),
    "bearing_reset": "El mapa vuelve a mirar al norte.",
    "pitch": _with("Incliné el mapa a {degrees}°.", degrees=_number),
    "pitch_reset": "El mapa vuelve a estar plano.",
    "layers": _layers,
    "showed": "Mostré {layers}.",
    "hid": "Oculté {layers}.",
    "toggled": "Alterné la visibilidad de {layers}.",
    "only": _only,
    "renamed": "Cambié el nombre de {layer} a {name}.",
    "removed": "Eliminé {layers}.",
    "nothing_to_remove": "No hay capas que eliminar.",
    "no_ai_layers": "No hay capas creadas por el asistente que quitar.",
    "move_itself": "No puedo mover {layer} respecto a sí misma.",
    "moved_above": "Puse {layer} encima de {other}.",
    "moved_below": "Puse {layer} debajo de {other}.",
    "moved_top": "Subí {layer} arriba del todo.",
    "moved_bottom": "Bajé {layer} al fondo.",
    "moved_up": "Subí {layer} un puesto.",
    "moved_down": "Bajé {layer} un puesto.",
    "no_extent": "No hay nada a lo que acercarse en {layers}.",
    "zoomed_to": "Acerqué el mapa a {layers}.",
    "image_layer": "{layer} es una capa de imagen: sus colores son los de la propia imagen.",
    "coloured": _with("Pinté {layers} {colour}.", colour=_colour),
    "cannot_size": _cannot_size,
    "sized": _sized,
    "opacity": "Puse la opacidad de {layers} al {percent} %.",
    "no_field": "{layer} no tiene ningún campo como «{field}»; sus campos son {fields}.",
    "no_fields": "{layer} no tiene campos.",
    "heatmap_points": "Un mapa de calor necesita puntos, y {layer} no tiene ninguno.",
    "heatmap": "Muestro {layer} como mapa de calor.",
    "heatmap_weighted": "Muestro {layer} como mapa de calor ponderado por {field}.",
    "classified": _with(
        "Coloreé {layer} según {field} ({classes} clases {method}).", method=_word(METHODS)
    ),
    "categorized": "Coloreé {layer} según {field} (un color por valor).",
    "cannot_size_by": "Solo los puntos y las líneas pueden cambiar de tamaño según un campo, y "
    "{layer} no tiene ni unos ni otras.",
    "field_constant": "{field} tiene el mismo valor en todos los elementos de {layer}, así que "
    "los tamaños no variarían.",
    "sized_by": "Ajusté el tamaño de {layer} según {field}.",
    "labels_off": "Oculté las etiquetas de {layers}.",
    "labelled": "Etiqueté {layers} con {field}.",
    "basemap": _with("Puse el mapa base {style}.", style=_word(STYLES)),
    "category_shown": _with("Mostré {parts} del mapa base.", parts=_parts),
    "category_hidden": _with("Oculté {parts} del mapa base.", parts=_parts),
    "category_coloured": _with(
        "Pinté {parts} del mapa base {colour}.", parts=_parts, colour=_colour
    ),
    "no_numbers": "{layer} no tiene ningún campo numérico que comparar.",
    "which_colour": "¿De qué color quieres {layers}?",
    "which_number": "¿A qué campo de {layer} te refieres? Sus campos numéricos son {fields}.",
    "no_condition": "No supe leer «{said}» como una condición sobre {layer}.",
    "data_error": "No pude leer esos datos: {reason}",
    "count": _count,
    "count_where": _count_where,
    "no_outline": "{layer} no tiene contorno que pintar (solo los puntos y polígonos).",
    "outlined": _with("Pinté el contorno de {layers} {colour}.", colour=_colour),
    "style_reset": "{layers} vuelve al estilo sencillo.",
    "names": lambda v: (
        "{layer}: ".format(layer=v["layer"])
        + ", ".join(v["names"])
        + (" y {more} más.".format(more=shown(v["more"])) if v["more"] else ".")
    ),
    "feature_value": lambda v: "El valor de {field} de {feature} es {value}.".format(
        field=v["field"], feature=v["feature"], value=shown(v["value"])
    ),
    "fields": _fields,
    "stat_min": "El valor más bajo de {field} en {layer} es {value}.",
    "stat_max": "El valor más alto de {field} en {layer} es {value}.",
    "stat_min_named": "El valor más bajo de {field} en {layer} es {value} ({name}).",
    "stat_max_named": "El valor más alto de {field} en {layer} es {value} ({name}).",
    "stat_mean": "La media de {field} en {layer} es {value}.",
    "stat_sum": "El total de {field} en {layer} es {value}.",
    "none_found": "Ningún elemento de {layer} cumple la condición.",
    "top": _top,
    "categories": _categories,
    "filtered": "Filtré {layer}: solo se ven los elementos que cumplen la condición.",
    "filter_how": (
        "¿Qué elementos de {layers} dejo según {field}? "
        "Dime una condición, por ejemplo «{field} mayor que 1000»."
    ),
    "filtered_hide": "Oculté los elementos de {layer} que cumplen la condición.",
    "not_filtered": "{layers} ya muestra todos sus elementos.",
    "unfiltered": "Vuelvo a mostrar todos los elementos de {layers}.",
    "buffered": _with(
        "Creé un área de influencia de {distance} alrededor de {layer} en una capa nueva.",
        distance=_distance,
    ),
    "aggregate_kinds": "Para agregar necesito puntos ({points}) y polígonos ({polygons}).",
    "aggregated": _with(
        "Creé una capa nueva de {polygons} con {stat} de {points} en cada polígono.",
        stat=_word(STATS),
    ),
    "dissolved": _dissolved,
    "clipped": "Recorté {layer} con {to} en una capa nueva.",
    "kept": "Guardé los elementos de {layer} que cumplen la condición en una capa nueva.",
    "confirm_remove": "¿Elimino {count} capas ({names})? (Deshacer las recupera.)",
    "confirm_yes": "Sí, elimínalas",
    "confirm_no": "No, déjalas",
    "removed_confirmed": "Hecho: eliminé las capas.",
    "kept_layers": "Vale, no eliminé nada.",
    "not_removed": "No se eliminó nada: {reason}",
}
