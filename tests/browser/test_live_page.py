"""The live and static pages in headless Chromium (Debian's), driven by Playwright.

Off by default (they need `/usr/bin/chromium`); `MAPROOM_BROWSER_TESTS=1` (set by `.ci/run`)
turns them on and makes a missing browser a failure, not a skip. The page runs with no
internet: the basemap falls back to the local `blank` style.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from fastapi import FastAPI

from tests import makers
from tests.live.test_stream import server as server  # the uvicorn fixture, reused
from tests.support import bearer, new_key

pytestmark = [pytest.mark.anyio, pytest.mark.browser]
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "img"
REQUIRED = os.environ.get("MAPROOM_BROWSER_TESTS") == "1"
READY = "!!(window.maproom && window.maproom.ready && window.maproom.map.loaded())"


@pytest.fixture
def database_url() -> None:
    """The page tests run on the embedded SQLite only: the browser is what they test."""
    return None


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    if not os.path.exists(CHROMIUM) or shutil.which("chromium") is None:
        if REQUIRED:
            pytest.fail(
                f"MAPROOM_BROWSER_TESTS=1 but {CHROMIUM} is missing (apt-get install chromium)"
            )
        pytest.skip("chromium is not installed; set MAPROOM_BROWSER_TESTS=1 to require it")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        if REQUIRED:
            raise
        pytest.skip("playwright is not installed")
    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


async def open_page(browser: Any, url: str) -> Any:
    """A page of `browser` (or of a browser context) on `url`, once the map has drawn."""
    if hasattr(browser, "new_context"):
        page = await browser.new_page(viewport={"width": 1024, "height": 768})
    else:  # a context: the viewport is the context's
        page = await browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    await page.goto(url)
    await until(page, READY, 20000)
    return page


async def until(page: Any, condition: str, timeout: int = 15000) -> None:
    """Wait for a JavaScript condition on the page."""
    await page.wait_for_function(condition, timeout=timeout)


def near(center: tuple[float, float], zoom: float | None = None) -> str:
    """A condition: the map's center (and zoom) is where we sent it."""
    lng, lat = center
    test = (
        f"Math.abs(m.getCenter().lng - {lng}) < 0.01 && Math.abs(m.getCenter().lat - {lat}) < 0.01"
    )
    if zoom is not None:
        test += f" && Math.abs(m.getZoom() - {zoom}) < 0.01"
    return f"(() => {{ const m = window.maproom.map; return {test}; }})()"


def paint_is(layer: str, prop: str, value: str) -> str:
    """A condition: a MapLibre layer exists and one paint property has this value."""
    wanted = orjson.dumps(value).decode()
    return (
        f"(() => {{ const m = window.maproom.map; return !!m.getLayer('{layer}') && "
        f"JSON.stringify(m.getPaintProperty('{layer}', '{prop}')) === '{wanted}'; }})()"
    )


def rendered(layer: str) -> str:
    """An expression: how many features of a MapLibre layer are drawn."""
    return f"window.maproom.map.queryRenderedFeatures({{layers: ['{layer}']}}).length"


def hidden(layer: str) -> str:
    """A condition: a MapLibre layer exists and is hidden."""
    return (
        f"(() => {{ const m = window.maproom.map; return !!m.getLayer('{layer}') && "
        f"m.getLayoutProperty('{layer}', 'visibility') === 'none'; }})()"
    )


def squares(n: int) -> dict[str, Any]:
    """An n x n grid of unit squares with a `value` property, around 2E 2N."""
    features = []
    for i in range(-2, n - 2):
        for j in range(-2, n - 2):
            ring = [[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1], [i, j]]
            features.append(
                {
                    "type": "Feature",
                    "properties": {"value": (i * 7 + j * 3) % 10},
                    "geometry": {"type": "Polygon", "coordinates": [ring]},
                }
            )
    return {"type": "FeatureCollection", "features": features}


def scattered(n: int) -> dict[str, Any]:
    """n points with a weight `w`, spread over the same area."""
    features = [
        {
            "type": "Feature",
            "properties": {"w": (i % 5) + 1},
            "geometry": {
                "type": "Point",
                "coordinates": [((i * 37) % 80) / 10 - 2, ((i * 53) % 80) / 10 - 2],
            },
        }
        for i in range(n)
    ]
    return {"type": "FeatureCollection", "features": features}


async def settle(page: Any) -> None:
    await page.wait_for_function(
        "window.maproom.map.loaded() && !window.maproom.map.isMoving()", timeout=20000
    )
    await page.wait_for_timeout(0)


