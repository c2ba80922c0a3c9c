"""The project as a MapLibre style and its layers' TileJSON, over HTTP (docs/open-formats.md):
what the compiled style holds, that its sources answer to the same key or view link, the
basemaps (a networked one fetched from a real server on loopback, and the fallback)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import shapely
from fastapi import FastAPI
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

from tests import makers
from tests.api.test_analysis import act, world
from tests.serving import free_port, serving
from tests.support import AppFactory, assert_error, http_client, new_key

pytestmark = pytest.mark.anyio


def ids_of(style: dict[str, Any]) -> list[str]:
    return [layer["id"] for layer in style["layers"]]


def layer(style: dict[str, Any], ident: str) -> dict[str, Any]:
    return next(found for found in style["layers"] if found["id"] == ident)


async def test_the_style_draws_the_project_in_order(api: httpx.AsyncClient) -> None:
    project, ids = await world(api)
    made = await act(
        api, project,
        {"type": "set_basemap_style", "style": "offline"},
        {"type": "set_country_mask", "country_code": "PT"},
        {"type": "set_layer_visibility", "layer_id": ids["sites"], "visible": False},
        {"type": "set_layer_filter", "layer_id": ids["cities"],
         "filter": {"field": "population", "op": ">", "value": 10_000_000}},
        {"type": "update_layer_style", "layer_id": ids["districts"],
         "style": {"renderer": {"type": "graduated", "field": "value", "method": "quantile",
                                "classes": 3}}},
        {"type": "update_layer_style", "layer_id": ids["rivers"],
         "style": {"renderer": {"type": "single",
                                "paint": {"line-color": "#ff0000", "line-width": 4}}}},
        {"type": "fly_to", "center": [-9.1, 38.7], "zoom": 6, "bearing": 30, "pitch": 20},
    )  # fmt: skip
    assert made.status_code == 200, made.text
    response = await api.get(f"/api/v1/sessions/{project}/style.json")
    assert response.status_code == 200, response.text
    style = response.json()
    assert style["version"] == 8
    assert (style["center"], style["zoom"], style["bearing"], style["pitch"]) == (
        [-9.1, 38.7], 6, 30, 20,
    )  # fmt: skip
    order = ids_of(style)
    # The offline basemap, the mask beneath the data, the layers bottom first.
    assert order[:3] == ["water", "land", "boundaries"]
    assert order[3:5] == ["mr-mask-country", "mr-mask-country-outline"]
    rivers, districts, cities = (f"mr-{ids[ref]}" for ref in ("rivers", "districts", "cities"))
    assert order[5:] == [f"{rivers}-line", f"{districts}-fill", f"{districts}-outline",
                         f"{cities}-circle", f"mr-{ids['sites']}-circle"]  # fmt: skip
    visibility = {i: layer(style, i)["layout"]["visibility"] for i in order[5:]}
    assert [i for i, seen in visibility.items() if seen == "none"] == [f"mr-{ids['sites']}-circle"]
    assert layer(style, f"{rivers}-line")["paint"]["line-color"] == "#ff0000"
    fill = layer(style, f"{districts}-fill")["paint"]["fill-color"]
    assert fill[0] == "step" and fill[1] == ["to-number", ["get", "value"], 0] and len(fill) == 7
    circle = layer(style, f"{cities}-circle")
    large = [">", ["to-number", ["get", "population"]], 10_000_000]
    assert ["case", ["==", ["typeof", ["get", "population"]], "number"], large, False] in circle[
        "filter"
    ]
    # Its sources are read with the same key: the filtered layer's URL carries its filter.
    for ident, source in style["sources"].items():
        if ident.startswith("mr-") and not ident.startswith("mr-mask"):
            answered = await api.get(source["data"])
            assert answered.status_code == 200, (ident, answered.text)
    kept = (await api.get(style["sources"][cities]["data"])).json()["features"]
    assert {f["properties"]["name"] for f in kept} >= {"Tokyo", "Delhi"}
    assert all(f["properties"]["population"] > 10_000_000 for f in kept)
    mask = await api.get(style["sources"]["mr-mask-country"]["data"])
    shaded = shapely.geometry.shape(mask.json()["features"][0]["geometry"])
    assert not shaded.contains(shapely.Point(-8.6, 39.6)) and shaded.contains(shapely.Point(0, 0))
    meta = style["metadata"]
    assert meta["maproom:basemap"] == {"style": "offline", "fallback": False}
    assert [entry["title"] for entry in meta["maproom:legend"]] == ["Cities", "Districts", "Rivers"]
    assert [(e["name"], e["visible"]) for e in meta["maproom:layers"]] == [
        ("Sites", False), ("Cities", True), ("Districts", True), ("Rivers", True),
    ]  # fmt: skip
    assert "glyphs" not in style and not any(i.endswith("-label") for i in order)


async def test_heatmap_raster_and_view_link_styles(
    app: FastAPI, api: httpx.AsyncClient, tmp_path: Path
) -> None:
    project, ids = await world(api)
    tiff = makers.geotiff(tmp_path / "dem.tif")
    raster = await api.post(f"/api/v1/sessions/{project}/files", files={"file": ("dem.tif", tiff)})
    raster_id = raster.json()["layer"]["layer_id"]
    await act(api, project, {"type": "update_layer_style", "layer_id": ids["cities"],
                             "style": {"renderer": {"type": "heatmap",
                                                    "weightField": "population"}}})  # fmt: skip
    link = await api.post(f"/api/v1/sessions/{project}/live-view-url")
    assert link.status_code == 201, link.text
    url = link.json()["liveViewUrl"]
    async with http_client(app) as anonymous:
        style = (await anonymous.get(f"{url}/style.json")).json()
        heat = layer(style, f"mr-{ids['cities']}-heat")
        assert heat["paint"]["heatmap-weight"] == ["to-number", ["get", "population"], 1]
        source = style["sources"][f"mr-{raster_id}"]
        assert source["type"] == "raster" and "/live/" in source["tiles"][0]
        assert layer(style, f"mr-{raster_id}-raster")["type"] == "raster"
        for ident, found in style["sources"].items():
            if ident.startswith("mr-") and found["type"] == "geojson":
                assert (await anonymous.get(found["data"])).status_code == 200
        tilejson = (await anonymous.get(f"{url}/layers/{ids['districts']}/tilejson")).json()
        assert tilejson["tiles"][0].startswith(url)
        first = await anonymous.get(
            tilejson["tiles"][0].format(z=0, x=0, y=0).replace("%7B", "{").replace("%7D", "}")
        )
        assert first.status_code == 200
        assert_error(await anonymous.get(f"{url}/layers/{ids['districts']}x/tilejson"), 404,
                     "not_found")  # fmt: skip


async def test_tilejson_of_vector_and_raster_layers(
    app: FastAPI, api: httpx.AsyncClient, tmp_path: Path
) -> None:
    project, ids = await world(api)
    south = {"field": "region", "op": "==", "value": "South"}
    await act(
        api, project, {"type": "set_layer_filter", "layer_id": ids["districts"], "filter": south}
    )
    found = (await api.get(f"/api/v1/sessions/{project}/layers/{ids['districts']}/tilejson")).json()
    assert found["tilejson"] == "3.0.0" and found["minzoom"] == 0 and found["maxzoom"] == 14
    assert found["tiles"][0].split("?")[0].endswith("/tiles/{z}/{x}/{y}.pbf")
    assert "?f=" in found["tiles"][0]
    assert found["vector_layers"] == [{
        "id": "layer", "minzoom": 0, "maxzoom": 14,
        "fields": {"name": "String", "value": "Number", "population": "Number", "region": "String"},
    }]  # fmt: skip
    assert found["bounds"][0] == pytest.approx(-9.5) and found["bounds"][3] == pytest.approx(38.9)
    tiff = makers.geotiff(tmp_path / "dem.tif")
    raster = await api.post(f"/api/v1/sessions/{project}/files", files={"file": ("dem.tif", tiff)})
    raster_id = raster.json()["layer"]["layer_id"]
    image = (await api.get(f"/api/v1/sessions/{project}/layers/{raster_id}/tilejson")).json()
    assert image["tiles"][0].endswith(".png") and "vector_layers" not in image
    async with http_client(app, new_key(app, email="stranger@example.com")) as stranger:
        refused = await stranger.get(f"/api/v1/sessions/{project}/layers/{raster_id}/tilejson")
        assert_error(refused, 404, "not_found")
        assert_error(await stranger.get(f"/api/v1/sessions/{project}/style.json"), 404, "not_found")


STYLE = {
    "version": 8,
    "glyphs": "https://fonts.example.com/{fontstack}/{range}.pbf",
    "sources": {"base": {"type": "vector", "tiles": ["https://t.example.com/{z}/{x}/{y}.pbf"]}},
    "layers": [
        {"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
        {"id": "water", "type": "fill", "source": "base", "source-layer": "water",
         "paint": {"fill-color": "#aaccee"}},
        {"id": "road-major", "type": "line", "source": "base", "source-layer": "transportation"},
    ],
}  # fmt: skip


@pytest.fixture
def style_server() -> Iterator[str]:
    """A MapLibre style on a real server on loopback (which serves byte ranges)."""
    body = orjson.dumps(STYLE)

    async def style(request: Any) -> Response:
        first, _, last = (
            request.headers.get("range", "bytes=0-").removeprefix("bytes=").partition("-")
        )
        end = min(int(last or len(body) - 1), len(body) - 1)
        headers = {"Content-Range": f"bytes {first}-{end}/{len(body)}"}
        return Response(body[int(first) : end + 1], 206, headers, "application/json")

    with serving(Starlette(routes=[Route("/style.json", style)])) as base:
        yield f"{base}/style.json"


async def test_a_networked_basemap_is_fetched_and_its_categories_applied(
    app_factory: AppFactory, style_server: str
) -> None:
    actions = [
        {"type": "set_basemap_style", "style": style_server},
        {"type": "set_basemap_category", "category_key": "water", "color": "#0a3d62"},
        {"type": "set_basemap_category", "category_key": "roads", "visible": False},
    ]
    style, ids = await styled(app_factory, actions, label_cities=True)
    assert style["metadata"]["maproom:basemap"] == {"style": style_server, "fallback": False}
    assert style["glyphs"] == STYLE["glyphs"] and "base" in style["sources"]
    assert layer(style, "water")["paint"]["fill-color"] == "#0a3d62"
    assert layer(style, "road-major")["layout"]["visibility"] == "none"
    label = layer(style, f"mr-{ids['cities']}-label")
    assert label["layout"]["text-field"] == ["to-string", ["get", "name"]]


async def test_an_unreachable_basemap_gives_way_to_the_offline_one(
    app_factory: AppFactory,
) -> None:
    nobody = f"http://127.0.0.1:{free_port()}/style.json"  # nothing listens there
    style, _ = await styled(app_factory, [{"type": "set_basemap_style", "style": nobody}])
    assert style["metadata"]["maproom:basemap"] == {"style": nobody, "fallback": True}
    assert ids_of(style)[:3] == ["water", "land", "boundaries"]


async def styled(
    app_factory: AppFactory, actions: list[dict[str, Any]], *, label_cities: bool = False
) -> tuple[dict[str, Any], dict[str, str]]:
    """The compiled style of the world project after `actions`, on a server that may fetch
    from loopback."""
    async with (
        app_factory(fetch_allowlist="127.0.0.1") as app,
        http_client(app, new_key(app)) as api,
    ):
        project, ids = await world(api)
        if label_cities:
            label = {"label": {"visible": True, "field": "name"}}
            actions = [*actions, {"type": "update_layer_style", "layer_id": ids["cities"],
                                  "style": {"renderer": {"type": "single"}, **label}}]  # fmt: skip
        assert (await act(api, project, *actions)).status_code == 200
        return (await api.get(f"/api/v1/sessions/{project}/style.json")).json(), ids
