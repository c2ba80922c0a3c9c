"""Another site's MapLibre map, made from nothing but a live link's `style.json`, draws the same
pixels as maproom's own live page (docs/open-formats.md).

The project has a raster, a graduated polygon layer, a categorized point layer labelled by a
field, a heatmap and a country mask, on the offline basemap. The plain page is served from
another origin than maproom's (so the style, data and tiles are read across origins) and loads
only MapLibre GL JS. Both pages are 1024 x 768; maproom's controls, legend and notices are
hidden, since the plain page has none. Tolerance: at most 0.5 % of the pixels may differ by
more than 8 in a colour channel (antialiasing at a tile's edge, nothing more).

Runs as `tests/browser/test_live_page.py` does (Debian's chromium, `MAPROOM_BROWSER_TESTS=1`).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image, ImageChops
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from tests import makers
from tests.browser.test_live_page import SCREENSHOTS, open_page, until
from tests.browser.test_live_page import browser as browser  # the chromium fixture
from tests.browser.test_live_page import database_url as database_url  # SQLite only
from tests.chat.support import CITIES, DISTRICTS, SITES
from tests.live.test_stream import server as server  # the uvicorn fixture
from tests.serving import serving
from tests.support import bearer, new_key

pytestmark = [pytest.mark.anyio, pytest.mark.browser]
MOST_DIFFERING = 0.005
CHANNEL_TOLERANCE = 8
DRAWN = (
    "(() => { const m = window.plainMap || window.maproom.map; "
    "return m.loaded() && m.areTilesLoaded() && !m.isMoving(); })()"
)
HIDE_CHROME = (
    ".maplibregl-control-container, #legend, #notices, #toasts { display: none !important; }"
)

PLAIN_PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="{maproom}/static/vendor/maplibre-gl.css">
<style>html, body, #map {{ margin: 0; width: 100%; height: 100%; }}</style>
</head><body><div id="map"></div>
<script src="{maproom}/static/vendor/maplibre-gl.js"></script>
<script>
window.plainMap = new maplibregl.Map({{
  container: "map", style: "{style}", attributionControl: false }});
</script></body></html>
"""


async def project(api: httpx.AsyncClient, tmp_path: Path) -> str:
    """The project the two pages draw (module docstring); its live link."""
    view = {"center": [-10.0, 38.75], "zoom": 8, "basemap": {"style": "offline", "categories": {}}}
    created = await api.post("/api/v1/sessions", json={"title": "Open", "mapState": view})
    project = created.json()["id"]
    tiff = makers.geotiff(tmp_path / "noise.tif")
    raster = await api.post(f"/api/v1/sessions/{project}/files", files={"file": ("n.tif", tiff)})
    assert raster.status_code == 201, raster.text
    actions: list[dict[str, Any]] = [
        {"type": "add_geojson_layer", "layer_id": "districts", "name": "Districts",
         "geojson": DISTRICTS},
        {"type": "add_geojson_layer", "layer_id": "sites", "name": "Sites", "geojson": SITES},
        {"type": "add_geojson_layer", "layer_id": "cities", "name": "Cities", "geojson": CITIES},
        {"type": "update_layer_style", "layer_id": "districts", "style": {"renderer": {
            "type": "graduated", "field": "value", "method": "quantile", "classes": 4}}},
        {"type": "update_layer_style", "layer_id": "sites", "style": {
            "renderer": {"type": "categorized", "field": "kind",
                         "paint": {"circle-radius": 9}},
            "label": {"visible": True, "field": "name"}}},
        {"type": "update_layer_style", "layer_id": "cities", "style": {"renderer": {
            "type": "heatmap", "weightField": "population", "radius": 60}}},
        {"type": "set_country_mask", "country_code": "PT"},
    ]  # fmt: skip
    made = await api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": actions})
    assert made.status_code == 200, made.text
    live = await api.post(f"/api/v1/sessions/{project}/live-view-url")
    return str(live.json()["liveViewUrl"])


async def shot(page: Any) -> Image.Image:
    await until(page, DRAWN, 20000)
    await page.evaluate("new Promise((done) => requestAnimationFrame(() => done()))")
    return Image.open(io.BytesIO(await page.screenshot())).convert("RGB")


async def test_a_plain_maplibre_page_draws_what_maproom_draws(
    server: tuple[str, FastAPI], browser: Any, tmp_path: Path
) -> None:
    base, app = server
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=20) as api:
        live = await project(api, tmp_path)
    own = await open_page(browser, live)
    await own.add_style_tag(content=HIDE_CHROME)
    expected = await shot(own)
    html = PLAIN_PAGE.format(maproom=base, style=f"{live}/style.json")

    async def plain(request: Any) -> HTMLResponse:
        return HTMLResponse(html)

    with serving(Starlette(routes=[Route("/", plain)])) as elsewhere:
        page = await browser.new_page(viewport={"width": 1024, "height": 768})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(elsewhere)
        await until(page, "!!window.plainMap", 20000)
        got = await shot(page)
    expected.save(SCREENSHOTS / "open-style-maproom.png")
    got.save(SCREENSHOTS / "open-style-plain.png")
    assert errors == [] and own.errors == []
    assert len(expected.getcolors(1 << 24) or []) > 200  # the layers drew: many colours
    difference = (
        ImageChops.difference(expected, got)
        .convert("L")
        .point(lambda value: 255 if value > CHANNEL_TOLERANCE else 0)
    )
    differing = difference.histogram()[255] / (1024 * 768)
    assert differing <= MOST_DIFFERING, f"{differing:.2%} of the pixels differ"
