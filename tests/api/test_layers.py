"""Layers over HTTP: detail, patch, delete, reorder rules, style merges, data and ETags."""

from __future__ import annotations

import httpx
import orjson
import pytest
from fastapi import FastAPI

from tests import makers
from tests.support import KeyMaker, assert_error, detail_paths, http_client

pytestmark = pytest.mark.anyio


async def project_with_layers(api: httpx.AsyncClient, n: int) -> tuple[str, list[str]]:
    """A project with `n` uploaded layers; ids returned top first (newest on top)."""
    project = (await api.post("/api/v1/sessions", json={})).json()["id"]
    ids = []
    for i in range(n):
        response = await api.post(
            f"/api/v1/sessions/{project}/files",
            files={"file": (f"l{i}.geojson", makers.geojson_points())},
        )
        assert response.status_code == 201, response.text
        ids.append(response.json()["layer"]["layer_id"])
    return project, ids[::-1]


async def order(api: httpx.AsyncClient, project: str) -> list[str]:
    listed = (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"]
    return [item["layer_id"] for item in listed]


async def test_detail_has_order_style_and_legend(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 2)
    response = await api.get(f"/api/v1/sessions/{project}/layers/{ids[1]}")
    assert response.status_code == 200
    assert response.headers["etag"] == '"1"'
    detail = response.json()
    assert detail["order"] == 1
    assert detail["style"]["renderer"]["type"] == "single"
    assert detail["legendItems"] and "paint" in detail["legendItems"][0]
    assert detail["createdAt"].endswith("Z")


async def test_patch_renames_and_hides(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 1)
    url = f"/api/v1/sessions/{project}/layers/{ids[0]}"
    response = await api.patch(url, json={"name": "Cities", "visible": False})
    assert response.status_code == 200, response.text
    assert (response.json()["name"], response.json()["visible"]) == ("Cities", False)
    assert response.headers["etag"] == '"2"'
    stale = await api.patch(url, json={"visible": True}, headers={"If-Match": '"1"'})
    assert_error(stale, 412, "precondition_failed")
    assert (await api.get(url)).json()["visible"] is False
    fresh = await api.patch(url, json={"visible": True}, headers={"If-Match": '"2"'})
    assert fresh.json()["visible"] is True
    assert detail_paths(await api.patch(url, json={"name": ""})) == ["name"]
    assert detail_paths(await api.patch(url, json={"visible": "yes"})) == ["visible"]


async def test_layer_changes_move_the_project_etag(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 1)
    before = (await api.get(f"/api/v1/sessions/{project}")).headers["etag"]
    await api.patch(f"/api/v1/sessions/{project}/layers/{ids[0]}", json={"name": "N"})
    after = (await api.get(f"/api/v1/sessions/{project}")).headers["etag"]
    assert after != before


async def test_delete_layer_keeps_its_file(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 1)
    response = await api.delete(f"/api/v1/sessions/{project}/layers/{ids[0]}")
    assert response.json() == {"ok": True}
    assert await order(api, project) == []
    files = (await api.get(f"/api/v1/sessions/{project}/files")).json()["data"]
    assert len(files) == 1
    assert files[0]["layerIds"] == []
    missing = await api.delete(f"/api/v1/sessions/{project}/layers/{ids[0]}")
    assert_error(missing, 404, "not_found")


async def test_reorder_puts_the_first_id_on_top(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 3)
    wanted = [ids[2], ids[0], ids[1]]
    response = await api.put(f"/api/v1/sessions/{project}/layers/order", json={"layer_ids": wanted})
    assert response.json() == {"ok": True}
    assert await order(api, project) == wanted
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{ids[2]}")).json()
    assert detail["order"] == 0


@pytest.mark.parametrize(
    ("make", "paths"),
    [
        (lambda ids: [], ["layer_ids"]),
        (lambda ids: [ids[0], ids[0], ids[1]], ["layer_ids[1]", "layer_ids"]),
        (lambda ids: ids[:2], ["layer_ids"]),
        (lambda ids: [*ids, "5f0c6d52-3f55-4b8e-9d43-2a7e0f0b8c11"], ["layer_ids[3]"]),
        (lambda ids: [ids[0], ids[1], "not-a-uuid"], ["layer_ids[2]", "layer_ids"]),
    ],
    ids=["empty", "duplicate", "missing", "foreign", "garbage"],
)
async def test_reorder_refuses_non_permutations_atomically(
    api: httpx.AsyncClient, make: object, paths: list[str]
) -> None:
    project, ids = await project_with_layers(api, 3)
    etag = (await api.get(f"/api/v1/sessions/{project}")).headers["etag"]
    body = {"layer_ids": make(ids)}  # type: ignore[operator]
    response = await api.put(f"/api/v1/sessions/{project}/layers/order", json=body)
    assert detail_paths(response) == paths
    assert await order(api, project) == ids
    assert (await api.get(f"/api/v1/sessions/{project}")).headers["etag"] == etag


async def test_reorder_refuses_another_projects_layer(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 2)
    _, others = await project_with_layers(api, 1)
    body = {"layer_ids": [ids[0], others[0]]}
    response = await api.put(f"/api/v1/sessions/{project}/layers/order", json=body)
    assert detail_paths(response) == ["layer_ids[1]", "layer_ids"]


async def test_reorder_honours_the_project_etag(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 2)
    url = f"/api/v1/sessions/{project}/layers/order"
    stale = await api.put(url, json={"layer_ids": ids[::-1]}, headers={"If-Match": '"1"'})
    assert_error(stale, 412, "precondition_failed")
    etag = (await api.get(f"/api/v1/sessions/{project}")).headers["etag"]
    fresh = await api.put(url, json={"layer_ids": ids[::-1]}, headers={"If-Match": etag})
    assert fresh.status_code == 200


async def test_style_put_merges_and_answers_the_whole_style(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 1)
    url = f"/api/v1/sessions/{project}/layers/{ids[0]}/style"
    before = (await api.get(f"/api/v1/sessions/{project}/layers/{ids[0]}")).json()["style"]
    response = await api.put(url, json={"renderer": {"paint": {"circle-color": "#ff0000"}}})
    assert response.status_code == 200, response.text
    style = response.json()
    assert style["renderer"]["type"] == before["renderer"]["type"]
    assert style["renderer"]["paint"]["circle-color"] == "#ff0000"
    for key, value in before["renderer"]["paint"].items():
        if key != "circle-color":
            assert style["renderer"]["paint"][key] == value
    bad = await api.put(url, json={"renderer": {"paint": {"circle-radius": -1}}})
    assert detail_paths(bad) == ["renderer.paint.circle-radius"]
    assert (await api.get(f"/api/v1/sessions/{project}/layers/{ids[0]}")).json()["style"] == style
    extra = await api.put(url, json={"renderer": {"paint": {"circle-glow": 1}}})
    assert detail_paths(extra) == ["renderer.paint.circle-glow"]


async def test_style_put_keeps_meta_and_merges_label_and_legend(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 1)
    url = f"/api/v1/sessions/{project}/layers/{ids[0]}/style"
    before = (await api.get(f"/api/v1/sessions/{project}/layers/{ids[0]}")).json()["style"]
    response = await api.put(
        url,
        json={"_meta": {"generatedBy": "me"}, "label": {"field": "name"}, "legend": {"title": "T"}},
    )
    style = response.json()
    assert style["_meta"] == before["_meta"]
    assert style["label"] == {**before["label"], "field": "name"}
    assert style["legend"] == {**before["legend"], "title": "T"}
    assert style["renderer"] == before["renderer"]
    assert (await api.put(url, json={})).json() == style
    assert_error(await api.put(url, content=b"[1]"), 400, "bad_request")


async def test_style_type_change_replaces_the_renderer(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 1)
    url = f"/api/v1/sessions/{project}/layers/{ids[0]}/style"
    renderer = {
        "type": "categorized",
        "field": "name",
        "categories": [{"value": "Paris", "paint": {"circle-color": "#0000ff"}}],
    }
    style = (await api.put(url, json={"renderer": renderer})).json()
    assert style["renderer"]["type"] == "categorized"
    assert style["renderer"]["categories"][0]["value"] == "Paris"
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{ids[0]}")).json()
    assert [item["label"] for item in detail["legendItems"]][:1] == ["Paris"]


async def test_layer_data_is_the_geojson(api: httpx.AsyncClient) -> None:
    project, ids = await project_with_layers(api, 1)
    detail = (await api.get(f"/api/v1/sessions/{project}/layers/{ids[0]}")).json()
    response = await api.get(detail["url"].removeprefix("http://testserver"))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/geo+json")
    collection = orjson.loads(response.content)
    assert collection["type"] == "FeatureCollection"
    names = [f["properties"]["name"] for f in collection["features"]]
    assert names == ["Lisbon", "Paris", "Berlin"]


async def test_layers_need_the_layers_scope(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    project, _ = await project_with_layers(api, 1)
    async with http_client(app, make_key(scopes=["files"])) as files_only:
        response = await files_only.get(f"/api/v1/sessions/{project}/layers")
        error = assert_error(response, 403, "forbidden")
        assert error["details"] == {"requiredScopes": ["layers"]}
        assets = await files_only.get(f"/api/v1/sessions/{project}/assets")
        assert assets.status_code == 200
    async with http_client(app, make_key(scopes=["layers"])) as layers_only:
        assert (await layers_only.get(f"/api/v1/sessions/{project}/assets")).status_code == 200
        upload = await layers_only.post(
            f"/api/v1/sessions/{project}/files", files={"file": ("a.txt", b"a")}
        )
        assert_error(upload, 403, "forbidden")
    async with http_client(app, make_key(scopes=["session"])) as session_only:
        assets = await session_only.get(f"/api/v1/sessions/{project}/assets")
        assert assert_error(assets, 403, "forbidden")["details"] == {
            "requiredScopes": ["files", "layers"]
        }


async def test_other_accounts_layers_are_not_found(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    project, ids = await project_with_layers(api, 1)
    async with http_client(app, make_key("other@example.com")) as other:
        base = f"/api/v1/sessions/{project}/layers"
        for response in (
            await other.get(base),
            await other.get(f"{base}/{ids[0]}"),
            await other.patch(f"{base}/{ids[0]}", json={"name": "x"}),
            await other.delete(f"{base}/{ids[0]}"),
            await other.put(f"{base}/order", json={"layer_ids": ids}),
            await other.put(f"{base}/{ids[0]}/style", json={"renderer": {}}),
        ):
            assert_error(response, 404, "not_found")
    assert await order(api, project) == ids
