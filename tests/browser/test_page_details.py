"""What the map pages draw, judged by pixels (docs/live.md): the offline basemap when the
network is unreachable, masks beneath the data, feature popups, the title, and report links.

Runs as `tests/browser/test_live_page.py` does (Debian's chromium, `MAPROOM_BROWSER_TESTS=1`).
Every request to another host than the test server is aborted: the network is unreachable.
"""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image

from tests.browser.test_live_page import SCREENSHOTS, open_page, settle, until
from tests.browser.test_live_page import browser as browser  # the chromium fixture
from tests.browser.test_live_page import database_url as database_url  # SQLite only
from tests.live.test_stream import server as server  # the uvicorn fixture
from tests.support import bearer, new_key

pytestmark = [pytest.mark.anyio, pytest.mark.browser]
OFFLINE_WATER, OFFLINE_LAND = (169, 207, 224), (244, 241, 234)  # maproom/domain/basemaps.py


async def offline_page(browser: Any, url: str) -> Any:
    """A page whose network reaches only the test server."""
    own = urlsplit(url).netloc
    context = await browser.new_context(viewport={"width": 1024, "height": 768})

    async def only_own(route: Any) -> None:
        if urlsplit(route.request.url).netloc == own:
            await route.continue_()
        else:
            await route.abort("internetdisconnected")

    await context.route("**/*", only_own)
    return await open_page(context, url)


async def pixel(page: Any, lng: float, lat: float) -> tuple[int, int, int]:
    """The colour drawn at a place (from a screenshot of the page)."""
    x, y = await page.evaluate(
        f"(() => {{ const p = window.maproom.map.project([{lng}, {lat}]); return [p.x, p.y]; }})()"
    )
    shot = Image.open(io.BytesIO(await page.screenshot())).convert("RGB")
    r, g, b = shot.getpixel((round(x), round(y)))
    return r, g, b


def close(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 6) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))


async def new_project(api: httpx.AsyncClient, title: str, **map_state: Any) -> str:
    created = await api.post("/api/v1/sessions", json={"title": title, "mapState": map_state})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def live_url(api: httpx.AsyncClient, project: str) -> str:
    answer = await api.post(f"/api/v1/sessions/{project}/live-view-url")
    return str(answer.json()["liveViewUrl"])


async def test_offline_basemap_draws_when_the_network_is_unreachable(
    server: tuple[str, FastAPI], browser: Any
) -> None:
    base, app = server
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=20) as api:
        # `light` needs the internet: the page falls back to the offline basemap and says so.
        basemap = {"style": "light", "categories": {}}
        project = await new_project(api, "Offline", center=[0, 30], zoom=2, basemap=basemap)
        page = await offline_page(browser, await live_url(api, project))
        await until(page, "document.querySelector('#notices .notice') !== null")
        notice = await page.inner_text("#notices .notice")
        assert "light" in notice and "offline" in notice
        await until(page, "window.maproom.map.getStyle().metadata['maproom:basemap'].fallback")
        assert await page.evaluate("!!window.maproom.map.getLayer('land')")
        await settle(page)
        land = await pixel(page, 20, 10)  # central Africa
        sea = await pixel(page, -40, 30)  # mid-Atlantic
        assert close(land, OFFLINE_LAND), land
        assert close(sea, OFFLINE_WATER), sea
        await page.screenshot(path=str(SCREENSHOTS / "offline-basemap.png"))
        await page.click("#notices .notice button")  # dismissable
        assert await page.evaluate("document.querySelectorAll('#notices .notice').length") == 0
        attribution = await page.inner_text(".maplibregl-ctrl-attrib")
        assert "Natural Earth" in attribution
        assert await page.evaluate("!!document.querySelector('.maplibregl-ctrl-scale')")
        assert page.errors == []


