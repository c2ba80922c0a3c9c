"""The map page's load time with maproom's offline basemap, beside the same page on `blank`.

One maproom server (`maproom.app:app_from_env`, one worker, SQLite) and one project of 20
layers: a CSV of 2,700,000 points (served as vector tiles) and 19 small GeoJSON layers
(points, lines and polygons). Its live page is opened in Debian's chromium (Playwright, with
every request to another host aborted: no internet), each time in a new browser context (no
cache), alternating the project's basemap between `offline` and `blank`. Measured: the time
from navigation until the map is first idle with the project drawn (its compiled style
applied, every source's visible tiles loaded). Target: offline <= 1.3x blank (median of the
runs).

    python bench/page.py [--points 2700000] [--runs 7]

Needs /usr/bin/chromium and playwright (`.ci/run` installs both).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import maproom, maproom_env
from tiles import make_points

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
DRAWN = (
    "!!(window.maproom && window.maproom.ready && window.maproom.map.loaded()"
    " && window.maproom.map.areTilesLoaded() && !window.maproom.map.isMoving())"
)


def small_layer(i: int) -> dict[str, Any]:
    """A small GeoJSON layer around Europe: points, lines or polygons by turn."""
    features = []
    for k in range(50):
        lng, lat = -10 + (i * 7 + k * 3) % 40, 36 + (i * 5 + k * 2) % 24
        geometry: dict[str, Any] = {
            0: {"type": "Point", "coordinates": [lng, lat]},
            1: {"type": "LineString", "coordinates": [[lng, lat], [lng + 0.5, lat + 0.3]]},
            2: {"type": "Polygon", "coordinates": [[[lng, lat], [lng + 0.4, lat],
                                                     [lng + 0.4, lat + 0.4], [lng, lat]]]},
        }[i % 3]  # fmt: skip
        features.append({"type": "Feature", "properties": {"k": k}, "geometry": geometry})
    return {"type": "FeatureCollection", "features": features}


def build(base: str, key: str, csv: Path) -> str:
    """The project (20 layers); returns its live page URL."""
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, headers=headers, timeout=600) as api:
        state = {"center": [5, 46], "zoom": 3.5}
        project = api.post("/api/v1/sessions", json={"title": "page", "mapState": state}).json()
        sessions = f"/api/v1/sessions/{project['id']}"
        with csv.open("rb") as file:
            uploaded = api.post(f"{sessions}/files", files={"file": ("points.csv", file)})
        uploaded.raise_for_status()
        layer = uploaded.json()["layer"]["layer_id"]
        api.get(f"{sessions}/layers/{layer}/tiles/0/0/0.pbf").raise_for_status()  # indexed
        actions = [
            {"type": "add_geojson_layer", "layer_id": f"small-{i}", "geojson": small_layer(i)}
            for i in range(19)
        ]
        api.post(f"{sessions}/map/actions", json={"actions": actions}).raise_for_status()
        return str(api.post(f"{sessions}/live-view-url").json()["liveViewUrl"])


def set_basemap(base: str, key: str, live: str, style: str) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    project = httpx.get(f"{live}/state").json()["project"]["id"]
    answer = httpx.post(
        f"{base}/api/v1/sessions/{project}/map/actions",
        json={"actions": [{"type": "set_basemap_style", "style": style}]},
        headers=headers,
    )
    answer.raise_for_status()


async def load_time(browser: Any, url: str) -> float:
    """Seconds from navigation until the page is drawn and idle, in a fresh context."""
    own = urlsplit(url).netloc
    context = await browser.new_context(viewport={"width": 1024, "height": 768})

    async def only_own(route: Any) -> None:
        await (route.continue_() if urlsplit(route.request.url).netloc == own
               else route.abort("internetdisconnected"))  # fmt: skip

    await context.route("**/*", only_own)
    page = await context.new_page()
    try:
        start = time.perf_counter()
        await page.goto(url)
        await page.wait_for_function(DRAWN, timeout=120_000, polling=10)
        return time.perf_counter() - start
    finally:
        await context.close()


async def measure(base: str, key: str, live: str, runs: int) -> dict[str, list[float]]:
    from playwright.async_api import async_playwright

    times: dict[str, list[float]] = {"blank": [], "offline": []}
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            for style in ("blank", "offline"):  # a first load of each warms the server
                set_basemap(base, key, live, style)
                await load_time(browser, live)
            for _ in range(runs):
                for style in ("blank", "offline"):
                    set_basemap(base, key, live, style)
                    times[style].append(await load_time(browser, live))
        finally:
            await browser.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=2_700_000)
    parser.add_argument("--runs", type=int, default=7)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        csv = work / "points.csv"
        make_points(csv, opts.points)
        env = maproom_env(work / "data", None, MAPROOM_UPLOAD_MAX_SIZE_MB="1024")
        with maproom(env, work) as (started, key):
            live = build(started.base, key, csv)
            times = asyncio.run(measure(started.base, key, live, opts.runs))
    blank, offline = statistics.median(times["blank"]), statistics.median(times["offline"])
    print(f"\nmap page, 20 layers ({opts.points:,} points tiled), no internet, {opts.runs} runs")
    print(f"{'basemap':<10}{'median s':>10}{'min s':>8}{'max s':>8}")
    for name in ("blank", "offline"):
        t = times[name]
        print(f"{name:<10}{statistics.median(t):>10.2f}{min(t):>8.2f}{max(t):>8.2f}")
    ratio = offline / blank
    verdict = "met" if ratio <= 1.3 else "NOT met"
    print(f"\ntarget: offline <= 1.3x blank -> {verdict} ({ratio:.2f})")


if __name__ == "__main__":
    main()
