"""Server-side classification over HTTP (docs/styles.md): field statistics in the layer detail,
computed classes stored and shown in the legend, and 400s naming the layer's fields."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.support import assert_error

pytestmark = pytest.mark.anyio


def regions_csv(n: int = 10) -> bytes:
    """`n` points with a numeric `population` (10, 20, ...), a `kind` and an empty column."""
    lines = ["lat,lon,population,kind,note"]
    lines += [f"{i % 80},{i % 170},{(i + 1) * 10},{'abc'[i % 3]}," for i in range(n)]
    return ("\n".join(lines) + "\n").encode()


async def upload(api: httpx.AsyncClient, data: bytes, name: str = "regions.csv") -> tuple[str, str]:
    project = (await api.post("/api/v1/sessions", json={})).json()["id"]
    response = await api.post(f"/api/v1/sessions/{project}/files", files={"file": (name, data)})
    assert response.status_code == 201, response.text
    return project, response.json()["layer"]["layer_id"]


async def restyle(
    api: httpx.AsyncClient, project: str, layer: str, renderer: dict[str, Any]
) -> httpx.Response:
    url = f"/api/v1/sessions/{project}/layers/{layer}/style"
    return await api.put(url, json={"renderer": renderer})


async def test_detail_shows_field_statistics(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, regions_csv())
    fields = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()["fields"]
    assert fields == [
        {"name": "population", "type": "number", "min": 10, "max": 100,
         "sample": [10, 20, 30, 40, 50]},
        {"name": "kind", "type": "string", "sample": ["a", "b", "c"]},
        {"name": "note", "type": "mixed", "sample": []},
    ]  # fmt: skip


async def test_quantile_ranges_are_computed_and_stored(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, regions_csv())
    response = await restyle(
        api, project, layer, {"type": "graduated", "field": "population", "method": "quantile",
                              "classes": 4, "ramp": "Blues"}
    )  # fmt: skip
    assert response.status_code == 200, response.text
    ranges = response.json()["renderer"]["ranges"]
    # Quartiles of 10, 20, ... 100 are 32.5, 55 and 77.5: integer data gets integer bounds.
    assert [(r["from"], r["to"]) for r in ranges] == [(10, 33), (33, 55), (55, 78), (78, None)]
    assert [r["label"] for r in ranges] == ["10 - 33", "33 - 55", "55 - 78", "≥ 78"]
    # Blues from its second colour to its last, interpolated: see maproom.geo.classify.
    assert [r["paint"]["circle-color"] for r in ranges] == ["#deebf7", "#8dc1dd", "#2c7cbb",
                                                            "#08306b"]  # fmt: skip
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    assert detail["style"]["renderer"]["ranges"] == ranges
    assert [item["label"] for item in detail["legendItems"]] == [r["label"] for r in ranges]
    assert detail["legendItems"][0]["paint"]["circle-color"] == "#deebf7"


async def test_equal_ranges_and_the_defaults(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, regions_csv())
    response = await restyle(
        api, project, layer, {"type": "graduated", "field": "population", "method": "equal"}
    )
    ranges = response.json()["renderer"]["ranges"]
    assert [(r["from"], r["to"]) for r in ranges] == [
        (10, 28), (28, 46), (46, 64), (64, 82), (82, None)
    ]  # fmt: skip
    no_method = await restyle(api, project, layer, {"field": "population", "classes": 3})
    renderer = no_method.json()["renderer"]
    assert (renderer["method"], len(renderer["ranges"])) == ("equal", 3)


async def test_a_paint_change_keeps_the_classes_and_a_new_count_recomputes(
    api: httpx.AsyncClient,
) -> None:
    project, layer = await upload(api, regions_csv())
    first = await restyle(api, project, layer, {"type": "graduated", "field": "population"})
    ranges = first.json()["renderer"]["ranges"]
    assert len(ranges) == 5
    tuned = await restyle(api, project, layer, {"paint": {"circle-radius": 8}})
    assert tuned.json()["renderer"]["ranges"] == ranges
    fewer = await restyle(api, project, layer, {"classes": 2})
    assert len(fewer.json()["renderer"]["ranges"]) == 2


async def test_manual_ranges_are_kept(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, regions_csv())
    manual = [{"from": 0, "to": 50, "paint": {"circle-color": "#000000"}},
              {"from": 50, "to": None, "paint": {"circle-color": "#ffffff"}}]  # fmt: skip
    response = await restyle(
        api, project, layer,
        {"type": "graduated", "field": "population", "method": "manual", "ranges": manual},
    )  # fmt: skip
    assert response.json()["renderer"]["ranges"] == manual


async def test_categories_most_frequent_first(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, regions_csv(11))
    response = await restyle(api, project, layer, {"type": "categorized", "field": "kind"})
    renderer = response.json()["renderer"]
    assert [c["value"] for c in renderer["categories"]] == ["a", "b", "c"]
    assert len({c["paint"]["circle-color"] for c in renderer["categories"]}) == 3
    assert renderer["default"] == {"circle-color": "#bdbdbd"}
    legend = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()["legendItems"]
    assert [item["label"] for item in legend] == ["a", "b", "c", "Other"]


async def test_interpolated_stops_at_the_extremes(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, regions_csv())
    response = await restyle(
        api, project, layer, {"type": "interpolated", "field": "population", "ramp": "Viridis"}
    )
    stops = response.json()["renderer"]["stops"]
    assert [(s["value"], s["paint"]["circle-color"]) for s in stops] == [
        (10, "#440154"), (100, "#fde725")
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("renderer", "message"),
    [
        ({"type": "graduated", "field": "popu"},
         "the layer has no field 'popu'; its fields: population, kind, note"),
        ({"type": "categorized", "field": "Kind"},
         "the layer has no field 'Kind'; its fields: population, kind, note"),
        ({"type": "graduated", "field": "kind"},
         "the field 'kind' has no numeric values; its numeric fields: population"),
        ({"type": "interpolated", "field": "note"},
         "the field 'note' has no numeric values; its numeric fields: population"),
    ],
)  # fmt: skip
async def test_unknown_or_unsuitable_fields_are_400_at_renderer_field(
    api: httpx.AsyncClient, renderer: dict[str, Any], message: str
) -> None:
    project, layer = await upload(api, regions_csv())
    before = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    error = assert_error(await restyle(api, project, layer, renderer), 400, "bad_request")
    assert error["details"] == [{"path": "renderer.field", "message": message}]
    after = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    assert after == before


async def test_heatmap_weight_field_must_be_numeric(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, regions_csv())
    error = assert_error(
        await restyle(api, project, layer, {"type": "heatmap", "weightField": "kind"}),
        400,
        "bad_request",
    )
    assert error["details"][0]["path"] == "renderer.weightField"


async def test_the_action_classifies_the_same_way(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, regions_csv())
    style = {"renderer": {"type": "graduated", "field": "population", "classes": 3}}
    response = await api.post(
        f"/api/v1/sessions/{project}/map/actions",
        json={"actions": [{"type": "update_layer_style", "layer_id": layer, "style": style}]},
    )
    assert response.status_code == 200, response.text
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    assert len(detail["style"]["renderer"]["ranges"]) == 3
    bad = await api.post(
        f"/api/v1/sessions/{project}/map/actions",
        json={"actions": [{"type": "update_layer_style", "layer_id": layer,
                           "style": {"renderer": {"type": "graduated", "field": "x"}}}]},
    )  # fmt: skip
    assert assert_error(bad, 400, "bad_request")["details"][0]["path"] == (
        "actions[0].style.renderer.field"
    )


async def test_inline_layers_and_rasters(api: httpx.AsyncClient, tmp_path: Any) -> None:
    from tests import makers

    project = (await api.post("/api/v1/sessions", json={})).json()["id"]
    polygons = makers.geojson_polygons(6)
    action = {
        "type": "add_geojson_layer",
        "layer_id": "squares",
        "geojson": polygons,
        "style": {"renderer": {"type": "graduated", "field": "value", "classes": 3}},
    }
    response = await api.post(
        f"/api/v1/sessions/{project}/map/actions", json={"actions": [action]}
    )  # fmt: skip
    assert response.status_code == 200, response.text
    layer = response.json()["layers"][0]["layer_id"]
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    assert detail["fields"][0]["name"] == "value"
    ranges = detail["style"]["renderer"]["ranges"]
    assert [r["from"] for r in ranges] == [0, 17, 34]  # values 0, 10, ... 50 in thirds
    assert "fill-color" in ranges[0]["paint"]
    tif = makers.geotiff(tmp_path / "r.tif")
    raster = await api.post(f"/api/v1/sessions/{project}/files", files={"file": ("r.tif", tif)})
    raster_layer = raster.json()["layer"]
    assert raster_layer["fields"] is None
    error = assert_error(
        await restyle(api, project, raster_layer["layer_id"],
                      {"type": "graduated", "field": "band1"}),
        400, "bad_request",
    )  # fmt: skip
    assert (
        error["details"][0]["message"] == "the layer has no field 'band1'; this layer has no fields"
    )


async def test_layers_stored_before_profiles_are_profiled_at_start(
    api: httpx.AsyncClient, app: FastAPI
) -> None:
    from sqlalchemy import update

    from maproom.domain.layers import profile_missing
    from maproom.storage.models import layers

    project, layer = await upload(api, regions_csv())
    db, blobs = app.state.services.db, app.state.services.blobs
    with db.write() as tx:  # as an older maproom left it
        tx.execute(update(layers).values(fields=None, stats_key=None))
    assert (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()["fields"] is None
    # Until then classification works from the layer's data itself.
    response = await restyle(api, project, layer, {"type": "graduated", "field": "population"})
    assert response.status_code == 200, response.text
    assert profile_missing(db, blobs) == 1
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    assert [field["name"] for field in detail["fields"]] == ["population", "kind", "note"]
    assert profile_missing(db, blobs) == 0
