"""Projects over HTTP: create and default state, PATCH rules (api-decisions.md), bounds, ETags."""

from __future__ import annotations

import json
import math
from typing import Any

import httpx
import pytest

from tests.support import (
    DEFAULT_MAP_STATE,
    assert_error,
    create_project,
    detail_paths,
    project_count,
)

pytestmark = pytest.mark.anyio

PROJECT_FIELDS = {
    "id",
    "title",
    "mapState",
    "createdAt",
    "updatedAt",
    "forkedFromSessionId",
    "isFork",
    "sharedByUser",
    "layers",
    "messages",
}
SQUARE = {
    "type": "Polygon",
    "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]],
}
TRIANGLE = {
    "type": "Polygon",
    "coordinates": [[[10, 10], [12, 10], [11, 12], [10, 10]]],
}


async def patch(api: httpx.AsyncClient, project_id: str, body: Any, **kw: Any) -> httpx.Response:
    """PATCH /sessions/{id}."""
    return await api.patch(f"/api/v1/sessions/{project_id}", json=body, **kw)


async def get(api: httpx.AsyncClient, project_id: str) -> httpx.Response:
    """GET /sessions/{id}."""
    return await api.get(f"/api/v1/sessions/{project_id}")


async def test_new_project_has_the_default_map_state(api: httpx.AsyncClient) -> None:
    response = await api.post("/api/v1/sessions", json={})
    assert response.status_code == 201
    created = response.json()
    assert set(created) == PROJECT_FIELDS
    assert created["title"] == "Untitled map"
    assert created["mapState"] == DEFAULT_MAP_STATE
    assert created["isFork"] is False
    assert created["forkedFromSessionId"] is None
    assert created["sharedByUser"] is None
    assert created["layers"] == []
    assert created["messages"] == []

    fetched = await get(api, created["id"])
    assert fetched.status_code == 200
    assert fetched.json() == created


async def test_create_without_a_body(api: httpx.AsyncClient) -> None:
    response = await api.post("/api/v1/sessions")
    assert response.status_code == 201
    assert response.json()["mapState"] == DEFAULT_MAP_STATE


async def test_create_with_title_and_partial_map_state(api: httpx.AsyncClient) -> None:
    created = await create_project(
        api, title="Rivers", mapState={"zoom": 4, "center": [2.35, 48.85]}
    )
    assert created["title"] == "Rivers"
    assert created["mapState"] == DEFAULT_MAP_STATE | {"zoom": 4, "center": [2.35, 48.85]}


async def test_patch_applies_only_present_fields(api: httpx.AsyncClient) -> None:
    project = await create_project(api, title="Before", mapState={"zoom": 3})

    renamed = await patch(api, project["id"], {"title": "After"})
    assert renamed.status_code == 200
    assert renamed.json()["title"] == "After"
    assert renamed.json()["mapState"] == project["mapState"]

    zoomed = await patch(api, project["id"], {"mapState": {"zoom": 7}})
    assert zoomed.json()["title"] == "After"

    stored = (await get(api, project["id"])).json()
    assert stored["title"] == "After"
    assert stored["mapState"]["zoom"] == 7


async def test_patch_shallow_merges_the_map_state(api: httpx.AsyncClient) -> None:
    project = await create_project(
        api,
        mapState={
            "center": [10, 45],
            "zoom": 5,
            "bearing": 30,
            "pitch": 40,
            "basemap": {"style": "dark", "categories": {"water": {"color": "#0000ff"}}},
            "countryMask": {"countryCode": "IT"},
        },
    )
    before = project["mapState"]

    response = await patch(api, project["id"], {"mapState": {"zoom": 6}})
    assert response.status_code == 200
    assert response.json()["mapState"] == before | {"zoom": 6}
    assert (await get(api, project["id"])).json()["mapState"] == before | {"zoom": 6}


