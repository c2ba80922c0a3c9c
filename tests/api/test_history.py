"""History, restore, undo and redo over HTTP (docs/history.md), on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests import makers
from tests.support import AppFactory, assert_error, create_project, http_client, new_key

pytestmark = pytest.mark.anyio

POINT = {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]},
         "properties": {"name": "a"}}  # fmt: skip


async def act(api: httpx.AsyncClient, project: str, *actions: dict[str, Any]) -> httpx.Response:
    return await api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": actions})


async def history(api: httpx.AsyncClient, project: str, **params: Any) -> dict[str, Any]:
    response = await api.get(f"/api/v1/sessions/{project}/history", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def newest(api: httpx.AsyncClient, project: str) -> dict[str, Any]:
    return dict((await history(api, project, limit=1))["data"][0])


async def layer_names(api: httpx.AsyncClient, project: str) -> list[str]:
    listed = (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"]
    return [layer["name"] for layer in listed]


async def test_every_kind_of_change_is_one_version(api: httpx.AsyncClient) -> None:
    project = (await create_project(api, title="Trip"))["id"]
    entries = [await newest(api, project)]
    await api.patch(f"/api/v1/sessions/{project}", json={"title": "Trip 2"})
    entries.append(await newest(api, project))
    await act(api, project, {"type": "add_geojson_layer", "layer_id": "a", "name": "Cafes",
                             "geojson": POINT})  # fmt: skip
    entries.append(await newest(api, project))
    await act(api, project, {"type": "fly_to", "center": [-9.14, 38.72], "zoom": 9},
              {"type": "set_layer_visibility", "layer_id": "a", "visible": False})  # fmt: skip
    entries.append(await newest(api, project))
    uploaded = await api.post(f"/api/v1/sessions/{project}/files",
                              files={"file": ("cities.csv", makers.csv_latlon())})  # fmt: skip
    entries.append(await newest(api, project))
    await api.delete(f"/api/v1/sessions/{project}/files/{uploaded.json()['id']}")
    entries.append(await newest(api, project))
    await api.post(f"/api/v1/sessions/{project}/chat", json={"message": "zoom in"})
    entries.append(await newest(api, project))
    await api.post(f"/api/v1/sessions/{project}/history/3/restore")
    entries.append(await newest(api, project))

    summaries = [e["summary"] for e in entries]
    assert summaries[0] == "Created the project"
    assert summaries[1] == "Renamed the project to Trip 2"
    assert summaries[2] == "Added layer Cafes"
    assert summaries[3] == "Flew to 38.72° N, 9.14° W; hid Cafes"
    assert summaries[4] == "Added layer cities"
    assert summaries[5] == "Deleted file cities.csv"
    assert summaries[6].startswith("Zoomed in")
    assert summaries[7] == "Restored version 3"
    assert [e["actor"]["via"] for e in entries] == [
        "api", "api", "actions", "actions", "api", "api", "chat", "restore"
    ]  # fmt: skip
    assert {e["actor"]["accountEmail"] for e in entries} == {"owner@example.com"}
    assert all(e["actor"]["keyId"] for e in entries)
    versions = [e["version"] for e in entries]
    assert versions == sorted(set(versions))
    assert entries[3]["actions"] == [
        {"type": "fly_to", "center": [-9.14, 38.72], "zoom": 9},
        {"type": "set_layer_visibility", "layer_id": entries[3]["actions"][1]["layer_id"],
         "visible": False},
    ]  # fmt: skip
    project_version = int((await api.get(f"/api/v1/sessions/{project}")).headers["etag"][1:-1])
    assert versions[-1] == project_version


async def test_history_pages_and_past_versions(api: httpx.AsyncClient) -> None:
    project = (await create_project(api))["id"]
    for zoom in range(2, 9):
        await act(api, project, {"type": "jump_to", "center": [0, 0], "zoom": zoom})
    first = await history(api, project, limit=3)
    assert [e["version"] for e in first["data"]] == [8, 7, 6]
    second = await history(api, project, limit=3, cursor=first["meta"]["nextCursor"])
    assert [e["version"] for e in second["data"]] == [5, 4, 3]
    third = await history(api, project, limit=3, cursor=second["meta"]["nextCursor"])
    assert [e["version"] for e in third["data"]] == [2, 1]
    assert third["meta"]["nextCursor"] is None

    past = (await api.get(f"/api/v1/sessions/{project}/history/4")).json()
    assert (past["version"], past["mapState"]["zoom"], past["layers"]) == (4, 4, [])
    assert past["title"] == "Untitled map"
    for unknown in ("99", "0", "abc"):
        response = await api.get(f"/api/v1/sessions/{project}/history/{unknown}")
        assert_error(response, 404, "not_found")
        restore = await api.post(f"/api/v1/sessions/{project}/history/{unknown}/restore")
        assert_error(restore, 404, "not_found")


async def test_a_restore_brings_a_removed_layer_back_whole(api: httpx.AsyncClient) -> None:
    project = (await create_project(api))["id"]
    made = await api.post(f"/api/v1/sessions/{project}/files",
                          files={"file": ("cities.geojson", makers.geojson_points())})  # fmt: skip
    layer = made.json()["layer"]["layer_id"]
    style = {"renderer": {"type": "graduated", "field": "population", "classes": 3}}
    styled = await api.put(f"/api/v1/sessions/{project}/layers/{layer}/style", json=style)
    assert styled.status_code == 200
    await act(api, project, {"type": "fly_to", "center": [2, 48], "zoom": 5})
    kept = await newest(api, project)
    data = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).content
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()

    await act(api, project, {"type": "remove_layer", "layer_id": layer},
              {"type": "fly_to", "center": [10, 10], "zoom": 2})  # fmt: skip
    assert await layer_names(api, project) == []
    restored = await api.post(f"/api/v1/sessions/{project}/history/{kept['version']}/restore")
    assert restored.status_code == 200, restored.text
    body = restored.json()
    assert (body["restoredVersion"], body["missingLayers"]) == (kept["version"], [])
    assert body["mapState"]["center"] == [2, 48]
    assert restored.headers["etag"] == f'"{body["version"]}"'
    again = (await api.get(f"/api/v1/sessions/{project}/layers/{layer}")).json()
    for key in ("name", "style", "fields", "bbox", "file_id", "feature_count", "legendItems"):
        assert again[key] == detail[key], key
    assert (await api.get(f"/api/v1/sessions/{project}/layers/{layer}/data")).content == data
    latest = await newest(api, project)
    assert (latest["kind"], latest["target"], latest["summary"]) == (
        "restore",
        kept["version"],
        f"Restored version {kept['version']}",
    )


async def test_a_restore_lists_layers_whose_file_was_deleted(api: httpx.AsyncClient) -> None:
    project = (await create_project(api))["id"]
    made = await api.post(f"/api/v1/sessions/{project}/files",
                          files={"file": ("cities.csv", makers.csv_latlon())})  # fmt: skip
    await act(api, project, {"type": "add_geojson_layer", "layer_id": "b", "name": "Mine",
                             "geojson": POINT})  # fmt: skip
    kept = await newest(api, project)
    await api.delete(f"/api/v1/sessions/{project}/files/{made.json()['id']}")
    await act(api, project, {"type": "remove_layer", "layer_id": "b"})
    restored = await api.post(f"/api/v1/sessions/{project}/history/{kept['version']}/restore")
    assert restored.status_code == 200, restored.text
    missing = restored.json()["missingLayers"]
    assert missing == [{"layer_id": made.json()["layer"]["layer_id"], "name": "cities"}]
    assert await layer_names(api, project) == ["Mine"]


async def test_undo_twice_then_redo_once(api: httpx.AsyncClient) -> None:
    project = (await create_project(api))["id"]
    await act(api, project, {"type": "add_geojson_layer", "layer_id": "a", "name": "A",
                             "geojson": POINT})  # fmt: skip
    await act(api, project, {"type": "rename_layer", "layer_id": "a", "name": "B"})
    await act(api, project, {"type": "fly_to", "center": [5, 5], "zoom": 7})

    assert (await act(api, project, {"type": "undo"})).status_code == 200
    view = (await api.get(f"/api/v1/sessions/{project}/map")).json()
    assert (view["mapState"]["zoom"], await layer_names(api, project)) == (1.5, ["B"])
    assert (await act(api, project, {"type": "undo"})).status_code == 200
    assert await layer_names(api, project) == ["A"]  # the rename, not the undo before it
    assert (await act(api, project, {"type": "redo"})).status_code == 200
    view = (await api.get(f"/api/v1/sessions/{project}/map")).json()
    assert (view["mapState"]["zoom"], await layer_names(api, project)) == (1.5, ["B"])
    assert (await act(api, project, {"type": "redo"})).status_code == 200
    view = (await api.get(f"/api/v1/sessions/{project}/map")).json()
    assert view["mapState"]["center"] == [5, 5]
    assert_error(await act(api, project, {"type": "redo"}), 400, "bad_request")

    entries = (await history(api, project, limit=4))["data"]
    assert [e["kind"] for e in entries] == ["redo", "redo", "undo", "undo"]
    # A new change after an undo ends what can be redone.
    await act(api, project, {"type": "undo"})
    await act(api, project, {"type": "zoom_in"})
    assert_error(await act(api, project, {"type": "redo"}), 400, "bad_request")
    # Undo walks back: the zoom, the rename (redone), the layer; then nothing is left.
    for _ in range(3):
        assert (await act(api, project, {"type": "undo"})).status_code == 200
    assert await layer_names(api, project) == []
    error = assert_error(await act(api, project, {"type": "undo"}), 400, "bad_request")
    assert "Nothing to undo" in error["message"]


async def test_undo_stands_alone_in_its_batch(api: httpx.AsyncClient) -> None:
    project = (await create_project(api))["id"]
    response = await act(api, project, {"type": "zoom_in"}, {"type": "undo"})
    error = assert_error(response, 400, "bad_request")
    assert error["details"][0]["path"] == "actions[1]"


async def test_undo_after_a_chat_turn(api: httpx.AsyncClient) -> None:
    project = (await create_project(api))["id"]
    before = (await api.get(f"/api/v1/sessions/{project}/map")).json()["mapState"]
    turn = await api.post(f"/api/v1/sessions/{project}/chat", json={"message": "fly to Lisbon"})
    assert turn.status_code == 200 and turn.json()["actions"], turn.text
    await act(api, project, {"type": "undo"})
    after = (await api.get(f"/api/v1/sessions/{project}/map")).json()["mapState"]
    assert after == before


async def test_retention_lets_old_data_go(app_factory: AppFactory) -> None:
    """Three versions kept: a removed layer's data goes once no kept version refers to it,
    and `/usage` goes down; an upload's file stays (it is the user's)."""
    async with app_factory(history_versions=3) as app, http_client(app, new_key(app)) as api:
        project = (await create_project(api))["id"]
        await api.post(f"/api/v1/sessions/{project}/files",
                       files={"file": ("kept.csv", makers.csv_latlon())})  # fmt: skip
        big = {"type": "FeatureCollection", "features": [POINT] * 2000}
        made = await act(
            api, project, {"type": "add_geojson_layer", "layer_id": "x", "geojson": big}
        )
        layer = made.json()["layers"][0]["layer_id"]
        # The tile index is built after the answer; a tile waits for it, so it is counted.
        tile = await api.get(f"/api/v1/sessions/{project}/layers/{layer}/tiles/0/0/0.pbf")
        assert tile.status_code in (200, 204), tile.text
        with_layer = (await api.get("/api/v1/usage")).json()["storage"]["usedBytes"]
        await act(api, project, {"type": "remove_layer", "layer_id": "x"})
        assert (await api.get("/api/v1/usage")).json()["storage"]["usedBytes"] == with_layer
        for zoom in (2, 3, 4):
            await act(api, project, {"type": "jump_to", "center": [0, 0], "zoom": zoom})
        entries = (await history(api, project))["data"]
        assert len(entries) == 3
        after = (await api.get("/api/v1/usage")).json()["storage"]["usedBytes"]
        assert after < with_layer - 50_000
        files = (await api.get(f"/api/v1/sessions/{project}/files")).json()["data"]
        assert [f["fileName"] for f in files] == ["kept.csv"]
        gone = entries[-1]["version"] - 1
        response = await api.get(f"/api/v1/sessions/{project}/history/{gone}")
        assert_error(response, 404, "not_found")


async def test_history_of_another_account_is_404(app: FastAPI, api: httpx.AsyncClient) -> None:
    project = (await create_project(api))["id"]
    async with http_client(app, new_key(app, email="stranger@example.com")) as stranger:
        for path in ("history", "history/1"):
            response = await stranger.get(f"/api/v1/sessions/{project}/{path}")
            assert_error(response, 404, "not_found")
        response = await stranger.post(f"/api/v1/sessions/{project}/history/1/restore")
        assert_error(response, 404, "not_found")