async def project_with_data(
    base: str, app: FastAPI, api: httpx.AsyncClient
) -> tuple[str, str, str]:
    project = (
        await api.post(
            "/api/v1/sessions",
            json={
                "title": "page",
                "mapState": {
                    "center": [2, 45],
                    "zoom": 3.5,
                    "basemap": {"style": "blank", "categories": {}},
                },
            },
        )
    ).json()["id"]
    uploaded = await api.post(
        f"/api/v1/sessions/{project}/files",
        files={"file": ("cities.geojson", makers.geojson_points())},
    )
    layer = uploaded.json()["layer"]["layer_id"]
    polygons = makers.geojson_polygons(4)  # unit squares from 0E 0N
    await api.post(
        f"/api/v1/sessions/{project}/map/actions",
        json={
            "actions": [{"type": "add_geojson_layer", "layer_id": "squares", "geojson": polygons}]
        },
    )
    live = (await api.post(f"/api/v1/sessions/{project}/live-view-url")).json()["liveViewUrl"]
    return project, layer, live


async def test_live_page_draws_and_follows_the_project(
    server: tuple[str, FastAPI], browser: Any
) -> None:
    base, app = server
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=20) as api:
        project, layer, live = await project_with_data(base, app, api)
        page = await open_page(browser, live)
        await settle(page)
        squares_id = (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"][0][
            "layer_id"
        ]
        assert await page.evaluate(f"!!window.maproom.map.getLayer('mr-{layer}-circle')")
        assert await page.evaluate(f"!!window.maproom.map.getLayer('mr-{squares_id}-fill')")
        rendered = await page.evaluate(
            f"window.maproom.map.queryRenderedFeatures({{layers: ['mr-{layer}-circle']}}).length"
        )
        assert rendered >= 2  # Lisbon, Paris, Berlin around the view's center
        first_event = await page.evaluate("window.maproom.lastEventId")

        # fly_to animates the camera to the target.
        body = {"actions": [{"type": "fly_to", "center": [13.4, 52.52], "zoom": 6}]}
        assert (
            await api.post(f"/api/v1/sessions/{project}/map/actions", json=body)
        ).status_code == 200
        await until(page, near((13.4, 52.52), 6))
        assert await page.evaluate("window.maproom.lastEventId") > first_event

        # set_layer_visibility hides the layer.
        body = {"actions": [{"type": "set_layer_visibility", "layer_id": layer, "visible": False}]}
        await api.post(f"/api/v1/sessions/{project}/map/actions", json=body)
        await until(page, hidden(f"mr-{layer}-circle"))

        # A style change is applied.
        await api.put(
            f"/api/v1/sessions/{project}/layers/{squares_id}/style",
            json={"renderer": {"paint": {"fill-color": "#ff0000"}}},
        )
        await until(page, paint_is(f"mr-{squares_id}-fill", "fill-color", "#ff0000"))

        # The server drops the stream: the page reconnects and gets what happened meanwhile.
        for subscription in [
            s for c in app.state.services.hub._channels.values() for s in c.subscribers
        ]:
            subscription.close("test drop")
        body = {"actions": [{"type": "jump_to", "center": [-9.14, 38.72], "zoom": 7}]}
        await api.post(f"/api/v1/sessions/{project}/map/actions", json=body)
        await until(page, near((-9.14, 38.72), 7))
        assert page.errors == []