async def test_mask_is_beneath_the_data_and_popups_show_text(
    server: tuple[str, FastAPI], browser: Any
) -> None:
    base, app = server
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=20) as api:
        project = await new_project(
            api, "Masked", center=[-6, 40], zoom=5, basemap={"style": "blank", "categories": {}}
        )
        # A red square in Spain (outside the Portugal mask) and a point with hostile text.
        square = {
            "type": "Feature",
            "properties": {"name": "Spain square"},
            "geometry": {
                "type": "Polygon",
                "coordinates": [[[-4, 39], [-2, 39], [-2, 41], [-4, 41], [-4, 39]]],
            },
        }
        hostile = '<img src=x onerror="window.hacked=1">'
        point = {
            "type": "Feature",
            "properties": {"name": hostile, "visits": 42},
            "geometry": {"type": "Point", "coordinates": [-8, 42.5]},
        }
        actions = [
            {"type": "add_geojson_layer", "layer_id": "square",
             "geojson": {"type": "FeatureCollection", "features": [square]},
             "style": {"renderer": {"type": "single",
                                    "paint": {"fill-color": "#ff0000", "fill-opacity": 1}}}},
            {"type": "add_geojson_layer", "layer_id": "spot",
             "geojson": {"type": "FeatureCollection", "features": [point]},
             "style": {"renderer": {"type": "single", "paint": {"circle-radius": 12}}}},
            {"type": "set_country_mask", "country_code": "PT"},
        ]  # fmt: skip
        answer = await api.post(
            f"/api/v1/sessions/{project}/map/actions", json={"actions": actions}
        )
        assert answer.status_code == 200, answer.text
        page = await offline_page(browser, await live_url(api, project))
        await until(page, "!!window.maproom.map.getLayer('mr-mask-country')")
        await settle(page)
        order = await page.evaluate("window.maproom.map.getStyle().layers.map((l) => l.id)")
        data = [i for i, name in enumerate(order) if name.startswith("mr-") and "mask" not in name]
        assert order.index("mr-mask-country") < min(data)
        assert close(await pixel(page, -3, 40), (255, 0, 0)), "the square keeps its own colour"
        shaded = await pixel(page, 0, 45)  # France: outside Portugal, no data: shaded
        assert shaded != (238, 241, 244) and max(shaded) < 150

        # A click on the point opens a popup of its properties, as text.
        x, y = await page.evaluate(
            "(() => { const p = window.maproom.map.project([-8, 42.5]); return [p.x, p.y]; })()"
        )
        await page.mouse.move(x, y)
        await until(page, "window.maproom.map.getCanvas().style.cursor === 'pointer'")
        await page.mouse.click(x, y)
        await until(page, "!!document.querySelector('.maplibregl-popup table.properties')")
        cells = await page.eval_on_selector_all(
            ".maplibregl-popup table.properties td", "(cells) => cells.map((c) => c.textContent)"
        )
        assert hostile in cells and "42" in cells
        await page.screenshot(path=str(SCREENSHOTS / "mask-and-popup.png"))
        assert await page.evaluate("document.querySelector('.maplibregl-popup img') === null")
        assert await page.evaluate("window.hacked === undefined")

        # Embedders can switch popups off.
        quiet = await offline_page(browser, (await live_url(api, project)) + "?popups=0")
        await settle(quiet)
        await quiet.mouse.click(x, y)
        await quiet.wait_for_timeout(300)  # a popup would open on this click's frame
        assert await quiet.evaluate("document.querySelector('.maplibregl-popup') === null")


async def test_title_follows_renames_and_report_links_open_sandboxed(
    server: tuple[str, FastAPI], browser: Any
) -> None:
    base, app = server
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=20) as api:
        project = await new_project(api, "Cafés of Lisbon", center=[-9.14, 38.72], zoom=11)
        page = await offline_page(browser, await live_url(api, project))
        assert await page.title() == "Cafés of Lisbon"
        await api.patch(f"/api/v1/sessions/{project}", json={"title": "Cafés & bars"})
        await until(page, "document.title === 'Cafés & bars'")
        icon = await api.get(f"{base}/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/x-icon"

        # A report saved while the page is open: its notice links to /r/{token}, which opens
        # without a key; the report's script cannot touch the page that opened it.
        html = (
            "<h1>Report</h1><script>try { window.opener.document.title = 'owned' } "
            "catch (e) {} document.title = 'script ran'</script>"
        )
        saved = await api.post(
            f"/api/v1/sessions/{project}/reports", json={"title": "Q3", "html": html}
        )
        url = saved.json()["url"]
        await until(page, "!!document.querySelector('#toasts a')")
        assert await page.get_attribute("#toasts a", "href") == url
        async with page.context.expect_page() as opened:
            await page.click("#toasts a")
        report = await opened.value
        await report.wait_for_load_state()
        assert await report.inner_text("h1") == "Report"
        assert await report.title() != "script ran"  # sandboxed: no script runs
        assert await page.title() == "Cafés & bars"
        origin = await report.evaluate("window.origin")
        assert origin == "null"  # an opaque origin: nothing of maproom's
