"""What the four other languages share: everyday nouns of maps (so a layer called "Cities" is
found by "ciudades", "cidades", "villes" and "Städte", and the other way round), number and
colour words as tables, and the English word order their superlatives need."""

from __future__ import annotations

import re
from collections.abc import Callable

# English noun: its Spanish, Portuguese, French and German forms (singular and plural).
NOUNS: dict[str, tuple[str, str, str, str]] = {
    "city": ("ciudad", "cidade", "ville", "stadt"),
    "cities": ("ciudades", "cidades", "villes", "stadte"),
    "town": ("pueblo", "vila", "village", "ort"), "towns": ("pueblos", "vilas", "villages", "orte"),
    "district": ("distrito", "distrito", "district", "bezirk"),
    "districts": ("distritos", "distritos", "districts", "bezirke"),
    "region": ("region", "regiao", "region", "region"),
    "regions": ("regiones", "regioes", "regions", "regionen"),
    "county": ("condado", "concelho", "comte", "landkreis"),
    "counties": ("condados", "concelhos", "comtes", "landkreise"),
    "province": ("provincia", "provincia", "province", "provinz"),
    "provinces": ("provincias", "provincias", "provinces", "provinzen"),
    "country": ("pais", "pais", "pays", "land"),
    "countries": ("paises", "paises", "pays", "lander"),
    "river": ("rio", "rio", "riviere", "fluss"),
    "rivers": ("rios", "rios", "rivieres", "flusse"),
    "lake": ("lago", "lago", "lac", "see"), "lakes": ("lagos", "lagos", "lacs", "seen"),
    "road": ("carretera", "estrada", "route", "strasse"),
    "roads": ("carreteras", "estradas", "routes", "strassen"),
    "site": ("sitio", "sitio", "site", "ort"), "sites": ("sitios", "sitios", "sites", "orte"),
    "place": ("lugar", "lugar", "lieu", "platz"),
    "places": ("lugares", "lugares", "lieux", "platze"),
    "point": ("punto", "ponto", "point", "punkt"),
    "points": ("puntos", "pontos", "points", "punkte"),
    "line": ("linea", "linha", "ligne", "linie"),
    "lines": ("lineas", "linhas", "lignes", "linien"),
    "square": ("cuadrado", "quadrado", "carre", "quadrat"),
    "squares": ("cuadrados", "quadrados", "carres", "quadrate"),
    "dots": ("puntitos", "pontinhos", "ronds", "kreise"),
    "small": ("pequenos", "pequenos", "petits", "kleinen"),
    "area": ("area", "area", "zone", "gebiet"), "areas": ("areas", "areas", "zones", "gebiete"),
    "park": ("parque", "parque", "parc", "park"),
    "parks": ("parques", "parques", "parcs", "parks"),
    "school": ("escuela", "escola", "ecole", "schule"),
    "schools": ("escuelas", "escolas", "ecoles", "schulen"),
    "hospital": ("hospital", "hospital", "hopital", "krankenhaus"),
    "hospitals": ("hospitales", "hospitais", "hopitaux", "krankenhauser"),
    "station": ("estacion", "estacao", "gare", "bahnhof"),
    "stations": ("estaciones", "estacoes", "gares", "bahnhofe"),
    "airport": ("aeropuerto", "aeroporto", "aeroport", "flughafen"),
    "airports": ("aeropuertos", "aeroportos", "aeroports", "flughafen"),
    "museum": ("museo", "museu", "musee", "museum"),
    "museums": ("museos", "museus", "musees", "museen"),
    "monument": ("monumento", "monumento", "monument", "denkmal"),
    "monuments": ("monumentos", "monumentos", "monuments", "denkmaler"),
    "building": ("edificio", "edificio", "batiment", "gebaude"),
    "buildings": ("edificios", "edificios", "batiments", "gebaude"),
    "cafe": ("cafeteria", "cafe", "cafe", "cafe"),
    "cafes": ("cafeterias", "cafes", "cafes", "cafes"),
    "restaurant": ("restaurante", "restaurante", "restaurant", "restaurant"),
    "restaurants": ("restaurantes", "restaurantes", "restaurants", "restaurants"),
    "shop": ("tienda", "loja", "magasin", "geschaft"),
    "shops": ("tiendas", "lojas", "magasins", "geschafte"),
    "hotel": ("hotel", "hotel", "hotel", "hotel"),
    "hotels": ("hoteles", "hoteis", "hotels", "hotels"),
    "tree": ("arbol", "arvore", "arbre", "baum"), "trees": ("arboles", "arvores", "arbres",
                                                             "baume"),
    "route": ("ruta", "rota", "itineraire", "route"),
    "routes": ("rutas", "rotas", "itineraires", "routen"),
    "neighbourhood": ("barrio", "bairro", "quartier", "viertel"),
    "neighbourhoods": ("barrios", "bairros", "quartiers", "viertel"),
    "municipality": ("municipio", "municipio", "commune", "gemeinde"),
    "municipalities": ("municipios", "municipios", "communes", "gemeinden"),
    "capital": ("capital", "capital", "capitale", "hauptstadt"),
    "capitals": ("capitales", "capitais", "capitales", "hauptstadte"),
    "feature": ("elemento", "elemento", "entite", "objekt"),
    "features": ("elementos", "elementos", "entites", "objekte"),
    "bridge": ("puente", "ponte", "pont", "brucke"),
    "bridges": ("puentes", "pontes", "ponts", "brucken"),
    "beach": ("playa", "praia", "plage", "strand"),
    "beaches": ("playas", "praias", "plages", "strande"),
    "mountain": ("montana", "montanha", "montagne", "berg"),
    "mountains": ("montanas", "montanhas", "montagnes", "berge"),
    "forest": ("bosque", "floresta", "foret", "wald"),
    "forests": ("bosques", "florestas", "forets", "walder"),
    "customer": ("cliente", "cliente", "client", "kunde"),
    "customers": ("clientes", "clientes", "clients", "kunden"),
    "store": ("almacen", "armazem", "boutique", "laden"),
    "stores": ("almacenes", "armazens", "boutiques", "laden"),
    "earthquake": ("terremoto", "terremoto", "seisme", "erdbeben"),
    "earthquakes": ("terremotos", "terremotos", "seismes", "erdbeben"),
    "stop": ("parada", "paragem", "arret", "haltestelle"),
    "stops": ("paradas", "paragens", "arrets", "haltestellen"),
    "bakery": ("panaderia", "padaria", "boulangerie", "backerei"),
    "bakeries": ("panaderias", "padarias", "boulangeries", "backereien"),
    "bars": ("bares", "bares", "bars", "bars"),
    "pub": ("taberna", "tasca", "pub", "kneipe"), "pubs": ("tabernas", "tascas", "pubs", "kneipen"),
    "port": ("puerto", "porto", "port", "hafen"), "ports": ("puertos", "portos", "ports", "hafen"),
    # rivers, by their names in each language ("der Rhein" is the Rhine of a layer)
    "tagus": ("tajo", "tejo", "tage", "tajo"), "rhine": ("rin", "rhine", "rhin", "rhein"),
    "seine": ("sena", "sena", "seine", "seine"), "douro": ("duero", "douro", "douro", "duero"),
    "danube": ("danubio", "danubio", "danube", "donau"),
    "thames": ("tamesis", "tamisa", "tamise", "themse"),
}  # fmt: skip
ORDER = {"es": 0, "pt": 1, "fr": 2, "de": 3}

