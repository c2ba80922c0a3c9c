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
