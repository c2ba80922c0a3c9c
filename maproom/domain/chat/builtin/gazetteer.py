"""Places by name, offline: countries, first-level regions and cities, with where to look.

The data ships with the package in `places.tsv.gz` (built by `scripts/build_places.py`; sources
and licences in docs/chat.md). One row per place:

    kind  code  name  aliases  country  region  lng  lat  west  south  east  north  population
    capital  alternates

`kind` is `C` (country: ISO alpha-2 code), `R` (first-level region: ISO 3166-2 code; or a
group of them such as Tuscany or Scotland, whose `region` lists their codes joined by `+`), `T`
(town: a GeoNames id) or `A` (area: a continent, world region or sea, country if within one);
`aliases` are `|`-separated; a town's `region` is its region's code; all but towns have a box;
a country names its capital. `aliases` are names people use
(curated, or Natural Earth's); `alternates` (GeoNames' alternate names of towns) are used only
when no name or alias fits, since they hold names that belong to other places in other
languages ("Porto" is an alternate name of Bordeaux).

Landmarks ("the Eiffel Tower", "Cristo Redentor") come from the hand-written table of
`landmarks.py`, by their names in every language; one named exactly comes before a place of
that name.

`find(text)` reads what people type: a name or alias in any case and without accents
("sao paulo", "nyc"), with typos ("Pars", by fuzzy matching with `rapidfuzz` among names of
the same first letter, and only of countries, regions and towns of `FUZZY_TOWNS` people or
more: "Narnia" is not a typo of Narni), qualified ("Paris, Texas", "Springfield in Illinois",
"Portland Maine", "Cambridge, UK") or as "the capital of Italy". It answers every candidate
that fits, best first, and whether the best is clear: the most populous place of that name
wins unless another has at least half its population, or is a capital with at least a sixth
(then the agent asks: "San José" may be California's or Costa Rica's). A town that
shares its name with a region or with the country it is in beats them ("New York", "Paris",
"Luxembourg"): that is what people mean.
"""

from __future__ import annotations

import functools
import gzip
import math
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from maproom.domain.chat.builtin.landmarks import LANDMARKS

DATA = "places.tsv.gz"
NAMES = "place_names.tsv.gz"  # names in other languages (scripts/build_place_names.py)
# The nations of the United Kingdom (regions made of regions, which no source names in the
# other languages), as `place_names.tsv.gz` writes names.
NATIONS = """
es\tGB-G-ENGLAND\tInglaterra
pt\tGB-G-ENGLAND\tInglaterra
fr\tGB-G-ENGLAND\tAngleterre
es\tGB-G-SCOTLAND\tEscocia
pt\tGB-G-SCOTLAND\tEscócia
fr\tGB-G-SCOTLAND\tÉcosse
de\tGB-G-SCOTLAND\tSchottland
es\tGB-G-WALES\tGales|País de Gales
pt\tGB-G-WALES\tGales|País de Gales
fr\tGB-G-WALES\tPays de Galles
es\tGB-G-NORTHERN-IRELAND\tIrlanda del Norte
pt\tGB-G-NORTHERN-IRELAND\tIrlanda do Norte
fr\tGB-G-NORTHERN-IRELAND\tIrlande du Nord
de\tGB-G-NORTHERN-IRELAND\tNordirland
"""
# The countries where each language of the agent is spoken (a town of one, named in it, is
# what a speaker of that language means before another place's name in their language).
SPOKEN_IN = {
    code: frozenset(countries.split())
    for code, countries in (
        ("es", "ES MX AR CO PE VE CL EC GT CU BO DO HN PY SV NI CR PA UY PR GQ"),
        ("pt", "PT BR AO MZ GW CV ST TL"),
        ("fr", "FR BE CH LU MC CA SN CI ML BF NE TD GN CM CD CG GA BJ TG MG HT"),
        ("de", "DE AT CH LI LU"),
    )
}
EXONYM_WINS = 10  # a name of another language beats a place of that name this much smaller
CLOSE = 2.0  # a runner-up with more than 1/CLOSE of the best's population makes it unclear
CAPITAL = 3  # a capital counts this many times its population as a runner-up
FUZZY_CUTOFF = 86.0
FAMOUS = 1_000_000  # a six-letter name one edit away is read as a place this big
FUZZY_TOWNS = 50_000  # towns smaller than this are found by their exact names only
# A town this big called by the first word of its name ("Santiago" for Santiago de Querétaro)
# makes that word ambiguous.
LONG_FORM = 1_000_000
KIND_NAMES = {"C": "country", "R": "region", "T": "city", "A": "area"}


