"""Layer tiles over HTTP: vector tiles of GeoJSON layers, raster tiles of COG layers, caching."""

from __future__ import annotations

import io
import math
from pathlib import Path

import httpx
import mapbox_vector_tile
import pytest
from PIL import Image

from tests import makers
from tests.support import assert_error

pytestmark = pytest.mark.anyio


def tile_of(lng: float, lat: float, z: int) -> tuple[int, int]:
    """The slippy-map tile holding a point."""
    n = 2**z
    x = int((lng + 180) / 360 * n)
    lat_r = math.radians(lat)
    y = int((1 - math.asinh(math.tan(lat_r)) / math.pi) / 2 * n)
    return x, y


async def upload(api: httpx.AsyncClient, name: str, body: bytes) -> tuple[str, dict]:
    project = (await api.post("/api/v1/sessions", json={})).json()["id"]
    response = await api.post(f"/api/v1/sessions/{project}/files", files={"file": (name, body)})
    assert response.status_code == 201, response.text
    return project, response.json()["layer"]


async def test_vector_tiles_hold_the_features(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, "cities.geojson", makers.geojson_points())
    assert layer["url"].endswith(f"/layers/{layer['layer_id']}/data")
    base = f"/api/v1/sessions/{project}/layers/{layer['layer_id']}/tiles"
    x, y = tile_of(2.35, 48.86, 6)
    response = await api.get(f"{base}/6/{x}/{y}.pbf")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/vnd.mapbox-vector-tile"
    assert "max-age" in response.headers["cache-control"]
    decoded = mapbox_vector_tile.decode(response.content)
    names = {f["properties"]["name"] for f in decoded["layer"]["features"]}
    assert "Paris" in names and "Lisbon" not in names
    again = await api.get(f"{base}/6/{x}/{y}.pbf")
    assert again.content == response.content
    world = mapbox_vector_tile.decode((await api.get(f"{base}/0/0/0.pbf")).content)
    assert len(world["layer"]["features"]) == 3


async def test_tile_requests_are_checked(api: httpx.AsyncClient) -> None:
    project, layer = await upload(api, "cities.geojson", makers.geojson_points())
    base = f"/api/v1/sessions/{project}/layers/{layer['layer_id']}/tiles"
    assert_error(await api.get(f"{base}/0/0/0.png"), 404, "not_found")
    assert_error(await api.get(f"{base}/3/8/0.pbf"), 404, "not_found")
    assert_error(await api.get(f"{base}/25/0/0.pbf"), 404, "not_found")
    assert_error(await api.get(f"{base}/a/0/0.pbf"), 400, "bad_request")
    assert_error(await api.get(f"{base}/0/0/0.gif"), 400, "bad_request")
    other = f"/api/v1/sessions/{project}/layers/00000000-0000-4000-8000-000000000000/tiles"
    assert_error(await api.get(f"{other}/0/0/0.pbf"), 404, "not_found")


async def test_cog_layers_serve_image_tiles(api: httpx.AsyncClient, tmp_path: Path) -> None:
    body = makers.geotiff(tmp_path / "europe.tif", size=256)
    project, layer = await upload(api, "europe.tif", body)
    assert layer["url"].endswith("/tiles/{z}/{x}/{y}.png")
    base = f"/api/v1/sessions/{project}/layers/{layer['layer_id']}/tiles"
    x, y = tile_of(0, 45, 4)
    for fmt, kind in (("png", "PNG"), ("webp", "WEBP")):
        response = await api.get(f"{base}/4/{x}/{y}.{fmt}")
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == f"image/{fmt}"
        image = Image.open(io.BytesIO(response.content))
        assert (image.format, image.size) == (kind, (256, 256))
    far = tile_of(150, -30, 4)
    assert (await api.get(f"{base}/4/{far[0]}/{far[1]}.png")).status_code == 204
    assert_error(await api.get(f"{base}/4/{x}/{y}.pbf"), 404, "not_found")
    assert_error(
        await api.get(f"/api/v1/sessions/{project}/layers/{layer['layer_id']}/data"),
        404,
        "not_found",
    )
