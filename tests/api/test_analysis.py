"""Data answers over HTTP (docs/analysis.md), on SQLite and PostgreSQL: filters wherever a layer
is drawn, feature queries, statistics against pandas, and derived layers against GeoPandas."""

from __future__ import annotations

import math
from typing import Any

import geopandas
import httpx
import mapbox_vector_tile
import numpy as np
import orjson
import pandas
import pytest
import shapely
from fastapi import FastAPI
from pyproj import Geod

from tests.chat.support import CITIES, DISTRICTS, SITES, WORLD_LAYERS
from tests.support import (
    AppFactory,
    assert_error,
    create_project,
    detail_paths,
    http_client,
    new_key,
)

pytestmark = pytest.mark.anyio


async def world(api: httpx.AsyncClient) -> tuple[str, dict[str, str]]:
    """A project with the chat's world layers; its id and the layers' ids by reference."""
    project = (await create_project(api))["id"]
    actions = [{"type": "add_geojson_layer", "layer_id": ref, "name": name, "geojson": data}
               for ref, name, data in WORLD_LAYERS]  # fmt: skip
    made = await api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": actions})
    assert made.status_code == 200, made.text
    ids = {ref: item["layer_id"] for (ref, _, _), item in zip(WORLD_LAYERS, made.json()["layers"],
                                                               strict=True)}  # fmt: skip
    return project, ids


async def act(api: httpx.AsyncClient, project: str, *actions: dict[str, Any]) -> httpx.Response:
    return await api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": actions})


def names(collection: dict[str, Any]) -> list[str]:
    return [f["properties"]["name"] for f in collection["features"]]


def city_names(where: Any) -> set[str]:
    from maproom.geo.filters import matches

    return {f["properties"]["name"] for f in CITIES["features"] if matches(where, f["properties"])}


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ({"field": "country", "op": "==", "value": "Spain"}, {"Madrid", "Seville"}),
        ({"field": "population", "op": "!=", "value": 2_900_000}, None),
        ({"field": "population", "op": "<", "value": 1_000_000}, {"Marseille", "Seville", "Porto"}),
        ({"field": "population", "op": "<=", "value": 870_000}, {"Marseille", "Seville", "Porto"}),
        ({"field": "population", "op": ">", "value": 21_800_000}, {"Tokyo", "Delhi", "São Paulo"}),
        (
            {"field": "population", "op": ">=", "value": 21_800_000},
            {"Tokyo", "Delhi", "São Paulo", "Mexico City"},
        ),
        (
            {"field": "country", "op": "in", "value": ["Portugal", "Japan"]},
            {"Lisbon", "Porto", "Tokyo"},
        ),
        (
            {
                "field": "country",
                "op": "not_in",
                "value": ["Spain", "France", "Germany", "Portugal", "United Kingdom"],
            },
            None,
        ),
        ({"field": "name", "op": "contains", "value": "CITY"}, {"Mexico City"}),
        ({"field": "capital", "op": "==", "value": False}, None),
        ({"field": "capital", "op": "is_null"}, set()),
        ({"field": "capital", "op": "not_null"}, None),
        (
            {
                "any": [
                    {"field": "name", "op": "==", "value": "Paris"},
                    {
                        "all": [
                            {"field": "country", "op": "==", "value": "Germany"},
                            {"field": "capital", "op": "==", "value": False},
                        ]
                    },
                ]
            },
            {"Paris", "Munich"},
        ),
    ],
)
async def test_each_filter_operator(
    api: httpx.AsyncClient, condition: dict[str, Any], expected: set[str] | None
) -> None:
    project, ids = await world(api)
    wanted = expected if expected is not None else city_names(condition)
    base = f"/api/v1/sessions/{project}/layers/{ids['cities']}"
    found = await api.get(f"{base}/features", params={"filter": orjson.dumps(condition).decode(),
                                                      "limit": 100})  # fmt: skip
    assert found.status_code == 200, found.text
    assert set(names(found.json())) == wanted
    count = await api.get(f"{base}/stats", params={"filter": orjson.dumps(condition).decode()})
    assert count.json() == {"count": len(wanted)}
    # The same filter on the layer: its GeoJSON, its detail's count.
    assert (await act(api, project, {"type": "set_layer_filter", "layer_id": "cities",
                                     "filter": condition})).status_code == 200  # fmt: skip
    detail = (await api.get(base)).json()
    assert detail["filteredFeatureCount"] == len(wanted)
    data = await api.get(detail["url"])
    assert set(names(data.json())) == wanted