@dataclass(frozen=True, slots=True)
class Place:
    """A place and where to look at it."""

    kind: str  # "country", "region", "city", "area" (a continent, world region or sea) or
    # "landmark" (`landmarks.py`)
    code: str
    name: str
    country: str  # ISO alpha-2
    country_name: str
    region: str  # region code ("US-CA"); a group's unit codes joined by "+"; "" for countries
    region_name: str
    lng: float
    lat: float
    box: tuple[float, float, float, float] | None
    population: int

    @property
    def label(self) -> str:
        """How a reply names it: "Paris, France", "Springfield, Illinois, United States"."""
        parts = [self.name]
        if self.kind == "city" and self.region_name and self.country in AMBIGUOUS_REGIONS:
            parts.append(self.region_name)
        if self.kind not in ("country", "area"):
            parts.append(self.country_name)
        return ", ".join(dict.fromkeys(part for part in parts if part))


def as_json(place: Place) -> dict[str, Any]:
    """A place as the memory and a question's choices keep it."""
    return {
        "kind": place.kind, "code": place.code, "name": place.name, "country": place.country,
        "country_name": place.country_name, "region": place.region,
        "region_name": place.region_name, "lng": place.lng, "lat": place.lat,
        "box": list(place.box) if place.box else None, "population": place.population,
    }  # fmt: skip


# Countries whose towns people tell apart by region ("Springfield, Illinois").
AMBIGUOUS_REGIONS = frozenset({"US", "CA", "AU", "IN", "BR", "CN", "DE", "MX", "GB"})


# What a country's people and things are called, for answers such as "the Spanish one".
DEMONYMS = {
    "american": "united states", "us": "united states", "usa": "united states",
    "british": "united kingdom", "english": "united kingdom", "scottish": "united kingdom",
    "welsh": "united kingdom", "uk": "united kingdom", "irish": "ireland", "french": "france",
    "german": "germany", "italian": "italy", "spanish": "spain", "portuguese": "portugal",
    "dutch": "netherlands", "belgian": "belgium", "swiss": "switzerland",
    "austrian": "austria", "swedish": "sweden", "norwegian": "norway", "danish": "denmark",
    "finnish": "finland", "polish": "poland", "czech": "czechia", "greek": "greece",
    "turkish": "turkey", "russian": "russia", "ukrainian": "ukraine", "canadian": "canada",
    "mexican": "mexico", "brazilian": "brazil", "argentine": "argentina",
    "argentinian": "argentina", "chilean": "chile", "colombian": "colombia",
    "venezuelan": "venezuela", "peruvian": "peru", "cuban": "cuba", "costa rican": "costa rica",
    "filipino": "philippines", "philippine": "philippines", "australian": "australia",
    "kiwi": "new zealand", "indian": "india", "pakistani": "pakistan", "chinese": "china",
    "japanese": "japan", "korean": "korea", "vietnamese": "vietnam", "thai": "thailand",
    "indonesian": "indonesia", "malaysian": "malaysia", "egyptian": "egypt",
    "moroccan": "morocco", "nigerian": "nigeria", "kenyan": "kenya",
    "south african": "south africa", "israeli": "israel", "iranian": "iran",
    "iraqi": "iraq", "saudi": "saudi arabia", "hungarian": "hungary", "romanian": "romania",
    "bulgarian": "bulgaria", "serbian": "serbia", "croatian": "croatia",
    "texan": "texas", "californian": "california", "floridian": "florida",
}  # fmt: skip


@dataclass
class Found:
    """What a name may mean: candidates best first, and whether the best is clear."""

    candidates: list[Place] = field(default_factory=list)
    clear: bool = False
    fuzzy: bool = False

    @property
    def best(self) -> Place | None:
        """The best candidate, if any."""
        return self.candidates[0] if self.candidates else None

    @property
    def sure(self) -> Place | None:
        """The best candidate when it is clear which is meant."""
        return self.candidates[0] if self.clear and self.candidates else None