# Spanish, Portuguese and French put a superlative after its noun ("la ciudad más grande",
# "les villes les plus peuplées"): once in English, the superlative goes before the noun, as
# the English grammar reads it ("the biggest city"). Not after "make": there it is a
# comparative ("haz las ciudades más grandes": make the cities bigger).
SUPERLATIVES = (
    r"biggest|largest|smallest|most populous|least populous|most visited|least visited|"
    r"longest|shortest|highest|lowest|most popular|most populated|least populated"
)
NOUN_FIRST = [
    # "la couche des villes", "a camada de cafés": the cities layer
    (re.compile(r"\bthe layer of (?:the )?(?P<l>\w+)\b"), r"the \g<l> layer"),
    (re.compile(r"(?<!make )(?<!paint )(?<!colour )(?<!set )\bthe (?P<n>(?:\d+ )?)"
                r"(?P<noun>[a-z]+(?: [a-z]+)?) (?P<sup>" + SUPERLATIVES + r")\b"),
     r"the \g<n>\g<sup> \g<noun>"),
    # Adjectives after their noun: "la población total", "une couche nouvelle".
    (re.compile(r"\b(?!(?:the|a|an|is|of|what|and|in|for|by|with|per|my|its|their)\b)"
                r"(?P<noun>[a-z]+) (?P<adj>total|average|mean|combined|overall|maximum|minimum)\b"),
     r"\g<adj> \g<noun>"),
    (re.compile(r"\blayer (?P<adj>new|separate)\b"), r"\g<adj> layer"),
    (re.compile(r"\bthe (?P<n>\d+) last\b"), r"the last \g<n>"),  # "les deux dernières"
    # "volta a mostrá-los": show them again.
    (re.compile(r"\b(?P<verb>show|hide) again (?P<what>it|them)\b"), r"\g<verb> \g<what> again"),
    # "píntalo de rojo", "pinta-a de vermelho": paint it red.
    (re.compile(r"\b(?P<verb>paint|colou?r) (?P<what>it|them) (?:of|in) "), r"\g<verb> \g<what> "),
]  # fmt: skip


def nouns(code: str) -> dict[str, str]:
    """A language's words for the everyday nouns of maps, to English."""
    at = ORDER[code]
    words = {forms[at]: english for english, forms in NOUNS.items() if forms[at] != english}
    if code == "de":  # the dative plural: "mit den Städten", "in den Bezirken"
        words |= {
            f"{form}n": english for form, english in list(words.items())
            if english.endswith("s") and not form.endswith(("n", "s"))
        }  # fmt: skip
    return words