async def test_a_filtered_layer_s_tiles_and_classes(api: httpx.AsyncClient) -> None:
    project, ids = await world(api)
    base = f"/api/v1/sessions/{project}/layers/{ids['cities']}"
    iberia = {"field": "country", "op": "in", "value": ["Spain", "Portugal"]}
    style = {"renderer": {"type": "graduated", "field": "population", "classes": 2},
             "filter": iberia}  # fmt: skip
    styled = await api.put(f"{base}/style", json=style)
    assert styled.status_code == 200, styled.text
    ranges = styled.json()["renderer"]["ranges"]
    assert ranges[0]["from"] == 230_000  # Porto: the smallest kept, not Seville's or Tokyo's
    detail = (await api.get(base)).json()
    assert detail["filteredFeatureCount"] == 4 and "?f=" in detail["url"]
    tile = await api.get(f"{base}/tiles/0/0/0.pbf")
    decoded = mapbox_vector_tile.decode(tile.content)["layer"]["features"]
    assert sorted(f["properties"]["name"] for f in decoded) == ["Lisbon", "Madrid", "Porto",
                                                                "Seville"]  # fmt: skip
    cleared = await api.put(f"{base}/style", json={"filter": None})
    assert "filter" not in cleared.json()
    assert (await api.get(base)).json()["filteredFeatureCount"] == 16
    tile = await api.get(f"{base}/tiles/0/0/0.pbf")
    shown = {
        f["properties"]["name"]
        for f in mapbox_vector_tile.decode(tile.content)["layer"]["features"]
    }
    assert {"Tokyo", "New York", "Madrid"} <= shown  # every country again (thinned at zoom 0)


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"field": "nope", "op": "==", "value": 1}, "actions[0].filter.field"),
        ({"field": "population", "op": "~", "value": 1}, "actions[0].filter.op"),
        ({"field": "population", "op": ">", "value": "big"}, "actions[0].filter.value"),
        ({"field": "population", "op": ">"}, "actions[0].filter.value"),
        ({"field": "name", "op": "in", "value": []}, "actions[0].filter.value"),
        (
            {"all": [{"field": "name", "op": "contains", "value": 3}]},
            "actions[0].filter.all[0].value",
        ),
        ({"field": "name", "op": "==", "value": "x", "extra": 1}, "actions[0].filter.extra"),
    ],
)
async def test_bad_filters_are_400_at_their_path(
    api: httpx.AsyncClient, body: dict[str, Any], path: str
) -> None:
    project, _ = await world(api)
    response = await act(api, project, {"type": "set_layer_filter", "layer_id": "cities",
                                        "filter": body})  # fmt: skip
    assert detail_paths(response) == [path]
    if path.endswith(".field"):
        assert "population" in response.json()["error"]["message"]  # the fields are listed


async def test_features_sorted_paged_and_cut(api: httpx.AsyncClient) -> None:
    project, ids = await world(api)
    base = f"/api/v1/sessions/{project}/layers/{ids['cities']}/features"
    seen, cursor = [], None
    while True:
        params = {"sort": "population", "order": "desc", "limit": 5, "fields": "name"}
        page = (await api.get(base, params=params | ({"cursor": cursor} if cursor else {}))).json()
        assert all(set(f["properties"]) == {"name"} for f in page["features"])
        seen += names(page)
        cursor = page["meta"]["nextCursor"]
        if cursor is None:
            break
    by_population = sorted(CITIES["features"], key=lambda f: -f["properties"]["population"])
    assert seen == [f["properties"]["name"] for f in by_population]
    europe = (await api.get(base, params={"bbox": "-10,35,15,55", "limit": 100})).json()
    assert set(names(europe)) == {"Paris", "London", "Madrid", "Berlin", "Lisbon", "Munich",
                                  "Marseille", "Seville", "Porto"}  # fmt: skip
    for params, path in (({"sort": "nope"}, "sort"), ({"fields": "name,nope"}, "fields"),
                         ({"bbox": "1,2"}, "bbox"), ({"limit": 0}, "limit")):  # fmt: skip
        assert detail_paths(await api.get(base, params=params)) == [path]


