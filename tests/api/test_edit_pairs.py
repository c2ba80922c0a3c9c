"""Every REST edit and the map action that does the same thing share one implementation
(docs/actions.md): the same bad input gets the same message, the same good input stores the same
state, and both publish the same events on the live stream."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from maproom.domain.links import log_since
from tests import makers

pytestmark = pytest.mark.anyio

Api = httpx.AsyncClient
Rest = Callable[[Api, str, str], Awaitable[httpx.Response]]


@dataclass
class Pair:
    """A REST edit and its action, for one input."""

    name: str
    rest: Rest  # (api, project, layer) -> response
    action: dict[str, Any]  # "{layer}" and "{bottom}" stand for the project's two layers
    before: tuple[dict[str, Any], ...] = ()  # actions applied to both projects first


def patch_map(body: dict[str, Any]) -> Rest:
    async def call(api: Api, project: str, layer: str) -> httpx.Response:
        return await api.patch(f"/api/v1/sessions/{project}", json={"mapState": body})

    return call


def patch_layer(body: dict[str, Any]) -> Rest:
    async def call(api: Api, project: str, layer: str) -> httpx.Response:
        return await api.patch(f"/api/v1/sessions/{project}/layers/{layer}", json=body)

    return call


def put_style(body: dict[str, Any]) -> Rest:
    async def call(api: Api, project: str, layer: str) -> httpx.Response:
        return await api.put(f"/api/v1/sessions/{project}/layers/{layer}/style", json=body)

    return call


async def delete_layer(api: Api, project: str, layer: str) -> httpx.Response:
    return await api.delete(f"/api/v1/sessions/{project}/layers/{layer}")


async def reorder_bottom_up(api: Api, project: str, layer: str) -> httpx.Response:
    ids = [item["layer_id"] for item in await layer_items(api, project)]
    return await api.put(f"/api/v1/sessions/{project}/layers/order", json={"layer_ids": ids[::-1]})


# A whole style: the endpoint merges it into the default, the action replaces the default with
# it; for a whole style both store the same.
GRADUATED = {
    "renderer": {"type": "graduated", "field": "population", "method": "quantile", "classes": 3},
    "label": {"visible": False},
    "legend": {"visible": True},
}
MASK = {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}
POINT = {"type": "Point", "coordinates": [0, 0]}
ROADS_OFF = {"roads": {"visible": False}}

GOOD = [
    Pair("center", patch_map({"center": [2.35, 48.86], "zoom": 9}),
         {"type": "jump_to", "center": [2.35, 48.86], "zoom": 9, "bearing": 0, "pitch": 0}),
    Pair("bearing and pitch", patch_map({"bearing": 190, "pitch": 30}),
         {"type": "jump_to", "center": [0, 20], "zoom": 1.5, "bearing": 190, "pitch": 30}),
    Pair("basemap", patch_map({"basemap": {"style": "dark", "categories": ROADS_OFF}}),
         {"type": "set_basemap_style", "style": "dark", "categories": ROADS_OFF}),
    Pair("country mask", patch_map({"countryMask": {"countryCode": "pt", "color": "#112233"}}),
         {"type": "set_country_mask", "country_code": "pt", "color": "#112233"}),
    Pair("country mask off", patch_map({"countryMask": None}),
         {"type": "set_country_mask", "country_code": None},
         ({"type": "set_country_mask", "country_code": "FR"},)),
    Pair("custom mask", patch_map({"customMask": {"geojson": MASK}}),
         {"type": "set_custom_mask", "geojson": MASK}),
    Pair("custom mask off", patch_map({"customMask": None}), {"type": "set_custom_mask"},
         ({"type": "set_custom_mask", "geojson": MASK},)),
    Pair("rename", patch_layer({"name": "Capitals"}),
         {"type": "rename_layer", "layer_id": "{layer}", "name": "Capitals"}),
    Pair("hide", patch_layer({"visible": False}),
         {"type": "set_layer_visibility", "layer_id": "{layer}", "visible": False}),
    Pair("delete", delete_layer, {"type": "remove_layer", "layer_id": "{layer}"}),
    Pair("reorder", reorder_bottom_up,
         {"type": "reorder_layers", "layer_ids": ["{bottom}", "{layer}"]}),
    Pair("classify", put_style(GRADUATED),
         {"type": "update_layer_style", "layer_id": "{layer}", "style": GRADUATED}),
]  # fmt: skip

BAD = [
    Pair("latitude", patch_map({"center": [0, 89]}), {"type": "fly_to", "center": [0, 89]}),
    Pair("longitude", patch_map({"center": [181, 0]}), {"type": "jump_to", "center": [181, 0]}),
    Pair("zoom", patch_map({"center": [0, 0], "zoom": 25}),
         {"type": "fly_to", "center": [0, 0], "zoom": 25}),
    Pair("pitch", patch_map({"center": [0, 0], "pitch": 86}),
         {"type": "fly_to", "center": [0, 0], "pitch": 86}),
    Pair("zoom type", patch_map({"center": [0, 0], "zoom": "9"}),
         {"type": "jump_to", "center": [0, 0], "zoom": "9"}),
    Pair("basemap style", patch_map({"basemap": {"style": "neon"}}),
         {"type": "set_basemap_style", "style": "neon"}),
    Pair("basemap URL", patch_map({"basemap": {"style": "http://127.0.0.1/style.json"}}),
         {"type": "set_basemap_style", "style": "http://127.0.0.1/style.json"}),
    Pair("country code", patch_map({"countryMask": {"countryCode": "XX"}}),
         {"type": "set_country_mask", "country_code": "XX"}),
    Pair("mask colour", patch_map({"countryMask": {"countryCode": "PT", "color": "red"}}),
         {"type": "set_country_mask", "country_code": "PT", "color": "red"}),
    Pair("mask shape", patch_map({"customMask": {"geojson": POINT}}),
         {"type": "set_custom_mask", "geojson": POINT}),
    Pair("empty name", patch_layer({"name": ""}),
         {"type": "rename_layer", "layer_id": "{layer}", "name": ""}),
    Pair("long name", patch_layer({"name": "x" * 201}),
         {"type": "rename_layer", "layer_id": "{layer}", "name": "x" * 201}),
    Pair("visible type", patch_layer({"visible": "no"}),
         {"type": "set_layer_visibility", "layer_id": "{layer}", "visible": "no"}),
    Pair("paint bound", put_style({"renderer": {"type": "single", "paint": {"circle-radius": -1}}}),
         {"type": "update_layer_style", "layer_id": "{layer}",
          "style": {"renderer": {"type": "single", "paint": {"circle-radius": -1}}}}),
    Pair("unknown field", put_style({"renderer": {"type": "graduated", "field": "popu"}}),
         {"type": "update_layer_style", "layer_id": "{layer}",
          "style": {"renderer": {"type": "graduated", "field": "popu"}}}),
    Pair("text field", put_style({"renderer": {"type": "graduated", "field": "name"}}),
         {"type": "update_layer_style", "layer_id": "{layer}",
          "style": {"renderer": {"type": "graduated", "field": "name"}}}),
]  # fmt: skip


async def layer_items(api: Api, project: str) -> list[dict[str, Any]]:
    return list((await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"])


async def fresh_project(api: Api) -> tuple[str, dict[str, str]]:
    """A project with two uploaded point layers; returns it and its `{layer}` (the top one)
    and `{bottom}` ids."""
    project = (await api.post("/api/v1/sessions", json={"title": "pairs"})).json()["id"]
    for name in ("a.geojson", "b.geojson"):
        upload = await api.post(
            f"/api/v1/sessions/{project}/files", files={"file": (name, makers.geojson_points())}
        )
        assert upload.status_code == 201, upload.text
    top, bottom = [item["layer_id"] for item in await layer_items(api, project)]
    return project, {"{layer}": top, "{bottom}": bottom}


def with_layers(value: Any, ids: dict[str, str]) -> Any:
    """`value` with every string that `ids` names replaced."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, dict):
        return {k: with_layers(v, ids) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [with_layers(v, ids) for v in value]
    return value


async def act(api: Api, project: str, action: dict[str, Any]) -> httpx.Response:
    return await api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": [action]})


async def stored(api: Api, project: str) -> dict[str, Any]:
    """What a project stores, without what differs between two projects by nature."""
    body = (await api.get(f"/api/v1/sessions/{project}/map")).json()
    layers = [
        {k: v for k, v in layer.items() if k not in ("layer_id", "file_id", "url", "createdAt",
                                                     "updatedAt")}
        for layer in body["layers"]
    ]  # fmt: skip
    return {"mapState": body["mapState"], "layers": layers}


def events_after(app: FastAPI, project: str, after: int) -> list[tuple[str, dict[str, Any]]]:
    logged = log_since(app.state.services.db, project, after, 100)
    return [(kind, payload) for _, kind, payload in logged]


def last_id(app: FastAPI, project: str) -> int:
    logged = log_since(app.state.services.db, project, 0, 1000)
    return logged[-1][0] if logged else 0


@pytest.mark.parametrize("pair", GOOD, ids=[pair.name for pair in GOOD])
async def test_same_good_input_stores_the_same_state(app: FastAPI, api: Api, pair: Pair) -> None:
    by_rest, rest_ids = await fresh_project(api)
    by_action, action_ids = await fresh_project(api)
    for project, ids in ((by_rest, rest_ids), (by_action, action_ids)):
        for before in pair.before:
            assert (await act(api, project, with_layers(before, ids))).status_code == 200
    rest_mark, action_mark = last_id(app, by_rest), last_id(app, by_action)

    rest = await pair.rest(api, by_rest, rest_ids["{layer}"])
    assert rest.status_code == 200, rest.text
    action = await act(api, by_action, with_layers(pair.action, action_ids))
    assert action.status_code == 200, action.text

    assert await stored(api, by_rest) == await stored(api, by_action)
    rest_events = events_after(app, by_rest, rest_mark)
    action_events = events_after(app, by_action, action_mark)
    assert [(kind, payload["type"]) for kind, payload in rest_events] == [
        ("action", pair.action["type"])
    ]
    assert with_layers(rest_events, {v: k for k, v in rest_ids.items()}) == with_layers(
        action_events, {v: k for k, v in action_ids.items()}
    )


@pytest.mark.parametrize("pair", BAD, ids=[pair.name for pair in BAD])
async def test_same_bad_input_gets_the_same_message(app: FastAPI, api: Api, pair: Pair) -> None:
    project, ids = await fresh_project(api)
    before = await stored(api, project)
    mark = last_id(app, project)

    rest = await pair.rest(api, project, ids["{layer}"])
    action = await act(api, project, with_layers(pair.action, ids))

    assert (rest.status_code, action.status_code) == (400, 400), (rest.text, action.text)
    rest_details = rest.json()["error"]["details"]
    action_details = action.json()["error"]["details"]
    assert [d["message"] for d in rest_details] == [d["message"] for d in action_details]
    assert all(d["path"].startswith("actions[0].") for d in action_details)
    assert await stored(api, project) == before
    assert events_after(app, project, mark) == []


@pytest.mark.parametrize("move", ["move_layer_up", "move_layer_down"])
async def test_moving_a_layer_stores_what_a_reorder_stores(api: Api, move: str) -> None:
    by_rest, rest_ids = await fresh_project(api)
    by_action, action_ids = await fresh_project(api)
    assert (await reorder_bottom_up(api, by_rest, rest_ids["{layer}"])).status_code == 200
    layer = action_ids["{layer}" if move == "move_layer_down" else "{bottom}"]
    assert (await act(api, by_action, {"type": move, "layer_id": layer})).status_code == 200
    assert await stored(api, by_rest) == await stored(api, by_action)