# Who lives where ("las ciudades españolas", "die deutschen Städte"): the masculine singular,
# folded; `people` inflects it.
PEOPLE: dict[str, tuple[str, str, str, str]] = {
    "german": ("aleman", "alemao", "allemand", "deutsch"),
    "french": ("frances", "frances", "francais", "franzosisch"),
    "spanish": ("espanol", "espanhol", "espagnol", "spanisch"),
    "portuguese": ("portugues", "portugues", "portugais", "portugiesisch"),
    "italian": ("italiano", "italiano", "italien", "italienisch"),
    "british": ("britanico", "britanico", "britannique", "britisch"),
    "english": ("ingles", "ingles", "anglais", "englisch"),
    "american": ("estadounidense", "americano", "americain", "amerikanisch"),
    "brazilian": ("brasileno", "brasileiro", "bresilien", "brasilianisch"),
    "mexican": ("mexicano", "mexicano", "mexicain", "mexikanisch"),
    "argentine": ("argentino", "argentino", "argentin", "argentinisch"),
    "canadian": ("canadiense", "canadiano", "canadien", "kanadisch"),
    "japanese": ("japones", "japones", "japonais", "japanisch"),
    "chinese": ("chino", "chines", "chinois", "chinesisch"),
    "indian": ("indio", "indiano", "indien", "indisch"),
    "russian": ("ruso", "russo", "russe", "russisch"),
    "dutch": ("neerlandes", "holandes", "neerlandais", "niederlandisch"),
    "belgian": ("belga", "belga", "belge", "belgisch"),
    "swiss": ("suizo", "suico", "suisse", "schweizer"),
    "austrian": ("austriaco", "austriaco", "autrichien", "osterreichisch"),
    "greek": ("griego", "grego", "grec", "griechisch"),
    "turkish": ("turco", "turco", "turc", "turkisch"),
    "egyptian": ("egipcio", "egipcio", "egyptien", "agyptisch"),
    "australian": ("australiano", "australiano", "australien", "australisch"),
    "polish": ("polaco", "polaco", "polonais", "polnisch"),
    "swedish": ("sueco", "sueco", "suedois", "schwedisch"),
    "nigerian": ("nigeriano", "nigeriano", "nigerian", "nigerianisch"),
    "korean": ("coreano", "coreano", "coreen", "koreanisch"),
    "moroccan": ("marroqui", "marroquino", "marocain", "marokkanisch"),
}  # fmt: skip


def people(code: str) -> dict[str, str]:
    """A language's words for the people of countries, each inflected, to English."""
    words: dict[str, str] = {}
    for english, forms in PEOPLE.items():
        word = forms[ORDER[code]]
        for form in _inflected(code, word):
            words[form] = english
    return words


def _inflected(code: str, word: str) -> list[str]:
    """A masculine singular with its feminine and plurals (as folded text writes them)."""
    if code == "de":
        endings = ("",) if word.endswith("er") else ("", "e", "en", "er", "es")
        return [word + end for end in endings]
    if code == "fr":
        if word.endswith(("ais", "ois")):
            return [word, word + "e", word + "es"]
        if word.endswith("en"):
            return [word, word + "ne", word + "s", word + "nes"]
        if word.endswith("e"):
            return [word, word + "s"]
        if word.endswith("c"):  # grec, turc
            return [word, word + "s", word[:-1] + "que", word[:-1] + "ques"]
        return [word, word + "e", word + "s", word + "es"]
    if code == "pt" and word.endswith("ao"):  # alemão, alemã, alemães, alemãs
        return [word, word[:-1], word[:-1] + "es", word[:-1] + "s"]
    if word.endswith("o"):
        return [word, word[:-1] + "a", word + "s", word[:-1] + "as"]
    if word.endswith(("e", "a", "i")):
        return [word, word + "s", word + "es"]
    if code == "pt" and word.endswith("l"):  # espanhol, espanhóis
        return [word, word + "a", word[:-1] + "is", word + "as"]
    return [word, word + "a", word + "es", word + "as"]


def numbers(
    words: dict[str, int], compound: Callable[[str, str], str] | None = None
) -> dict[str, str]:
    """Number words, as digits; with `compound`, which writes a ten and a unit as one number
    ("cuarenta y cinco"), every number from 21 to 99 too."""
    found = {word: str(value) for word, value in words.items()}
    if compound is not None:
        units: dict[int, str] = {}
        for word, value in words.items():
            units.setdefault(value, word)
        for ten in range(20, 100, 10):
            for unit in range(1, 10):
                if ten in units:
                    found.setdefault(compound(units[ten], units[unit]), str(ten + unit))
    return found


def colours(names: dict[str, str], shades: dict[str, str]) -> dict[str, str]:
    """Colour words, and each colour with a shade after it ("azul oscuro": dark blue)."""
    found = dict(names)
    for name, english in names.items():
        for shade, shade_english in shades.items():
            found[f"{name} {shade}"] = f"{shade_english} {english}"
    return found