async def test_stats_equal_pandas(api: httpx.AsyncClient) -> None:
    project, ids = await world(api)
    frame = pandas.DataFrame([f["properties"] for f in DISTRICTS["features"]])
    base = f"/api/v1/sessions/{project}/layers/{ids['districts']}/stats"
    where = {"field": "population", "op": ">=", "value": 800}
    params = {"field": "value", "filter": orjson.dumps(where).decode()}
    found = (await api.get(base, params=params)).json()
    kept = frame[frame["population"] >= 800]["value"]
    assert found["count"] == len(kept) and found["nullCount"] == 0
    assert (found["min"], found["max"], found["sum"]) == (kept.min(), kept.max(), kept.sum())
    assert found["mean"] == pytest.approx(kept.mean())
    regions = (await api.get(base, params={"field": "region"})).json()
    assert {d["value"]: d["count"] for d in regions["distinct"]} == (
        frame["region"].value_counts().to_dict()
    )
    assert regions["mean"] is None and regions["min"] == "Centre"


@pytest.mark.parametrize("latitude", [0.0, 60.0])
async def test_a_1_km_buffer_is_pi_square_km(api: httpx.AsyncClient, latitude: float) -> None:
    project = (await create_project(api))["id"]
    point = {"type": "Feature", "geometry": {"type": "Point", "coordinates": [10.0, latitude]},
             "properties": {"name": "here"}}  # fmt: skip
    await act(api, project, {"type": "add_geojson_layer", "layer_id": "p", "geojson": point})
    made = await act(api, project, {"type": "buffer_layer", "layer_id": "p", "distance": 1,
                                    "unit": "km"})  # fmt: skip
    assert made.status_code == 200, made.text
    layer = made.json()["layers"][0]["layer_id"]
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    assert detail["derivedFrom"]["operation"] == "buffer_layer"
    assert detail["derivedFrom"]["params"] == {"distance": 1, "unit": "km"}
    assert detail["source"] == "ai" and detail["geometry_type"] == "Polygon"
    data = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).json()
    area, _ = Geod(ellps="WGS84").geometry_area_perimeter(
        shapely.geometry.shape(data["features"][0]["geometry"])
    )
    assert abs(abs(area) / (math.pi * 1e6) - 1) < 0.01
    assert data["features"][0]["properties"] == {"name": "here"}


async def test_aggregate_points_equals_a_geopandas_sjoin(api: httpx.AsyncClient) -> None:
    project, _ids = await world(api)
    rng = np.random.default_rng(4)
    points = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"w": int(w)},
         "geometry": {"type": "Point", "coordinates": [float(x), float(y)]}}
        for x, y, w in zip(rng.uniform(-9.55, -9.15, 3000), rng.uniform(38.55, 38.95, 3000),
                           rng.integers(0, 10, 3000), strict=True)]}  # fmt: skip
    await act(api, project, {"type": "add_geojson_layer", "layer_id": "pts", "geojson": points})
    made = await act(api, project, {"type": "aggregate_points", "points_layer_id": "pts",
                                    "polygons_layer_id": "districts", "stat": "sum",
                                    "field": "w"})  # fmt: skip
    assert made.status_code == 200, made.text
    layer = made.json()["layers"][0]["layer_id"]
    data = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).json()
    ours = {f["properties"]["name"]: f["properties"]["sum_w"] for f in data["features"]}
    joined = geopandas.sjoin(
        geopandas.GeoDataFrame.from_features(points["features"]),
        geopandas.GeoDataFrame.from_features(DISTRICTS["features"]),
        predicate="within",
    )
    theirs = joined.groupby("name")["w"].sum().to_dict()
    assert {k: v for k, v in ours.items() if v is not None} == theirs
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    assert detail["style"]["renderer"]["type"] == "graduated"
    assert detail["style"]["renderer"]["field"] == "sum_w" and detail["style"]["renderer"]["ranges"]
    counted = await act(api, project, {"type": "aggregate_points", "points_layer_id": "sites",
                                       "polygons_layer_id": "districts"})  # fmt: skip
    layer = counted.json()["layers"][0]["layer_id"]
    data = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).json()
    inside = sum(
        shapely.geometry.shape(d["geometry"]).contains(shapely.geometry.shape(s["geometry"]))
        for d in DISTRICTS["features"] for s in SITES["features"]
    )  # fmt: skip
    assert sum(f["properties"]["count"] for f in data["features"]) == inside


