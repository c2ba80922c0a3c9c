"""Spanish: the words of map requests, read in English (see the package docstring)."""

from __future__ import annotations

import re

from maproom.domain.chat.lang import common
from maproom.domain.chat.lang.es_replies import REPLIES, YES, shown

__all__ = ["AFTER", "MARKERS", "PHRASES", "REPLIES", "REWRITES", "YES", "shown"]

# Words only Spanish uses among the five (for telling the language).
MARKERS = (
    "el",
    "los",
    "las",
    "del",
    "y",
    "muy",
    "mas",
    "esta",
    "hay",
    "por favor",
    "porfa",
    "quiero",
    "puedes",
    "podrias",
    "dime",
    "cual",
    "cuales",
    "cuantos",
    "cuantas",
)
REWRITES = [
    # Pronouns joined to the verb: "píntalo", "escóndelas".
    (re.compile(r"\b(p[ií]nta|col[oó]r[eé]a|esc[oó]nde|oc[uú]lta|mu[eé]stra|qu[ií]ta|b[oó]rra|"
                r"ac[eé]rca|al[eé]ja|ren[oó]mbra)(?:lo|la)\b"), r"\1 it"),
    (re.compile(r"\b(p[ií]nta|col[oó]r[eé]a|esc[oó]nde|oc[uú]lta|mu[eé]stra|qu[ií]ta|b[oó]rra|"
                r"ac[eé]rca|al[eé]ja|ren[oó]mbra)(?:los|las)\b"), r"\1 them"),
    # "¿" and "¡" open a sentence in Spanish; the English grammar has no use for them.
    (re.compile(r"[¿¡]"), ""),
    # A new name is kept as typed: "renombra la capa Districts a Barrios".
    (re.compile(r"\b(?:renombra|renombrar|renombre|cambia el nombre de|cambiale el nombre a|"
                r"ponle de nombre a)\b(?P<what>.*?) (?:a|como|por|en) (?P<name>[^\s\"].*)$"),
     r'rename\g<what> to "\g<name>"'),
    # "muéstrame", "llévame", "acércate": the pronoun written into the verb.
    (re.compile(r"\b(muestra|lleva|ensena|dime|pon|haz|quita|da|manda)(me|nos|le|les|la|las|lo|"
                r"los)\b"), r"\1 \2"),
]  # fmt: skip
AFTER = common.NOUN_FIRST
PHRASES: dict[str, str] = {
    "muevete": "move",
    "muevete al": "move to the",
    "satelital": "satellite",
    "pon el mapa satelital": "switch to satellite",
    "pon el mapa en modo satelite": "switch to satellite",
    "modo satelite": "satellite mode",
    "usa el mapa": "switch to the map",
    "usa": "use",
    "vista satelital": "satellite view",
    "tiene mas": "has the most",
    "tienen mas": "have the most",
    "tiene menos": "has the fewest",
    "o mas": "or more",
    "o menos": "or less",
    "lleva me alli": "take me there",
    "llevame alli": "take me there",
    "entero": "",
    "entera": "",
    "todo menos": "everything except",
    "todos menos": "everything except",
    "todas menos": "everything except",
    "europeas": "european",
    "europeos": "european",
    "europea": "european",
    "europeo": "european",
    "deshaz lo ultimo": "undo",
    "lo ultimo": "the last change",
    "llevame ahi": "take me there",
    "lleva me ahi": "take me there",
    "pon el zoom en": "zoom to level",
    "pon el zoom a": "zoom to level",
    "el pais de": "the country of",
    "su pais": "its country",
    "cuantos quedan": "how many are left",
    "cuantas quedan": "how many are left",
    "quedan": "are left",
    "pinta de": "paint",
    "campo": "field",
    "del campo": "of the field",
    "las menos pobladas": "least populated",
    "los menos poblados": "least populated",
    "las mas pobladas": "most populated",
    "los mas poblados": "most populated",
    "con mas": "with the most",
    "lleva me al": "take me to the",
    "llevame al": "take me to the",
    "con menos": "with the least",
    "menos poblado": "least populated",
    "menos poblados": "least populated",
    "menos poblada": "least populated",
    "menos pobladas": "least populated",
    "niveles": "levels",
    "mayor a": "greater than",
    "menor a": "less than",
    **common.nouns("es"),
    **common.numbers({
        "cero": 0, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
        "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13,
        "catorce": 14, "quince": 15, "dieciseis": 16, "diecisiete": 17, "dieciocho": 18,
        "diecinueve": 19, "veinte": 20, "treinta": 30, "cuarenta": 40, "cincuenta": 50,
        "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90, "cien": 100,
    }),
    "millones de": "million", "millones": "million", "millon de": "million", "millon": "million",
    "mil": "thousand", "el doble": "twice", "dos veces": "twice", "la mitad": "half",
    # politeness and filler
    "por favor": "please", "porfa": "please", "porfavor": "please", "gracias": "thanks",
    "muchas gracias": "thanks", "genial": "great", "perfecto": "perfect", "vale": "ok",
    "de acuerdo": "ok", "hola": "hello", "buenos dias": "hello", "buenas": "hello",
    "puedes": "can you", "podrias": "could you", "podria": "could you", "quiero": "i want to",
    "quisiera": "i want to", "me gustaria": "i want to", "necesito": "i want to",
    "ahora": "now", "tambien": "also", "luego": "then", "despues": "then", "y luego": "then",
    "y despues": "then", "y": "and", "pero": "but", "o": "or", "un poco": "a bit",
    "un poquito": "a little", "mucho": "a lot", "bastante": "a lot", "otra vez": "again",
    "de nuevo": "again", "todo": "all", "todas": "all", "todos": "all", "solo": "only",
    "solamente": "only", "unicamente": "only", "nada mas": "only", "ayuda": "help",
    "que puedes hacer": "what can you do",
    # determiners and prepositions
    "el": "the", "la": "the", "los": "the", "las": "the", "un": "a", "una": "a", "unos": "some",
    "del": "of the", "de la": "of the", "de los": "of the", "de las": "of the", "de": "of",
    "al": "to the", "a la": "to the", "a los": "to the", "a las": "to the", "a": "to",
    "en": "in", "sobre": "over", "con": "with", "sin": "without", "para": "for", "por": "by",
    "hacia": "towards", "hasta": "to", "entre": "between", "segun": "by", "como": "as",
    "este": "this", "al este": "east", "hacia el este": "east", "el este": "the east",
    "esta": "this", "estas": "these", "esos": "those", "esas": "those",
    "ese": "that", "esa": "that", "eso": "that", "lo": "it", "la misma": "the same",
    "lo mismo": "the same", "igual": "the same", "me": "me", "nos": "us", "le": "it",
    "les": "them", "su": "their", "sus": "their", "mi": "my", "mis": "my", "ahi": "there",
    "alli": "there", "alla": "there", "aqui": "here",
    # going places
    "vuela a": "fly to", "vuela hacia": "fly to", "vuela": "fly", "volar a": "fly to",
    "ve a": "go to", "vete a": "go to", "ir a": "go to", "vamos a": "go to", "anda a": "go to",
    "lleva me a": "take me to", "lleva nos a": "take us to", "lleveme a": "take me to",
    "llevame a": "take me to", "viaja a": "go to", "navega a": "go to", "centra el mapa en":
    "center the map on", "centra en": "center on", "centra": "center", "centrate en":
    "center on", "muestra me": "show me", "muestrame": "show me", "ensena me": "show me",
    "ensename": "show me", "muestra": "show", "mostrar": "show", "ensena": "show",
    "busca": "find", "encuentra": "find", "localiza": "find", "donde esta": "where is",
    "donde queda": "where is", "quiero ver": "show me", "vuelve a": "go back to",
    "regresa a": "go back to", "volver a": "go back to",
    # zoom and camera
    "haz zoom en": "zoom to", "haz zoom a": "zoom to", "haz zoom sobre": "zoom to",
    "haz zoom": "zoom", "zoom en": "zoom to", "zoom a": "zoom to", "zoom sobre": "zoom to",
    "acerca el mapa a": "zoom to", "acercate a": "zoom to", "acerca": "zoom in",
    "acercate": "zoom in", "acercar": "zoom in", "acerca el zoom": "zoom in",
    "amplia": "zoom in", "ampliar": "zoom in", "aumenta el zoom": "zoom in", "mas zoom": "zoom in",
    "aleja": "zoom out", "alejate": "zoom out", "alejar": "zoom out", "aleja el mapa":
    "zoom out", "reduce el zoom": "zoom out", "menos zoom": "zoom out", "al nivel": "to level",
    "nivel de zoom": "zoom level", "nivel": "level", "mas cerca": "closer", "mas lejos":
    "further", "al maximo": "all the way", "rota": "rotate", "gira": "rotate", "girar":
    "rotate", "rotar": "rotate", "grados": "degrees", "grado": "degrees", "inclina": "tilt",
    "inclinar": "tilt", "inclinacion": "pitch", "en 3d": "3d", "vista 3d": "3d view",
    "en perspectiva": "perspective", "plano": "flat", "vista plana": "flat view",
    "mueve el mapa": "move the map", "mueve": "move", "desplaza el mapa": "move the map",
    "desplaza": "move", "desplazate": "move", "norte": "north", "sur": "south",
    "oeste": "west", "izquierda": "left", "derecha": "right", "arriba": "up", "abajo": "down",
    "restablece la vista": "reset the view", "restablecer la vista": "reset the view",
    "restablece": "reset", "reinicia la vista": "reset the view", "resetea": "reset",
    "vista inicial": "initial view", "vuelve al inicio": "back to the start",
    "todo el mundo": "the whole world", "el mundo entero": "the whole world",
    "mundo": "world", "vista": "view", "mapa": "map",
    # layers
    "capa": "layer", "capas": "layers", "la capa": "the layer", "las capas": "the layers",
    "que capas hay": "what layers are there", "lista las capas": "list the layers",
    "oculta": "hide", "ocultar": "hide", "ocultalos": "hide them", "ocultalas": "hide them",
    "ocultala": "hide it", "ocultalo": "hide it", "esconde": "hide", "esconder": "hide",
    "apaga": "turn off", "desactiva": "turn off", "quita": "remove", "quitar": "remove",
    "quita la": "remove the", "no muestres": "hide", "muestra de nuevo": "show again",
    "vuelve a mostrar": "show again", "vuelve a mostrarlos": "show them again",
    "vuelve a mostrarlas": "show them again", "vuelve a mostrarla": "show it again",
    "vuelve a mostrarlo": "show it again", "muestralos": "show them", "muestralas": "show them",
    "enciende": "turn on", "activa": "turn on", "elimina": "remove", "eliminar": "remove",
    "eliminala": "remove it", "eliminalas": "remove them", "borra": "delete", "borrar": "delete",
    "borralo": "delete it", "borrala": "delete it", "suprime": "delete", "renombra": "rename",
    "renombrar": "rename", "cambia el nombre de": "rename", "cambiale el nombre a": "rename",
    "llama": "call", "sube": "move up", "baja": "move down", "al frente": "to the front",
    "al fondo": "to the bottom", "arriba del todo": "to the top", "encima de": "above",
    "debajo de": "below", "por encima de": "above", "por debajo de": "below",
    "todas las capas": "all layers", "todo el mapa": "everything",
    # styles
    "colorea": "colour", "colorear": "colour", "coloreala": "colour it", "colorealas":
    "colour them", "colorealos": "colour them", "pinta": "paint", "pintar": "paint",
    "pintala": "paint it", "pintalas": "paint them", "pintalos": "paint them",
    "pon": "make", "poner": "make", "ponlas": "make them", "ponlos": "make them",
    "ponla": "make it", "ponlo": "make it", "haz": "make", "hacer": "make", "hazlas": "make them",
    "hazlos": "make them", "hazla": "make it", "hazlo": "make it", "cambia": "change",
    "cambiar": "change", "color": "colour", "de color": "", "colores": "colours",
    "estilo": "style", "mas grande": "biggest", "mas grandes": "biggest",
    "mas pequeno": "smallest", "mas pequena": "smallest", "mas pequenos": "smallest",
    "mas pequenas": "smallest", "mas gruesa": "thicker", "mas gruesas": "thicker",
    "mas grueso": "thicker", "mas gruesos": "thicker", "mas fina": "thinner", "mas finas":
    "thinner", "mas fino": "thinner", "mas finos": "thinner", "mas delgado": "thinner",
    "mas delgadas": "thinner", "mas transparente": "more transparent", "mas transparentes":
    "more transparent", "menos transparente": "more opaque", "mas opaco": "more opaque",
    "mas opacas": "more opaque", "transparente": "transparent", "transparentes":
    "transparent", "semitransparente": "semi-transparent", "opaco": "opaque",
    "opaca": "opaque", "opacidad": "opacity", "transparencia": "transparency",
    "tamano": "size", "radio": "radius", "grosor": "width", "ancho": "width",
    "clases": "classes", "categorias": "categories", "intervalos iguales": "equal intervals",
    "cuantiles": "quantile", "basado en": "based on", "en funcion de": "based on",
    "dependiendo de": "depending on", "depende de": "depend on", "dependa de": "depend on",
    "proporcional a": "proportional to", "mapa de calor": "heatmap", "ponderado por":
    "weighted by", "ponderada por": "weighted by", "etiqueta": "label", "etiquetas": "labels",
    "etiquetar": "label", "etiquetalas": "label them", "etiquetalos": "label them",
    "rotula": "label", "con sus nombres": "with their names", "con el nombre": "with the name",
    "nombres": "names", "nombre": "name",
    # basemap
    "mapa base": "basemap", "mapa de fondo": "basemap", "fondo": "background",
    "modo oscuro": "dark mode", "modo claro": "light mode", "oscuro": "dark", "oscura": "dark",
    "claro": "light", "clara": "light", "satelite": "satellite", "imagen satelital":
    "satellite imagery", "vista satelite": "satellite view", "callejero": "street map",
    "mapa de calles": "street map", "calles": "streets", "carreteras": "roads",
    "agua": "water", "mar": "sea", "oceano": "ocean", "rios": "rivers", "lagos": "lakes",
    "parques": "parks", "edificios": "buildings", "fronteras": "borders", "limites":
    "boundaries",
    # highlight
    "resalta": "highlight", "resaltar": "highlight", "destaca": "highlight", "destacar":
    "highlight", "marca": "highlight", "enmascara": "mask", "mascara": "mask",
    "resaltado": "highlight", "quita el resaltado": "remove the highlight",
    "quita la mascara": "remove the mask",
    # data
    "cuantos": "how many", "cuantas": "how many", "cuantos hay": "how many",
    "hay": "are there", "tiene": "has", "tienen": "have", "que tienen": "with",
    "que tiene": "with", "con mas de": "with more than", "mas de": "more than",
    "con menos de": "with fewer than", "menos de": "fewer than", "al menos": "at least",
    "como minimo": "at least", "como maximo": "at most", "mayor que": "greater than",
    "menor que": "less than", "superior a": "more than", "inferior a": "less than",
    "habitantes": "inhabitants", "personas": "people", "gente": "people",
    "poblacion": "population", "valor": "value", "valores": "values", "visitantes":
    "visitors", "longitud": "length", "cual es": "what is", "cuales son": "what are",
    "cual": "which", "cuales": "which", "que": "what", "dime": "tell me", "di me": "tell me",
    "campos": "fields", "atributos": "attributes", "columnas": "columns",
    "mas poblada": "most populous", "mas poblado": "most populous", "mas pobladas":
    "most populous", "mas poblados": "most populous", "mas visitado": "most visited",
    "mas visitada": "most visited", "mas visitados": "most visited", "mas visitadas":
    "most visited", "mas largo": "longest", "mas larga": "longest", "mas largos": "longest",
    "mas largas": "longest", "mas corto": "shortest", "mas corta": "shortest", "mas alto":
    "highest", "mas alta": "highest", "mas altos": "highest", "mas bajo": "lowest",
    "mas baja": "lowest", "mayor": "biggest", "mayores": "biggest", "menor": "smallest",
    "menores": "smallest", "maximo": "maximum", "maxima": "maximum", "minimo": "minimum",
    "minima": "minimum", "media": "average", "promedio": "average", "total": "total",
    "suma": "sum", "tipos": "kinds", "clases de": "kinds of", "que tipos": "what kinds",
    "que clases de": "what kinds of", "filtra": "filter", "filtrar": "filter",
    "solo muestra": "only show", "muestra solo": "show only", "muestra solamente": "show only",
    "deja solo": "only show", "quita el filtro": "remove the filter", "filtro": "filter",
    "area de influencia": "buffer", "zona de influencia": "buffer", "buffer": "buffer",
    "alrededor de": "around", "cuenta": "count", "contar": "count", "cada": "each",
    "por cada": "per", "disuelve": "dissolve", "fusiona": "merge", "une": "merge",
    "recorta": "clip", "corta": "clip", "nueva capa": "new layer", "una nueva capa":
    "a new layer", "guarda": "save", "crea": "create", "llamada": "called", "llamado":
    "called", "km": "km", "kilometros": "km", "metros": "m", "millas": "mi",
    # history
    "deshaz": "undo", "deshacer": "undo", "deshaz eso": "undo", "deshazlo": "undo",
    "rehaz": "redo", "rehacer": "redo", "rehazlo": "redo", "vuelve atras": "go back",
    "volver atras": "go back", "revierte": "revert", "anula": "undo", "ultimos": "last",
    "ultimas": "last", "ultimo": "last", "ultima": "last", "cambios": "changes",
    "cambio": "change", "veces": "times",
    # colours
    **common.colours({
        "rojo": "red", "roja": "red", "rojos": "red", "rojas": "red", "azul": "blue",
        "azules": "blue", "verde": "green", "verdes": "green", "amarillo": "yellow",
        "amarilla": "yellow", "amarillos": "yellow", "amarillas": "yellow", "naranja": "orange",
        "naranjas": "orange", "morado": "purple", "morada": "purple", "morados": "purple",
        "moradas": "purple", "violeta": "violet", "rosa": "pink", "rosado": "pink",
        "rosas": "pink", "negro": "black", "negra": "black", "negros": "black",
        "negras": "black", "blanco": "white", "blanca": "white", "blancos": "white",
        "blancas": "white", "gris": "grey", "grises": "grey", "marron": "brown",
        "marrones": "brown", "cafe": "brown", "dorado": "gold", "dorada": "gold",
        "celeste": "sky blue", "turquesa": "turquoise", "granate": "maroon",
    }, shades={"oscuro": "dark", "oscura": "dark", "oscuros": "dark", "oscuras": "dark",
               "claro": "light", "clara": "light", "claros": "light", "claras": "light",
               "mas oscuro": "darker", "mas oscura": "darker", "mas claro": "lighter",
               "mas clara": "lighter"}),
}  # fmt: skip