def fold(text: str) -> str:
    """A name as looked up: lower case, no accents, punctuation as spaces, no leading "the"."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^\w]+", " ", text).strip()
    text = re.sub(r"^(?:the|city of|town of|state of|province of|republic of|l|d) ", "", text)
    return re.sub(r"\bsaint\b", "st", text)


# Little words that join the words of a name but neither begin nor end one.
ARTICLES = frozenset({"la", "le", "les", "el", "los", "las", "il", "the", "o", "a", "os", "as",
                      "der", "die", "das"})  # fmt: skip
JOINS = frozenset({"de", "da", "do", "du", "di", "del", "von", "of", "y", "e", "et", "und", "en",
                   "em", "a", "au", "and"})  # fmt: skip


class Gazetteer:
    """Every place of the data file, indexed by folded name and alias."""

    def __init__(
        self,
        places: list[Place],
        names: dict[str, list[int]],
        alternates: dict[str, list[int]],
        capitals: dict[str, str],
    ) -> None:
        self.places = places
        self._names = names
        self._alternates = alternates
        self._by_letter: dict[str, list[str]] = defaultdict(list)
        for name in names:
            self._by_letter[name[0]].append(name)
        self._countries = {p.code: p for p in places if p.kind == "country"}
        self._regions: dict[str, set[str]] = defaultdict(set)  # folded name or code → codes
        for p in places:
            if p.kind == "region":
                units = p.region.split("+") if "+" in p.region else [p.code]
                self._regions[fold(p.name)].update(units)
                self._regions[p.code.split("-")[-1].lower()].update(units)
        self._capitals = capitals
        # "santiago": Santiago de los Caballeros, Santiago de Querétaro (`LONG_FORM`)
        self._long_forms: dict[str, list[int]] = defaultdict(list)
        for i, p in enumerate(places):
            short = re.match(r"(.+?) (?:de|del|do|da|dos|das|di) ", fold(p.name))
            if p.kind == "city" and p.population >= LONG_FORM and short:
                self._long_forms[short.group(1)].append(i)
        self._local: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        self._exonyms: dict[str, list[int]] = defaultdict(list)
        self._named_in: dict[str, dict[str, str]] = defaultdict(dict)  # language → code → name

    @classmethod
    @functools.cache
    def load(cls) -> Gazetteer:
        """The packaged data (read once, about half a second)."""
        files = resources.files(__package__)
        gazetteer = cls.parse(gzip.decompress(files.joinpath(DATA).read_bytes()).decode("utf-8"))
        names = gzip.decompress(files.joinpath(NAMES).read_bytes()).decode("utf-8")
        gazetteer.add_names(names + NATIONS)
        gazetteer.add_landmarks(LANDMARKS)
        return gazetteer

    def add_landmarks(self, landmarks: list[tuple[str, str, str, float, float]]) -> None:
        """Landmarks by their names in every language (`landmarks.py`)."""
        for name, aliases, country, lng, lat in landmarks:
            at = len(self.places)
            self.places.append(Place(
                "landmark", f"landmark:{fold(name)}", name, country,
                self._countries[country].name if country in self._countries else country,
                "", "", lng, lat, None, 0,
            ))  # fmt: skip
            for spelling in {fold(n) for n in [name, *aliases.split("|")] if n}:
                if spelling not in self._names:
                    self._by_letter[spelling[0]].append(spelling)
                self._names.setdefault(spelling, []).append(at)

    def add_names(self, text: str) -> None:
        """Names in other languages (`place_names.tsv.gz`, see the module docstring)."""
        index = {place.code: i for i, place in enumerate(self.places)}
        for line in text.splitlines():
            if not line or line[0] == "#":
                continue
            language, code, names = line.split("\t")
            if code not in index:
                continue
            table = self._exonyms if language == "*" else self._local[language]
            if language != "*":
                self._named_in[language][code] = names.split("|")[0]
            for spelling in {fold(name) for name in names.split("|")}:
                if spelling:
                    table[spelling].append(index[code])

    @classmethod
    def parse(cls, text: str) -> Gazetteer:
        """A gazetteer from the data file's text (see the module docstring)."""
        rows = [line.split("\t") for line in text.splitlines() if line and line[0] != "#"]
        country_names = {r[1]: r[2] for r in rows if r[0] == "C"}
        region_names = {r[1]: r[2] for r in rows if r[0] == "R"}
        places: list[Place] = []
        names: dict[str, list[int]] = defaultdict(list)
        alternates: dict[str, list[int]] = defaultdict(list)
        capitals: dict[str, str] = {}
        for kind, code, name, aliases, country, region, *numbers, capital, others in rows:
            lng, lat, west, south, east, north, population = numbers
            if capital:
                capitals[code] = capital
            for spelling in {fold(a) for a in others.split("|") if a}:
                alternates[spelling].append(len(places))
            box = (float(west), float(south), float(east), float(north)) if west else None
            place = Place(
                KIND_NAMES[kind], code, name, country, country_names.get(country, country),
                region, region_names.get(region, ""), float(lng), float(lat), box,
                int(population or 0),
            )  # fmt: skip
            for spelling in {fold(name), *(fold(a) for a in aliases.split("|") if a)}:
                if spelling:
                    names[spelling].append(len(places))
            places.append(place)
        return cls(places, dict(names), dict(alternates), capitals)

    def country(self, text: str) -> Place | None:
        """A country by code, name or alias."""
        if text.strip().upper() in self._countries:
            return self._countries[text.strip().upper()]
        query = fold(text)
        # a town's name may be a country's in another language ("Franca", Brazil: França)
        indices = [*self._names.get(query, ()), *self._any_language(query)]
        return next((p for p in (self.places[i] for i in indices) if p.kind == "country"), None)

    def find(self, text: str, *, fuzzy: bool = True, language: str = "en") -> Found:
        """What `text` may name (see the module docstring), in a message of this language."""
        query = fold(text)
        if not query:
            return Found()
        capital = re.fullmatch(r"capital(?: city)? of (.+)", query)
        if capital:
            return self._capital(capital.group(1))
        if query in self._names or query in self._local.get(language, {}):
            return self._named(query, False, language)
        bare = ARTICLE.sub("", query)  # "la torre eiffel", "o cristo redentor"
        if bare != query and bare in self._names:
            return self._named(bare, False, language)
        qualified = QUALIFIED.fullmatch(text.strip()) or _last_words(text.strip())
        if qualified:
            for inside in self._inside(qualified.group("within")):
                found = self._named(fold(qualified.group("name")), fuzzy, language)
                kept = [p for p in found.candidates if inside(p)]
                if kept:
                    return self._rank(kept, found.fuzzy)
            # "the Colosseum in Rome": a landmark named with its town
            name = re.sub(r"^the ", "", fold(qualified.group("name")))
            landmark = self._named(name, False, language)
            if landmark.candidates and landmark.candidates[0].kind == "landmark":
                return landmark
        return self._named(query, fuzzy, language)

    def _named(self, query: str, fuzzy: bool, language: str = "en") -> Found:
        local = self._local.get(language, {}).get(query)
        if local:  # "Chine" in French, "Alemania" in Spanish
            places = [self.places[i] for i in local]
            # "Nueva York", "Sevilla" name a region in Spanish, and a city in every language:
            # the city stands for the region, as in English
            towns = [self.places[i] for i in (*self._names.get(query, ()),
                                              *self._exonyms.get(query, ()))]  # fmt: skip
            places += [t for t in towns if t.kind == "city" and any(_lies_in(t, p) for p in places)]
            # "Granada" in Spanish is Grenada, and a city of Spain: the city speaks it too
            places += [t for t in towns if t.kind == "city" and t not in places
                       and t.country in SPOKEN_IN.get(language, ())]  # fmt: skip
            return self._rank(places, False)
        exact = self._names.get(query)
        exonyms = self._exonyms.get(query)
        if exact and exonyms and _largest(exonyms, self) >= EXONYM_WINS * _largest(exact, self):
            exact = exonyms  # "Pekin" is Beijing before it is Pekin, Illinois
        exact = exact or self._alternates.get(query) or exonyms or self._any_language(query)
        if exact:
            found = self._rank([self.places[i] for i in exact], False)
            longer = [self.places[i] for i in self._long_forms.get(query, ())
                      if self.places[i] not in found.candidates]  # fmt: skip
            if longer and found.clear and found.candidates[0].kind == "city":
                return Found([found.candidates[0], *longer], clear=False)
            return found
        if not fuzzy or len(query) < 4:
            return Found()
        names = self._by_letter.get(query[0], [])
        scores = {
            name: score
            for name, score, _ in process.extract(
                query, names, scorer=fuzz.ratio, limit=8, score_cutoff=FUZZY_CUTOFF
            )
        }
        # A slip of the keys ("Germnay", "Austrailia") scores low on `ratio` in a short name;
        # in names of six letters one edit is read only as a famous place ("moskow": Moscow, but
        # "Mordor" is not Mordov), in shorter ones never ("Pars" is not Pará).
        if len(query) >= 6:
            for name, edits, _ in process.extract(
                query, names, scorer=OSA.distance, limit=8, score_cutoff=1 if len(query) < 9 else 2
            ):
                if len(query) >= 7 or self._famous(name):
                    scores[name] = max(scores.get(name, 0.0), 100.0 - 7 * edits)
        if not scores:
            return Found()
        top = max(scores.values())
        spelled = [name for name, score in scores.items() if score >= top - 2]
        # A misspelling is read as a place people know: a country, a region or a large town.
        known = [
            self.places[i]
            for name in spelled
            for i in self._names[name]
            if self.places[i].kind != "city" or self.places[i].population >= FUZZY_TOWNS
        ]
        return self._rank(known, True) if known else Found()

    def names_in(
        self,
        text: str,
        avoid: frozenset[str] = frozenset(),
        gloss: Callable[[str], str] = lambda word: word,
    ) -> set[str]:
        """The folded words of the names of two to four words a message holds that are the
        names of countries, regions or towns of `FUZZY_TOWNS` people ("rio de janeiro"), so
        that telling its language does not count them; a message of one word, if it is the
        name of a country or a town of `FAMOUS` people ("Rio"). A name with a word whose
        English (`gloss`) is in `avoid` (a layer's) counts only if the place is famous."""
        words, typed = fold(text).split(), text.split()
        found: set[str] = set()
        if len(words) == 1 and self._famous(words[0]):
            return set(words)
        for size in (4, 3, 2):
            for start in range(len(words) - size + 1):
                name = " ".join(words[start : start + size])
                if all(len(word) < 4 for word in words[start : start + size]):
                    continue  # "a la" names a hamlet, but it is French for "to the"
                lower = not any(word[:1].isupper() for word in typed[start : start + size])
                if words[start] in JOINS or words[start + size - 1] in JOINS:
                    continue  # "de moins de 5000": an other-language name of Des Moines
                places = [*self._names.get(name, ()), *self._exonyms.get(name, ()),
                          *self._any_language(name)]  # fmt: skip
                if any(gloss(word) in avoid for word in words[start : start + size]) and not any(
                    self.places[i].population >= FAMOUS for i in places
                ):
                    continue  # "los rios" (a region) is "the rivers" of a layer
                if (
                    lower
                    and words[start] in ARTICLES
                    and not any(self.places[i].population >= FAMOUS for i in places)
                ):
                    continue  # "la réunion de demain" is a meeting, not La Réunion
                if any(
                    self.places[i].kind != "city" or self.places[i].population >= FUZZY_TOWNS
                    for i in places
                ):
                    found.update(words[start : start + size])
        return found

    def label(self, place: Place, language: str = "en") -> str:
        """How a reply in a language names a place: `Place.label` with the names of the
        place, its region and its country in that language where the data has them."""
        names = self._named_in.get(language, {})
        local = replace(
            place,
            name=names.get(place.code, place.name),
            region_name=names.get(place.region, place.region_name),
            country_name=names.get(place.country, place.country_name),
        )
        return local.label

    def _any_language(self, query: str) -> list[int]:
        return [i for table in self._local.values() for i in table.get(query, ())]

    def languages_of(self, text: str) -> dict[str, int]:
        """How many names of places of one, two or three words in a message are names in
        each language other than English ("Alemania": es), for telling its language."""
        words = fold(text).split()
        # who writes names with capitals means no name by a word in lower case ("Frame
        # Greece for our island-hopping campaign": no German "Island")
        typed = re.sub(r"[^\w]+", " ", text).split()
        capitals = any(ch.isupper() for ch in text) and len(typed) == len(words)
        found: dict[str, int] = defaultdict(int)
        for size in (1, 2, 3):
            for start in range(len(words) - size + 1):
                name = " ".join(words[start : start + size])
                if name in self._names or (capitals and typed[start].islower()):
                    continue
                for language, table in self._local.items():
                    if name in table:
                        found[language] += 1
        return dict(found)

    def _famous(self, name: str) -> bool:
        """Whether a name is a country's, or a region's or town's of a million people."""
        return any(
            self.places[i].kind == "country" or self.places[i].population >= FAMOUS
            for i in self._names.get(name, ())
        )

    def country_near(self, lng: float, lat: float) -> Place | None:
        """The country of the nearest town (within about 100 km): where a feature of the
        user's data lies ("highlight its country"). A scan of the towns, done only when asked."""
        best, near = None, 1.0  # squared degrees, about 100 km
        scale = math.cos(math.radians(lat)) ** 2
        for place in self.places:
            if place.kind == "city":
                far = (place.lng - lng) ** 2 * scale + (place.lat - lat) ** 2
                if far < near:
                    best, near = place, far
        return self.country(best.country) if best is not None else None

    def within(self, place: Place, area: Place) -> bool:
        """Whether a place lies in an area: its country, its region (or a group of regions,
        "England"), or the area's box."""
        if area.kind == "country":
            return place.country == area.code and place is not area
        units = set(area.region.split("+")) if area.kind == "region" else set()
        if place.region and units:
            return set(place.region.split("+")) <= units and place is not area
        west, south, east, north = area.box or (0.0, 0.0, -1.0, -1.0)
        return west <= place.lng <= east and south <= place.lat <= north

    def _inside(self, qualifier: str) -> list[Callable[[Place], bool]]:
        """Tests for places inside the country, then the region, a qualifier names ("MA" is
        Morocco's code and Massachusetts': "Cambridge MA" is in the region)."""
        tests: list[Callable[[Place], bool]] = []
        folded = fold(qualifier)
        if not folded:
            return tests
        country = self.country(qualifier)
        if country is not None:
            tests.append(lambda p: p.country == country.code and p is not country)
        codes = self._regions.get(folded)
        if codes:
            tests.append(lambda p: p.region in codes or p.code in codes)
        for index in self._names.get(re.sub(r"^the ", "", folded), ()):
            area = self.places[index]  # "Lagos in the Algarve": a town in the area's box
            if area.kind == "area" and area.box is not None:
                tests.append(functools.partial(_town_in, box=area.box))
        return tests

    def _rank(self, candidates: list[Place], fuzzy: bool) -> Found:
        """Best first. A town stands for a same-named region ("New York") or country
        ("Luxembourg", then with the country's population) of its country; an area ("Europe",
        "the Middle East") comes before anything else of its name. A runner-up that is its
        country's capital counts `CAPITAL` times its population when telling whether the best
        is clear ("San José": San Jose, California or the capital of Costa Rica)."""
        unique = list(dict.fromkeys(candidates))
        towns = [p for p in unique if p.kind == "city"]
        weight = {p: p.population for p in unique}
        kept = []
        for place in unique:
            within = [t for t in towns if _lies_in(t, place)]
            if not within:
                kept.append(place)
            elif place.kind == "country":
                weight[within[0]] = max(weight[within[0]], place.population)
        kept.sort(key=lambda p: (p.kind != "area", p.kind != "landmark", -weight[p]))
        if len(kept) < 2 or kept[0].kind in ("area", "landmark"):
            return Found(kept, clear=bool(kept), fuzzy=fuzzy)
        second = kept[1]
        capital = second.kind == "city" and fold(self._capitals.get(second.country, "")) == fold(
            second.name
        )
        clear = weight[second] * CLOSE * (CAPITAL if capital else 1) < weight[kept[0]]
        return Found(kept, clear=clear, fuzzy=fuzzy)

    def _capital(self, country_text: str) -> Found:
        country = self.country(country_text)
        capital = self._capitals.get(country.code) if country is not None else None
        if country is None or not capital:
            return Found()
        towns = [
            self.places[i]
            for i in self._names.get(fold(capital), ())
            if self.places[i].country == country.code and self.places[i].kind == "city"
        ]
        return Found(sorted(towns, key=lambda p: -p.population)[:1], clear=bool(towns))


ARTICLE = re.compile(r"^(?:el|la|los|las|o|a|os|as|le|les|der|die|das|den|dem) ")
QUALIFIED = re.compile(r"(?P<name>.+?)(?:\s*,\s*|\s+in\s+)(?P<within>[^,]+)")


def _last_words(text: str) -> re.Match[str] | None:
    """ "Portland Maine": the last one or two words as a qualifier, when there are more."""
    return re.fullmatch(r"(?P<name>.+?)\s+(?P<within>\S+(?:\s\S+)?)", text)


def _largest(indices: list[int], gazetteer: Gazetteer) -> int:
    return max(gazetteer.places[i].population for i in indices)


def _town_in(place: Place, box: tuple[float, float, float, float]) -> bool:
    """Whether a place is a town whose point lies in a box (west, south, east, north)."""
    return place.kind == "city" and box[0] <= place.lng <= box[2] and box[1] <= place.lat <= box[3]


def _lies_in(town: Place, place: Place) -> bool:
    """Whether a town stands for a country or region of its name: one of its country (the
    city of Buenos Aires is not in Buenos Aires province, but that is whom people mean)."""
    return place.kind in ("country", "region") and town.country == place.country