async def test_clip_dissolve_and_filter_to_layer(api: httpx.AsyncClient) -> None:
    project, _ids = await world(api)
    clipped = await act(api, project, {"type": "clip_layer", "layer_id": "cities",
                                       "country_code": "ES"})  # fmt: skip
    layer = clipped.json()["layers"][0]["layer_id"]
    data = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).json()
    assert sorted(names(data)) == ["Madrid", "Seville"]
    rivers = await act(api, project, {"type": "clip_layer", "layer_id": "rivers",
                                      "country_code": "PT"})  # fmt: skip
    layer = rivers.json()["layers"][0]["layer_id"]
    cut = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).json()
    assert sorted(names(cut)) == ["Douro", "Tagus"]
    for feature in cut["features"]:
        assert shapely.geometry.shape(feature["geometry"]).bounds[0] > -9.6  # cut at the border
        assert shapely.geometry.shape(feature["geometry"]).bounds[2] < -6.1

    dissolved = await act(api, project, {"type": "dissolve_layer", "layer_id": "districts",
                                         "field": "region"})  # fmt: skip
    layer = dissolved.json()["layers"][0]["layer_id"]
    data = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).json()
    by_region = {f["properties"]["region"]: f for f in data["features"]}
    assert set(by_region) == {"North", "Centre", "South"}
    assert by_region["North"]["properties"]["count"] == 3
    assert shapely.geometry.shape(by_region["North"]["geometry"]).area == pytest.approx(0.03)

    big = {"field": "population", "op": ">", "value": 2e7}
    kept = await act(api, project, {"type": "filter_to_layer", "layer_id": "cities",
                                    "name": "Big", "filter": big})  # fmt: skip
    layer = kept.json()["layers"][0]["layer_id"]
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    assert (detail["name"], detail["feature_count"]) == ("Big", 5)
    bad = await act(api, project, {"type": "aggregate_points", "points_layer_id": "districts",
                                   "polygons_layer_id": "cities"})  # fmt: skip
    assert detail_paths(bad) == ["actions[0].points_layer_id"]
    bad = await act(api, project, {"type": "aggregate_points", "points_layer_id": "cities",
                                   "polygons_layer_id": "districts", "stat": "sum",
                                   "field": "country"})  # fmt: skip
    assert detail_paths(bad) == ["actions[0].field"]


async def test_a_derived_layer_is_undone_and_restored(api: httpx.AsyncClient) -> None:
    project, _ids = await world(api)
    made = await act(api, project, {"type": "buffer_layer", "layer_id": "sites", "distance": 200,
                                    "unit": "m"})  # fmt: skip
    layer = made.json()["layers"][0]["layer_id"]
    data = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).content
    await act(api, project, {"type": "undo"})
    assert (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).status_code == 404
    await act(api, project, {"type": "redo"})
    assert (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).content == data


async def test_a_timeout_is_504_and_adds_nothing(app_factory: AppFactory) -> None:
    async with app_factory(analysis_timeout_s=0.05) as app, http_client(app, new_key(app)) as api:
        project = (await create_project(api))["id"]
        rng = np.random.default_rng(2)
        many = {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {},
             "geometry": {"type": "Point", "coordinates": [float(x), float(y)]}}
            for x, y in zip(rng.uniform(-50, 50, 40_000), rng.uniform(-50, 50, 40_000),
                            strict=True)]}  # fmt: skip
        await act(api, project, {"type": "add_geojson_layer", "layer_id": "many", "geojson": many})
        before = (await api.get(f"/api/v1/sessions/{project}")).json()
        response = await act(api, project, {"type": "buffer_layer", "layer_id": "many",
                                            "distance": 5, "unit": "km"})  # fmt: skip
        error = assert_error(response, 504, "gateway_timeout")
        assert "MAPROOM_ANALYSIS_TIMEOUT_S" in error["message"]
        after = (await api.get(f"/api/v1/sessions/{project}")).json()
        assert after["layers"] == before["layers"] and after["updatedAt"] == before["updatedAt"]
        files = (await api.get(f"/api/v1/sessions/{project}/files")).json()["data"]
        assert len(files) == 1


async def test_questions_of_a_raster_or_another_account(
    app: FastAPI, api: httpx.AsyncClient
) -> None:
    project, ids = await world(api)
    async with http_client(app, new_key(app, email="stranger@example.com")) as stranger:
        found = await stranger.get(f"/api/v1/sessions/{project}/layers/{ids['cities']}/stats")
        assert_error(found, 404, "not_found")
    tiles = await act(api, project, {"type": "add_tile_layer",
                                     "url": "https://t.example.com/{z}/{x}/{y}.png"})  # fmt: skip
    layer = tiles.json()["layers"][0]["layer_id"]
    assert_error(await api.get(f"/api/v1/sessions/{project}/layers/{layer}/features"), 400,
                 "bad_request")  # fmt: skip
