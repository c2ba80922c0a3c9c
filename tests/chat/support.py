"""What the chat tests share: a project with three layers, turns over HTTP, and checks of the
resulting project state (not of how the agent parsed the message)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import httpx

Check = Callable[[dict[str, Any]], None]

CAFES = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [-9.14 + i * 0.01, 38.72 + i * 0.005]},
            "properties": {
                "name": f"Cafe {i}",
                "rating": i % 5,
                "kind": ["bakery", "bar", "cafe"][i % 3],
            },
        }
        for i in range(12)
    ],
}
COUNTIES = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "geometry": {
                "type": "Polygon",
                "coordinates": [[[i, 40], [i + 1, 40], [i + 1, 41], [i, 41], [i, 40]]],
            },
            "properties": {
                "county": f"County {i}",
                "population": (i + 1) * 1000,
                "state": "AB"[i % 2],
            },
        }
        for i in range(8)
    ],
}
RIVERS = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": [[i, 45], [i + 1, 46]]},
            "properties": {"river": f"River {i}", "length": i * 10},
        }
        for i in range(4)
    ],
}
LAYERS = [
    ("cafes", "Cafes", CAFES),
    ("counties", "Counties", COUNTIES),
    ("rivers", "Rivers", RIVERS),
]


async def project_with_layers(api: httpx.AsyncClient) -> str:
    """A project with Cafes (points), Counties (polygons) and Rivers (lines); Rivers on top."""
    project = (await api.post("/api/v1/sessions", json={"title": "chat"})).json()["id"]
    actions = [
        {"type": "add_geojson_layer", "layer_id": ref, "name": name, "geojson": data}
        for ref, name, data in LAYERS
    ]
    response = await api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": actions})
    assert response.status_code == 200, response.text
    return str(project)


async def chat(api: httpx.AsyncClient, project: str, message: str) -> dict[str, Any]:
    response = await api.post(f"/api/v1/sessions/{project}/chat", json={"message": message})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def answer(api: httpx.AsyncClient, project: str, question: str, text: str) -> dict[str, Any]:
    response = await api.post(
        f"/api/v1/sessions/{project}/ask/respond", json={"questionId": question, "answer": text}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


async def state(api: httpx.AsyncClient, project: str) -> dict[str, Any]:
    """`{"mapState", "layers": {name: detail}}` of a project."""
    body = (await api.get(f"/api/v1/sessions/{project}/map")).json()
    return {
        "mapState": body["mapState"],
        "layers": {layer["name"]: layer for layer in body["layers"]},
    }


def km(a: list[float], b: tuple[float, float]) -> float:
    """Great-circle distance in kilometres."""
    lng1, lat1, lng2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    )
    return 6371 * 2 * math.asin(math.sqrt(h))


def near(
    lng: float, lat: float, within: float = 60, zoom: tuple[float, float] | None = None
) -> Check:
    def check(s: dict[str, Any]) -> None:
        center = s["mapState"]["center"]
        assert km(center, (lng, lat)) <= within, f"center {center} is not within {within} km"
        if zoom is not None:
            assert zoom[0] <= s["mapState"]["zoom"] <= zoom[1], s["mapState"]["zoom"]

    return check


def zoom(low: float, high: float) -> Check:
    def check(s: dict[str, Any]) -> None:
        assert low <= s["mapState"]["zoom"] <= high, s["mapState"]["zoom"]

    return check


def basemap(style: str) -> Check:
    def check(s: dict[str, Any]) -> None:
        assert s["mapState"]["basemap"]["style"] == style, s["mapState"]["basemap"]

    return check


def category(key: str, **expected: Any) -> Check:
    def check(s: dict[str, Any]) -> None:
        entry = s["mapState"]["basemap"]["categories"].get(key, {})
        for name, value in expected.items():
            assert entry.get(name) == value, s["mapState"]["basemap"]

    return check


def mask(code: str | None) -> Check:
    def check(s: dict[str, Any]) -> None:
        found = s["mapState"]["countryMask"]
        if code is None:
            assert found is None, found
        else:
            assert found is not None and found["countryCode"] == code, found

    return check


def visible(**layers: bool) -> Check:
    def check(s: dict[str, Any]) -> None:
        for name, shown in layers.items():
            assert s["layers"][name.capitalize()]["visible"] is shown, (name, shown)

    return check


def renderer(layer: str, kind: str, **expected: Any) -> Check:
    def check(s: dict[str, Any]) -> None:
        found = s["layers"][layer]["style"]["renderer"]
        assert found["type"] == kind, found
        for name, value in expected.items():
            assert found.get(name) == value, (name, found.get(name))

    return check


def paint(layer: str, key: str, test: Callable[[Any], bool]) -> Check:
    def check(s: dict[str, Any]) -> None:
        value = s["layers"][layer]["style"]["renderer"].get("paint", {}).get(key)
        assert test(value), (layer, key, value)

    return check


def names(*expected: str) -> Check:
    def check(s: dict[str, Any]) -> None:
        assert list(s["layers"]) == list(expected), list(s["layers"])

    return check


def _square(lng: float, lat: float, size: float = 0.1) -> dict[str, Any]:
    ring = [[lng, lat], [lng + size, lat], [lng + size, lat + size], [lng, lat + size], [lng, lat]]
    return {"type": "Polygon", "coordinates": [ring]}


def _collection(rows: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    return {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "geometry": geometry, "properties": properties}
            for geometry, properties in rows
        ],
    }


# (name, country, population, capital, lng, lat)
_CITIES = [
    ("Tokyo", "Japan", 37_400_000, True, 139.69, 35.69),
    ("Delhi", "India", 31_000_000, True, 77.21, 28.61),
    ("São Paulo", "Brazil", 22_000_000, False, -46.63, -23.55),
    ("Mexico City", "Mexico", 21_800_000, True, -99.13, 19.43),
    ("Cairo", "Egypt", 21_300_000, True, 31.24, 30.04),
    ("New York", "United States", 18_800_000, False, -74.01, 40.71),
    ("Buenos Aires", "Argentina", 15_200_000, True, -58.38, -34.6),
    ("Paris", "France", 11_000_000, True, 2.35, 48.86),
    ("London", "United Kingdom", 9_500_000, True, -0.13, 51.51),
    ("Madrid", "Spain", 6_700_000, True, -3.7, 40.42),
    ("Berlin", "Germany", 3_600_000, True, 13.4, 52.52),
    ("Lisbon", "Portugal", 2_900_000, True, -9.14, 38.72),
    ("Munich", "Germany", 1_500_000, False, 11.58, 48.14),
    ("Marseille", "France", 870_000, False, 5.37, 43.3),
    ("Seville", "Spain", 690_000, False, -5.98, 37.39),
    ("Porto", "Portugal", 230_000, False, -8.61, 41.15),
]
CITIES = _collection(
    [
        (
            {"type": "Point", "coordinates": [lng, lat]},
            {"name": name, "country": country, "population": pop, "capital": capital},
        )
        for name, country, pop, capital, lng, lat in _CITIES
    ]
)
# Nine districts in a 3 x 3 grid west of Lisbon: name, value, population, region.
DISTRICTS = _collection(
    [
        (
            _square(-9.5 + 0.1 * (i % 3), 38.6 + 0.1 * (i // 3)),
            {
                "name": f"District {chr(65 + i)}",
                "value": [12, 45, 7, 88, 23, 61, 3, 50, 34][i],
                "population": [500, 1200, 800, 4000, 950, 2600, 300, 1800, 7100][i],
                "region": ["North", "Centre", "South"][i // 3],
            },
        )
        for i in range(9)
    ]
)
SITES = _collection(
    [
        ({"type": "Point", "coordinates": [lng, lat]}, {"name": name, "kind": kind, "visitors": n})
        for name, kind, n, lng, lat in [
            ("Belém Tower", "monument", 600_000, -9.216, 38.692),
            ("Jerónimos Monastery", "monument", 1_000_000, -9.206, 38.698),
            ("Gulbenkian Museum", "museum", 450_000, -9.154, 38.737),
            ("Oceanarium", "museum", 1_300_000, -9.094, 38.763),
            ("São Jorge Castle", "monument", 2_000_000, -9.133, 38.714),
            ("Monsanto Park", "park", 300_000, -9.19, 38.73),
            ("Estrela Garden", "park", 200_000, -9.16, 38.714),
        ]
    ]
)
WORLD_RIVERS = _collection(
    [
        ({"type": "LineString", "coordinates": coords}, {"name": name, "length_km": length})
        for name, length, coords in [
            ("Tagus", 1007, [[-4.0, 40.0], [-6.5, 39.6], [-9.1, 38.7]]),
            ("Douro", 897, [[-2.5, 41.8], [-6.0, 41.0], [-8.6, 41.15]]),
            ("Seine", 777, [[4.7, 47.8], [2.35, 48.85], [0.1, 49.45]]),
            ("Rhine", 1233, [[9.5, 47.5], [7.6, 50.3], [4.1, 51.9]]),
        ]
    ]
)
# The project of the newer evaluation sets (`"project": "world"`): Sites on top, then
# Cities, Districts, Rivers.
WORLD_LAYERS = [
    ("rivers", "Rivers", WORLD_RIVERS),
    ("districts", "Districts", DISTRICTS),
    ("cities", "Cities", CITIES),
    ("sites", "Sites", SITES),
]
