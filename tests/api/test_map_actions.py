"""Map actions over HTTP: every type's effect on the persisted project, aliases, atomicity."""

from __future__ import annotations

import math
from typing import Any

import httpx
import orjson
import pytest
from fastapi import FastAPI

from maproom.domain.actions import commands as actions
from maproom.domain.links import log_since
from maproom.geo import camera
from tests import makers
from tests.support import KeyMaker, assert_error, detail_paths, http_client

pytestmark = pytest.mark.anyio
POINTS = orjson.loads(makers.geojson_points())


async def new_project(api: httpx.AsyncClient) -> str:
    return str((await api.post("/api/v1/sessions", json={"title": "actions"})).json()["id"])


async def act(api: httpx.AsyncClient, project: str, *actions: dict[str, Any]) -> httpx.Response:
    return await api.post(
        f"/api/v1/sessions/{project}/map/actions", json={"actions": list(actions)}
    )


async def state(api: httpx.AsyncClient, project: str) -> dict[str, Any]:
    return dict((await api.get(f"/api/v1/sessions/{project}")).json())


async def test_camera_actions_update_the_map_state(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    ok = await act(
        api, project, {"type": "fly_to", "center": [2.35, 48.86], "zoom": 10, "pitch": 30}
    )
    assert ok.json() == {"ok": True, "dispatched": 1, "layers": []}
    view = (await state(api, project))["mapState"]
    assert (view["center"], view["zoom"], view["pitch"]) == ([2.35, 48.86], 10, 30)
    await act(api, project, {"type": "jump_to", "center": [-9.14, 38.72]}, {"type": "zoom_in"})
    view = (await state(api, project))["mapState"]
    assert (view["center"], view["zoom"]) == ([-9.14, 38.72], 11)
    await act(api, project, {"type": "zoom_out"}, {"type": "zoom_out"})
    assert (await state(api, project))["mapState"]["zoom"] == 9
    await act(api, project, {"type": "pan", "direction": "east", "amount": 512})
    moved = (await state(api, project))["mapState"]["center"]
    assert moved[0] == pytest.approx(-9.14 + 360 / 2**9, abs=1e-4)
    assert moved[1] == pytest.approx(38.72, abs=1e-6)
    await act(api, project, {"type": "pan", "direction": "north"})
    assert (await state(api, project))["mapState"]["center"][1] > 38.72
    await act(api, project, {"type": "fit_bounds", "bbox": [-10, 35, 5, 45], "padding": 20})
    view = (await state(api, project))["mapState"]
    assert view["center"][0] == pytest.approx(-2.5, abs=1e-6)
    assert 4 < view["zoom"] < 6
    await act(api, project, {"type": "go_home"})
    view = (await state(api, project))["mapState"]
    assert (view["center"], view["zoom"], view["pitch"]) == ([0, 20], 1.5, 0)


async def test_fit_bounds_math() -> None:
    center, zoom = camera.fit([-180, -85.0511287798066, 180, 85.0511287798066])
    # A 768 px tall view holds the 512 px world 1.5 times: the height decides.
    assert center == pytest.approx([0, 0]) and zoom == pytest.approx(math.log2(1.5), abs=1e-4)
    _, padded = camera.fit(
        [-180, -85.0511287798066, 180, 85.0511287798066], camera.Padding.even(256)
    )
    assert padded == pytest.approx(0.0)


async def test_layer_actions(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    created = await act(
        api,
        project,
        {"type": "add_geojson_layer", "layer_id": "cities", "geojson": POINTS, "name": "Cities",
         "columns": ["name"]},
        {"type": "add_geojson_layer", "layer_id": "copy", "geojson": orjson.dumps(POINTS).decode()},
        {"type": "add_tile_layer", "url": "https://tiles.example.com/{z}/{x}/{y}.png",
         "layer_name": "Hillshade", "opacity": 0.5},
    )  # fmt: skip
    assert created.status_code == 200, created.text
    made = created.json()["layers"]
    assert len(made) == 3
    cities, copy, tiles = (item["layer_id"] for item in made)
    assert cities == actions.layer_uuid(project, "cities")
    listed = (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"]
    assert [item["layer_id"] for item in listed] == [tiles, copy, cities]
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{cities}")).json()
    assert (detail["name"], detail["source"], detail["feature_count"]) == ("Cities", "ai", 3)
    data = (await api.get(f"/api/v1/sessions/{project}/layers/{cities}/data")).json()
    assert set(data["features"][0]["properties"]) == {"name"}
    tile = (await api.get(f"/api/v1/sessions/{project}/layers/{tiles}")).json()
    assert (tile["layer_type"], tile["url"]) == (
        "tile",
        "https://tiles.example.com/{z}/{x}/{y}.png",
    )

    await act(
        api,
        project,
        {"type": "rename_layer", "layer_id": "cities", "name": "Capitals"},
        {"type": "set_layer_visibility", "layer_id": cities, "visible": False},
        {"type": "move_layer_up", "layer_id": "cities"},
        {"type": "update_layer_style", "layer_id": "cities",
         "style": {"renderer": {"type": "heatmap", "radius": 20}}},
        {"type": "zoom_to_layer", "layer_id": "cities"},
    )  # fmt: skip
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{cities}")).json()
    assert (detail["name"], detail["visible"], detail["order"]) == ("Capitals", False, 1)
    assert detail["style"]["renderer"] == {"type": "heatmap", "radius": 20}
    assert detail["style"]["_meta"]["generatedBy"] == "maproom"
    view = (await state(api, project))["mapState"]
    assert -9.14 < view["center"][0] < 13.4
    await act(api, project, {"type": "move_layer_down", "layer_id": "cities"})
    order = [
        i["layer_id"] for i in (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"]
    ]
    assert order == [tiles, copy, cities]
    await act(api, project, {"type": "remove_layer", "layer_id": "copy"})
    order = [
        i["layer_id"] for i in (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"]
    ]
    assert order == [tiles, cities]


async def test_tile_layers_without_an_id_are_deduplicated_by_url(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    tile = {"type": "add_tile_layer", "url": "https://t.example.com/{z}/{x}/{y}.png"}
    first = (await act(api, project, tile)).json()["layers"]
    second = (await act(api, project, tile)).json()["layers"]
    assert first == second and len(first) == 1
    assert len((await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"]) == 1


async def test_clear_layers_removes_exactly_the_ai_layers(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    upload = await api.post(
        f"/api/v1/sessions/{project}/files", files={"file": ("up.geojson", makers.geojson_points())}
    )
    uploaded = upload.json()["layer"]["layer_id"]
    await act(
        api,
        project,
        {"type": "add_geojson_layer", "layer_id": "a", "geojson": POINTS},
        {"type": "add_geojson_layer", "layer_id": "b", "file_id": upload.json()["id"]},
    )
    assert len((await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"]) == 3
    await act(api, project, {"type": "clear_layers"})
    listed = (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"]
    assert [item["layer_id"] for item in listed] == [uploaded]


async def test_basemap_and_masks(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    polygon = makers.geojson_polygons(1)
    await act(
        api,
        project,
        {"type": "set_basemap_style", "style": "dark"},
        {"type": "set_basemap_category", "category_key": "water", "color": "#003366"},
        {"type": "set_country_mask", "country_code": "PRT", "color": "#111111"},
        {"type": "set_custom_mask", "geojson": polygon, "color": "#222222"},
    )
    view = (await state(api, project))["mapState"]
    assert view["basemap"] == {"style": "dark", "categories": {"water": {"color": "#003366"}}}
    assert view["countryMask"] == {
        "countryCode": "PRT", "countryName": "Portugal", "visible": True, "color": "#111111"
    }  # fmt: skip
    assert orjson.loads(view["customMask"]["geojson"]) == polygon
    await act(api, project, {"type": "set_custom_mask"})
    assert (await state(api, project))["mapState"]["customMask"] is None


@pytest.mark.parametrize("alias", ["map.flyTo", "map.fly_to"])
async def test_aliases_are_normalised(app: FastAPI, api: httpx.AsyncClient, alias: str) -> None:
    project = await new_project(api)
    response = await act(api, project, {"type": alias, "center": [1, 2]})
    assert response.status_code == 200, response.text
    logged = log_since(app.state.services.db, project, 0, 10)
    assert [(kind, payload["type"]) for _, kind, payload in logged][-1] == ("action", "fly_to")
    assert (await state(api, project))["mapState"]["center"] == [1, 2]


async def test_file_generated_is_recorded(app: FastAPI, api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    action = {
        "type": "file_generated",
        "file_id": "f1",
        "file_name": "a.html",
        "url": "https://example.com/a.html",
    }
    assert (await act(api, project, action)).status_code == 200
    logged = log_since(app.state.services.db, project, 0, 10)
    assert logged[-1][2] == action


@pytest.mark.parametrize(
    ("actions", "path"),
    [
        ([{"type": "fly_to", "center": [1, 2]}, {"type": "warp_to"}], "actions[1].type"),
        ([{"type": "fly_to", "center": [1, 2]}, {"type": "fly_to"}], "actions[1].center"),
        ([{"type": "fly_to", "center": [1, 2]}, {"type": "fly_to", "center": [200, 0]}],
         "actions[1].center[0]"),
        ([{"type": "zoom_in"}, {"type": "remove_layer", "layer_id": "nope"}],
         "actions[1].layer_id"),
        ([{"type": "add_geojson_layer", "layer_id": "x", "geojson": {"type": "Nope"}}],
         "actions[0].geojson"),
        ([{"type": "add_tile_layer", "url": "ftp://x/{z}"}], "actions[0].url"),
        ([{"type": "add_cog_layer", "layer_id": "c", "url": "http://169.254.169.254/a.tif"}],
         "actions[0].url"),
        ([{"type": "set_basemap_style", "style": "neon"}], "actions[0].style"),
        ([{"type": "set_country_mask", "country_code": "XX"}], "actions[0].country_code"),
        ([{"type": "pan", "direction": "sideways"}], "actions[0].direction"),
        ([{"type": "zoom_in"}, "fly"], "actions[1]"),
        ([{"type": "add_tile_layer", "url": "http://2130706433/{z}/{x}/{y}.png"}],
         "actions[0].url"),
        ([{"type": "add_tile_layer", "url": "http://[::ffff:10.0.0.1]/{z}/{x}/{y}.png"}],
         "actions[0].url"),
        ([{"type": "add_cog_layer", "layer_id": "c", "url": "http://0177.0.0.1/a.tif"}],
         "actions[0].url"),
        ([{"type": "add_cog_layer", "layer_id": "c", "url": "https://tiles.localhost/a.tif"}],
         "actions[0].url"),
        ([{"type": "set_basemap_style", "style": "http://localhost:8080/style.json"}],
         "actions[0].style"),
        ([{"type": "file_generated", "file_id": "f", "file_name": "a",
           "url": "https://me:pw@example.com/a"}], "actions[0].url"),
        ([{"type": "rename_layer", "layer_id": "a", "layerId": "b", "name": "x"}],
         "actions[0].layerId"),
    ],
)  # fmt: skip
async def test_a_bad_action_rejects_the_whole_batch(
    app: FastAPI, api: httpx.AsyncClient, actions: list[Any], path: str
) -> None:
    project = await new_project(api)
    before = await state(api, project)
    response = await act(api, project, *actions)
    error = assert_error(response, 400, "bad_request")
    assert error["details"][0]["path"].startswith(path), error
    assert await state(api, project) == before
    assert log_since(app.state.services.db, project, 0, 10) == []


async def test_a_layer_added_earlier_in_the_batch_can_be_used(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    response = await act(
        api,
        project,
        {"type": "add_geojson_layer", "layer_id": "q", "geojson": POINTS},
        {"type": "set_layer_visibility", "layer_id": "q", "visible": False},
        {"type": "add_geojson_layer", "layer_id": "q", "geojson": POINTS},
    )
    assert detail_paths(response) == ["actions[2].layer_id"]
    assert (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"] == []


async def test_empty_or_missing_actions_are_refused(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    assert detail_paths(await act(api, project)) == ["actions"]
    response = await api.post(f"/api/v1/sessions/{project}/map/actions", json={})
    assert detail_paths(response) == ["actions"]


async def test_actions_need_the_map_scope_and_the_owner(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    project = await new_project(api)
    body = {"actions": [{"type": "zoom_in"}]}
    async with http_client(app, make_key(scopes=["session"])) as limited:
        response = await limited.post(f"/api/v1/sessions/{project}/map/actions", json=body)
        assert_error(response, 403, "forbidden")
    async with http_client(app, make_key(email="other@example.com")) as other:
        response = await other.post(f"/api/v1/sessions/{project}/map/actions", json=body)
        assert_error(response, 404, "not_found")


async def test_names_are_not_resolved_at_dispatch(api: httpx.AsyncClient) -> None:
    """An http(s) URL whose host does not resolve is accepted (docs/actions.md): only the server's
    own fetches resolve names, when they happen."""
    project = await new_project(api)
    response = await act(
        api,
        project,
        {"type": "add_tile_layer", "url": "https://tiles.no-such-host.invalid/{z}/{x}/{y}.png"},
        {"type": "add_cog_layer", "layer_id": "dem", "url": "https://no-such-host.invalid/d.tif"},
        {"type": "set_basemap_style", "style": "https://styles.no-such-host.invalid/s.json"},
    )
    assert response.status_code == 200, response.text
    assert len(response.json()["layers"]) == 2


async def test_camel_case_parameters_and_extensions(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    response = await act(
        api,
        project,
        {"type": "map.setCountryMask", "countryCode": "DEU", "color": "#334455"},
        {"type": "map.zoomIn", "levels": 2.5},
        {"type": "map.jumpTo", "center": [13.4, 52.5], "bearing": 45, "pitch": 20},
    )
    assert response.status_code == 200, response.text
    view = (await state(api, project))["mapState"]
    assert view["countryMask"] == {
        "countryCode": "DEU", "countryName": "Germany", "visible": True, "color": "#334455"
    }  # fmt: skip
    assert (view["zoom"], view["bearing"], view["pitch"]) == (4.0, 45, 20)
    cleared = await act(api, project, {"type": "set_country_mask", "country_code": None})
    assert cleared.status_code == 200
    assert (await state(api, project))["mapState"]["countryMask"] is None