async def test_static_page_and_screenshots(server: tuple[str, FastAPI], browser: Any) -> None:
    base, app = server
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=20) as api:
        project = (
            await api.post(
                "/api/v1/sessions",
                json={
                    "title": "shots",
                    "mapState": {
                        "center": [2, 2],
                        "zoom": 5.3,
                        "basemap": {"style": "blank", "categories": {}},
                    },
                },
            )
        ).json()["id"]
        choropleth = squares(8)
        ranges = [
            {"from": 0, "to": 3, "label": "low", "paint": {"fill-color": "#fee5d9"}},
            {"from": 3, "to": 6, "label": "mid", "paint": {"fill-color": "#fb6a4a"}},
            {"from": 6, "to": None, "label": "high", "paint": {"fill-color": "#a50f15"}},
        ]
        style = {
            "renderer": {
                "type": "graduated",
                "field": "value",
                "method": "manual",
                "ranges": ranges,
                "paint": {"fill-opacity": 0.85},
            }
        }
        await api.post(
            f"/api/v1/sessions/{project}/map/actions",
            json={
                "actions": [
                    {
                        "type": "add_geojson_layer",
                        "layer_id": "choropleth",
                        "geojson": choropleth,
                        "style": style,
                    }
                ]
            },
        )
        embed = (await api.post(f"/api/v1/sessions/{project}/static-view-url")).json()[
            "staticViewUrl"
        ]
        page = await open_page(browser, embed)
        await settle(page)
        layer_id = (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"][0][
            "layer_id"
        ]
        fill = await page.evaluate(
            f"window.maproom.map.getPaintProperty('mr-{layer_id}-fill', 'fill-color')"
        )
        assert fill[0] == "step"
        assert await page.evaluate(rendered(f"mr-{layer_id}-fill")) > 10
        assert await page.evaluate("window.maproom.lastEventId") is None
        await page.screenshot(path=str(SCREENSHOTS / "choropleth.png"))

        # Heatmap of many points.
        points = scattered(400)
        heat = {"renderer": {"type": "heatmap", "weightField": "w", "radius": 30, "intensity": 1.2}}
        await api.post(
            f"/api/v1/sessions/{project}/map/actions",
            json={
                "actions": [
                    {"type": "set_layer_visibility", "layer_id": "choropleth", "visible": False},
                    {
                        "type": "add_geojson_layer",
                        "layer_id": "heat",
                        "geojson": points,
                        "style": heat,
                    },
                ]
            },
        )
        page = await open_page(browser, embed)
        await settle(page)
        heat_id = (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"][0][
            "layer_id"
        ]
        assert (
            await page.evaluate(f"window.maproom.map.getLayer('mr-{heat_id}-heat').type")
            == "heatmap"
        )
        await page.screenshot(path=str(SCREENSHOTS / "heatmap.png"))

        # Country mask (Portugal), drawn from the shapes maproom ships.
        await api.post(
            f"/api/v1/sessions/{project}/map/actions",
            json={
                "actions": [
                    {"type": "set_layer_visibility", "layer_id": "heat", "visible": False},
                    {"type": "set_country_mask", "country_code": "PT", "color": "#1f2937"},
                    {"type": "fly_to", "center": [-8.2, 39.6], "zoom": 5},
                ]
            },
        )
        page = await open_page(browser, embed)
        await settle(page)
        await until(page, "!!window.maproom.map.getLayer('mr-mask-country')")
        await settle(page)
        await page.screenshot(path=str(SCREENSHOTS / "country-mask.png"))
        assert page.errors == []


async def test_chat_moves_the_open_live_page(server: tuple[str, FastAPI], browser: Any) -> None:
    """A chat turn is seen by whoever watches the map: "fly to Japan and highlight it" flies
    the open page to Japan and draws the country mask, and the reply is a live message."""
    base, app = server
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=20) as api:
        project = (
            await api.post(
                "/api/v1/sessions",
                json={"mapState": {"basemap": {"style": "blank", "categories": {}}}},
            )
        ).json()["id"]
        live = (await api.post(f"/api/v1/sessions/{project}/live-view-url")).json()["liveViewUrl"]
        page = await open_page(browser, live)
        await settle(page)
        assert not await page.evaluate("!!window.maproom.map.getLayer('mr-mask-country')")

        reply = await api.post(
            f"/api/v1/sessions/{project}/chat", json={"message": "fly to Japan and highlight it"}
        )
        assert reply.status_code == 200, reply.text
        state = (await api.get(f"/api/v1/sessions/{project}/map")).json()["mapState"]
        assert state["countryMask"]["countryCode"] == "JP"
        lng, lat = state["center"]
        assert 128 < lng < 146 and 30 < lat < 42

        await until(page, near((lng, lat)), 20000)
        await until(page, "!!window.maproom.map.getLayer('mr-mask-country')")
        await settle(page)
        masked = await page.evaluate(rendered("mr-mask-country"))
        assert masked > 0
        await page.screenshot(path=str(SCREENSHOTS / "chat-japan.png"))
        assert page.errors == []


async def test_an_undo_and_a_restore_reach_the_open_page(
    server: tuple[str, FastAPI], browser: Any
) -> None:
    """Undo is seen on an open live page within a second (docs/history.md), and so is a
    restore that brings a removed layer back."""
    base, app = server
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=20) as api:
        project, _layer, live = await project_with_data(base, app, api)
        actions = f"/api/v1/sessions/{project}/map/actions"
        await api.post(
            actions, json={"actions": [{"type": "jump_to", "center": [2, 45], "zoom": 3}]}
        )
        kept = (await api.get(f"/api/v1/sessions/{project}/history", params={"limit": 1})).json()
        page = await open_page(browser, live)
        await settle(page)
        await api.post(
            actions, json={"actions": [{"type": "fly_to", "center": [20, 10], "zoom": 5}]}
        )
        await until(page, near((20, 10), 5), 20000)
        assert (await api.post(actions, json={"actions": [{"type": "undo"}]})).status_code == 200
        await until(page, near((2, 45), 3), 1000)  # within a second

        removed = {"actions": [{"type": "remove_layer", "layer_id": "squares"}]}
        await api.post(actions, json=removed)
        await until(page, 'window.maproom.style.metadata["maproom:layers"].length === 1')
        version = kept["data"][0]["version"]
        restored = await api.post(f"/api/v1/sessions/{project}/history/{version}/restore")
        assert restored.status_code == 200, restored.text
        await until(page, 'window.maproom.style.metadata["maproom:layers"].length === 2', 2000)
        assert page.errors == []