async def test_patch_response_has_the_spec_fields(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    response = await patch(api, project["id"], {"title": "Renamed"})
    body = response.json()
    assert set(body) == {"id", "title", "mapState", "updatedAt"}
    assert body["id"] == project["id"]
    assert body["mapState"]["basemap"] == {"style": "light", "categories": {}}
    assert body["updatedAt"] >= project["updatedAt"]
    assert (await get(api, project["id"])).json()["updatedAt"] == body["updatedAt"]


async def test_patch_replaces_the_basemap_whole(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    first = {"style": "dark", "categories": {"water": {"color": "#00f", "visible": True}}}
    response = await patch(api, project["id"], {"mapState": {"basemap": first}})
    assert response.status_code == 200
    assert response.json()["mapState"]["basemap"]["categories"]["water"]["color"] == "#00f"

    response = await patch(api, project["id"], {"mapState": {"basemap": {"style": "streets"}}})
    assert response.json()["mapState"]["basemap"] == {"style": "streets", "categories": {}}
    stored = (await get(api, project["id"])).json()["mapState"]
    assert stored["basemap"] == {"style": "streets", "categories": {}}


async def test_patch_replaces_the_country_mask_whole(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    mask = {"countryCode": "FR", "visible": False, "color": "#ff0000"}
    response = await patch(api, project["id"], {"mapState": {"countryMask": mask}})
    assert response.json()["mapState"]["countryMask"] == mask | {"countryName": "France"}

    response = await patch(api, project["id"], {"mapState": {"countryMask": {"countryCode": "de"}}})
    assert response.status_code == 200
    assert response.json()["mapState"]["countryMask"] == {
        "countryCode": "DE",
        "countryName": "Germany",
        "visible": True,
        "color": "#000000",
    }


async def test_country_mask_accepts_alpha3_and_a_given_name(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    mask = {"countryCode": "JPN", "countryName": "Nippon"}
    response = await patch(api, project["id"], {"mapState": {"countryMask": mask}})
    assert response.status_code == 200
    stored = response.json()["mapState"]["countryMask"]
    assert stored["countryCode"] == "JPN"
    assert stored["countryName"] == "Nippon"


async def test_patch_replaces_the_custom_mask_whole(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    first = {"geojson": SQUARE, "color": "#112233"}
    response = await patch(api, project["id"], {"mapState": {"customMask": first}})
    assert response.status_code == 200
    mask = response.json()["mapState"]["customMask"]
    assert mask["color"] == "#112233"
    assert isinstance(mask["geojson"], str)
    assert json.loads(mask["geojson"]) == SQUARE

    # A JSON string is accepted too; the omitted color goes back to its default.
    second = {"geojson": json.dumps(TRIANGLE)}
    response = await patch(api, project["id"], {"mapState": {"customMask": second}})
    mask = response.json()["mapState"]["customMask"]
    assert json.loads(mask["geojson"]) == TRIANGLE
    assert mask["color"] == "#000000"


async def test_null_clears_a_mask_and_keeps_the_other(api: httpx.AsyncClient) -> None:
    project = await create_project(
        api,
        mapState={"countryMask": {"countryCode": "BR"}, "customMask": {"geojson": SQUARE}},
    )
    assert project["mapState"]["countryMask"]["countryName"] == "Brazil"

    response = await patch(api, project["id"], {"mapState": {"countryMask": None}})
    assert response.status_code == 200
    state = response.json()["mapState"]
    assert state["countryMask"] is None
    assert state["customMask"] == project["mapState"]["customMask"]

    response = await patch(api, project["id"], {"mapState": {"customMask": None}})
    assert response.json()["mapState"]["customMask"] is None
    stored = (await get(api, project["id"])).json()["mapState"]
    assert stored["countryMask"] is None
    assert stored["customMask"] is None


async def test_empty_patch_is_a_no_op(api: httpx.AsyncClient) -> None:
    project = await create_project(api, title="Keep")
    before = await get(api, project["id"])

    response = await patch(api, project["id"], {})
    assert response.status_code == 200
    assert response.json() == {
        "id": project["id"],
        "title": "Keep",
        "mapState": project["mapState"],
        "updatedAt": project["updatedAt"],
    }
    assert response.headers["etag"] == before.headers["etag"]

    after = await get(api, project["id"])
    assert after.json() == before.json()
    assert after.headers["etag"] == before.headers["etag"]


async def test_patch_with_the_stored_values_is_a_no_op(api: httpx.AsyncClient) -> None:
    project = await create_project(api, title="Same", mapState={"zoom": 4})
    before = await get(api, project["id"])
    response = await patch(api, project["id"], {"title": "Same", "mapState": {"zoom": 4}})
    assert response.status_code == 200
    assert response.headers["etag"] == before.headers["etag"]
    assert response.json()["updatedAt"] == project["updatedAt"]


async def test_a_change_bumps_the_version(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    before = await get(api, project["id"])
    response = await patch(api, project["id"], {"mapState": {"pitch": 10}})
    assert response.headers["etag"] != before.headers["etag"]
    after = await get(api, project["id"])
    assert after.headers["etag"] == response.headers["etag"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"mapState": {"center": [180.5, 0]}}, "mapState.center[0]"),
        ({"mapState": {"center": [-181, 0]}}, "mapState.center[0]"),
        ({"mapState": {"center": [0, 85.07]}}, "mapState.center[1]"),
        ({"mapState": {"center": [0, -86]}}, "mapState.center[1]"),
        ({"mapState": {"center": [0]}}, "mapState.center[1]"),
        ({"mapState": {"center": [0, 0, 0]}}, "mapState.center"),
        ({"mapState": {"center": "0,0"}}, "mapState.center"),
        ({"mapState": {"zoom": -0.1}}, "mapState.zoom"),
        ({"mapState": {"zoom": 24.5}}, "mapState.zoom"),
        ({"mapState": {"zoom": "5"}}, "mapState.zoom"),
        ({"mapState": {"zoom": None}}, "mapState.zoom"),
        ({"mapState": {"pitch": 85.5}}, "mapState.pitch"),
        ({"mapState": {"pitch": -1}}, "mapState.pitch"),
        ({"mapState": {"bearing": "north"}}, "mapState.bearing"),
        ({"mapState": {"basemap": {"style": "neon"}}}, "mapState.basemap.style"),
        (
            {"mapState": {"basemap": {"categories": {"water": {"color": "blue"}}}}},
            "mapState.basemap.categories.water.color",
        ),
        ({"mapState": {"countryMask": {"countryCode": "ZZ"}}}, "mapState.countryMask.countryCode"),
        ({"mapState": {"countryMask": {"visible": True}}}, "mapState.countryMask.countryCode"),
        (
            {"mapState": {"countryMask": {"countryCode": "FR", "color": "red"}}},
            "mapState.countryMask.color",
        ),
        ({"mapState": {"customMask": {"color": "#fff"}}}, "mapState.customMask.geojson"),
        (
            {"mapState": {"customMask": {"geojson": {"type": "Point", "coordinates": [0, 0]}}}},
            "mapState.customMask.geojson",
        ),
        ({"mapState": {"customMask": {"geojson": "{not json"}}}, "mapState.customMask.geojson"),
        (
            {"mapState": {"customMask": {"geojson": SQUARE, "color": "#12345"}}},
            "mapState.customMask.color",
        ),
        ({"title": ""}, "title"),
        ({"title": "x" * 201}, "title"),
        ({"title": 5}, "title"),
    ],
)
async def test_out_of_bounds_patch_is_rejected(
    api: httpx.AsyncClient, body: dict[str, Any], path: str
) -> None:
    project = await create_project(api)
    before = await get(api, project["id"])

    response = await patch(api, project["id"], body)
    assert path in detail_paths(response)

    after = await get(api, project["id"])
    assert after.json() == before.json()
    assert after.headers["etag"] == before.headers["etag"]


async def test_out_of_bounds_create_is_rejected(api: httpx.AsyncClient) -> None:
    response = await api.post("/api/v1/sessions", json={"mapState": {"zoom": 25}})
    assert detail_paths(response) == ["mapState.zoom"]
    assert await project_count(api) == 0


async def test_bounds_are_inclusive(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    for state in (
        {"center": [180, 85.06], "zoom": 24, "pitch": 85, "bearing": 180},
        {"center": [-180, -85.06], "zoom": 0, "pitch": 0, "bearing": -180},
    ):
        response = await patch(api, project["id"], {"mapState": state})
        assert response.status_code == 200, response.text
        assert response.json()["mapState"] == DEFAULT_MAP_STATE | state


@pytest.mark.parametrize("bearing", [190, -190, 540, 725.5, -1000])
async def test_any_finite_bearing_is_normalised(api: httpx.AsyncClient, bearing: float) -> None:
    project = await create_project(api)
    response = await patch(api, project["id"], {"mapState": {"bearing": bearing}})
    assert response.status_code == 200
    stored = response.json()["mapState"]["bearing"]
    assert -180 <= stored <= 180
    assert math.remainder(stored - bearing, 360) == pytest.approx(0, abs=1e-9)


async def test_unknown_top_level_fields_are_ignored(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    response = await patch(api, project["id"], {"colour": "red", "mapState": {"zoom": 3}})
    assert response.status_code == 200
    assert response.json()["mapState"]["zoom"] == 3


@pytest.mark.parametrize(
    ("map_state", "path"),
    [
        ({"zom": 5}, "mapState.zom"),
        ({"zoom": 4, "tilt": 3}, "mapState.tilt"),
        ({"countryMask": {"countryCode": "PT", "colour": "#fff"}}, "mapState.countryMask.colour"),
        ({"basemap": {"style": "dark", "sea": "#000"}}, "mapState.basemap.sea"),
    ],
)
async def test_unknown_map_state_fields_are_refused(
    api: httpx.AsyncClient, map_state: dict[str, Any], path: str
) -> None:
    """A typo in the map state is a 400 at its path, as in styles (docs/api-decisions.md)."""
    project = await create_project(api)
    response = await patch(api, project["id"], {"mapState": map_state})
    assert detail_paths(response) == [path]
    created = await api.post("/api/v1/sessions", json={"mapState": map_state})
    assert detail_paths(created) == [path]
    assert (await get(api, project["id"])).json()["mapState"] == DEFAULT_MAP_STATE


async def test_a_map_state_read_back_is_accepted_whole(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    changed = {"countryMask": {"countryCode": "PT"}, "basemap": {"style": "dark", "categories": {}}}
    state = (await patch(api, project["id"], {"mapState": changed})).json()["mapState"]
    again = await patch(api, project["id"], {"mapState": state})
    assert again.status_code == 200, again.text
    assert again.json()["mapState"] == state


async def test_get_and_patch_send_etags(api: httpx.AsyncClient) -> None:
    created = await api.post("/api/v1/sessions", json={})
    project_id = created.json()["id"]
    fetched = await get(api, project_id)
    etag = fetched.headers["etag"]
    assert created.headers["etag"] == etag
    assert etag.startswith('"')
    assert etag.endswith('"')

    patched = await patch(api, project_id, {"title": "One"}, headers={"If-Match": etag})
    assert patched.status_code == 200
    new_etag = patched.headers["etag"]
    assert new_etag != etag
    assert (await get(api, project_id)).headers["etag"] == new_etag


async def test_stale_if_match_is_refused_and_changes_nothing(api: httpx.AsyncClient) -> None:
    project = await create_project(api, title="Original")
    stale = (await get(api, project["id"])).headers["etag"]
    await patch(api, project["id"], {"title": "Second"})
    current = await get(api, project["id"])

    response = await patch(api, project["id"], {"title": "Third"}, headers={"If-Match": stale})
    assert_error(response, 412, "precondition_failed")

    after = await get(api, project["id"])
    assert after.json() == current.json()
    assert after.json()["title"] == "Second"
    assert after.headers["etag"] == current.headers["etag"]


@pytest.mark.parametrize("if_match", ["*", "{stale}, {current}", "{current}"])
async def test_if_match_accepting_forms(api: httpx.AsyncClient, if_match: str) -> None:
    project = await create_project(api)
    stale = (await get(api, project["id"])).headers["etag"]
    await patch(api, project["id"], {"title": "Second"})
    current = (await get(api, project["id"])).headers["etag"]

    header = if_match.format(stale=stale, current=current)
    response = await patch(api, project["id"], {"title": "Third"}, headers={"If-Match": header})
    assert response.status_code == 200, response.text
    assert response.json()["title"] == "Third"


async def test_weak_tag_never_matches(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    current = (await get(api, project["id"])).headers["etag"]
    response = await patch(api, project["id"], {"title": "X"}, headers={"If-Match": f"W/{current}"})
    assert_error(response, 412, "precondition_failed")


async def test_map_view(api: httpx.AsyncClient) -> None:
    project = await create_project(api, mapState={"zoom": 9})
    response = await api.get(f"/api/v1/sessions/{project['id']}/map")
    assert response.status_code == 200
    assert response.json() == {"mapState": project["mapState"], "layers": []}


@pytest.mark.parametrize("project_id", ["00000000-0000-4000-8000-000000000000", "not-a-uuid"])
async def test_unknown_project_is_404(api: httpx.AsyncClient, project_id: str) -> None:
    base = f"/api/v1/sessions/{project_id}"
    for response in (
        await api.get(base),
        await api.patch(base, json={"title": "x"}),
        await api.delete(base),
        await api.post(f"{base}/fork", json={}),
        await api.get(f"{base}/map"),
    ):
        assert_error(response, 404, "not_found")
