"""Layer ids are per project (docs/api-decisions.md): one account's layers can neither collide with
another's nor reveal that an id exists elsewhere. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import uuid

import httpx
import orjson
import pytest
from fastapi import FastAPI

from maproom.domain.actions import commands as actions
from tests import makers
from tests.support import OTHER, KeyMaker, assert_error, http_client

pytestmark = pytest.mark.anyio
POINTS = orjson.loads(makers.geojson_points())


async def new_project(api: httpx.AsyncClient) -> str:
    return str((await api.post("/api/v1/sessions", json={})).json()["id"])


async def add(api: httpx.AsyncClient, project: str, layer_id: str, name: str) -> httpx.Response:
    action = {"type": "add_geojson_layer", "layer_id": layer_id, "geojson": POINTS, "name": name}
    return await api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": [action]})


async def test_two_accounts_may_use_the_same_layer_id(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    shared = str(uuid.uuid4())
    mine = await new_project(api)
    assert (await add(api, mine, shared, "Mine")).status_code == 200
    async with http_client(app, make_key(email=OTHER)) as other:
        theirs = await new_project(other)
        response = await add(other, theirs, shared, "Theirs")
        assert response.status_code == 200, response.text
        assert response.json()["layers"][0]["layer_id"] == shared
        # Every layer route resolves the id inside the path's project.
        base = f"/api/v1/sessions/{mine}/layers/{shared}"
        for request in (
            other.get(base),
            other.patch(base, json={"name": "stolen"}),
            other.put(f"{base}/style", json={"renderer": {"paint": {"circle-radius": 9}}}),
            other.delete(base),
            other.get(f"{base}/data"),
        ):
            assert_error(await request, 404, "not_found")
        renamed = await other.patch(
            f"/api/v1/sessions/{theirs}/layers/{shared}", json={"name": "Renamed"}
        )
        assert renamed.status_code == 200
        assert (await other.delete(f"/api/v1/sessions/{theirs}/layers/{shared}")).status_code == 200
        # Adding an id that exists in *another* project is not a clash: same answer as a fresh id.
        again = await add(other, theirs, shared, "Again")
        assert again.status_code == 200
    detail = (await api.get(f"/api/v1/sessions/{mine}/layers/{shared}")).json()
    assert (detail["name"], detail["feature_count"]) == ("Mine", 3)


async def test_the_same_id_twice_in_one_project_is_a_400(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    shared = str(uuid.uuid4())
    assert (await add(api, project, shared, "First")).status_code == 200
    response = await add(api, project, shared, "Second")
    assert_error(response, 400, "bad_request")
    assert response.json()["error"]["details"][0]["path"] == "actions[0].layer_id"


async def test_named_refs_map_to_each_projects_own_layer(api: httpx.AsyncClient) -> None:
    first, second = await new_project(api), await new_project(api)
    for project in (first, second):
        response = await add(api, project, "cities", "Cities")
        assert response.json()["layers"][0]["layer_id"] == actions.layer_uuid(project, "cities")
    assert actions.layer_uuid(first, "cities") != actions.layer_uuid(second, "cities")


async def test_a_fork_copies_layers_that_then_live_apart(api: httpx.AsyncClient) -> None:
    source = await new_project(api)
    await add(api, source, "cities", "Cities")
    fork = (await api.post(f"/api/v1/sessions/{source}/fork", json={})).json()
    layer = fork["layers"][0]["layer_id"]
    await api.patch(f"/api/v1/sessions/{fork['id']}/layers/{layer}", json={"name": "Forked"})
    original = (await api.get(f"/api/v1/sessions/{source}/layers")).json()["data"][0]
    assert original["name"] == "Cities"
