"""Memory stays bounded (docs/api-decisions.md, bounded work), measured on a real server
process: maproom started with `maproom serve` in a process of its own, its peak resident
memory (VmHWM) reset before each request and read after it. What a request may grow it by does
not depend on how much data the request brings or the layer holds."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest
import rasterio
from affine import Affine

from tests import makers
from tests.started import MB, Server, started


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("memory") / "data"
    settings = {"MAPROOM_RATE_LIMIT_PER_MINUTE": "1000000", "UPLOAD_MAX_SIZE_MB": "60",
                "MAPROOM_MAX_BODY_MB": "16"}  # fmt: skip
    with started(data, **settings) as server:
        yield server


@pytest.fixture(scope="module")
def api(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def new_project(api: httpx.Client) -> str:
    return str(api.post("/api/v1/sessions", json={}).json()["id"])


def test_tiles_of_a_large_layer_cost_bounded_memory(
    server: Server, api: httpx.Client, tmp_path: Path
) -> None:
    """600,000 points: 80 tiles from zoom 0 to 16 grow the server by less than 60 MB (the
    layer's data alone would take several hundred)."""
    rng = np.random.default_rng(3)
    lats, lons = rng.uniform(-60, 70, 600_000), rng.uniform(-180, 180, 600_000)
    lats[:200_000] = rng.normal(48.85, 0.05, 200_000)  # a dense city, to thin
    lons[:200_000] = rng.normal(2.35, 0.05, 200_000)
    csv = tmp_path / "points.csv"
    with csv.open("w") as out:
        out.write("lat,lon,n\n")
        out.writelines(
            f"{a:.6f},{b:.6f},{i}\n" for i, (a, b) in enumerate(zip(lats, lons, strict=True))
        )
    project = new_project(api)
    with csv.open("rb") as file:
        uploaded = api.post(f"/api/v1/sessions/{project}/files", files={"file": ("p.csv", file)})
    assert uploaded.status_code == 201, uploaded.text
    layer = uploaded.json()["layer"]["layer_id"]

    before = server.reset_peak()
    pick = random.Random(5)
    for _ in range(80):
        z = pick.randint(0, 16)
        if pick.random() < 0.5:  # half in the dense city, half anywhere
            x = int((2.35 + 180) / 360 * 2**z)
            y = int((1 - np.arcsinh(np.tan(np.radians(48.85))) / np.pi) / 2 * 2**z)
        else:
            x, y = pick.randrange(2**z), pick.randrange(2**z)
        response = api.get(f"/api/v1/sessions/{project}/layers/{layer}/tiles/{z}/{x}/{y}.pbf")
        assert response.status_code in (200, 204), response.text
    growth = server.peak() - before
    assert growth < 60 * MB, f"tiles grew the server by {growth / MB:.0f} MB"


def test_a_huge_body_costs_no_memory(server: Server, api: httpx.Client) -> None:
    project = new_project(api)

    def body() -> Iterator[bytes]:
        yield b'{"title": "'
        for _ in range(300):
            yield b"x" * MB
        yield b'"}'

    before = server.reset_peak()
    response = api.patch(f"/api/v1/sessions/{project}", content=body(),
                         headers={"Content-Type": "application/json"})  # fmt: skip
    assert response.status_code == 413
    growth = server.peak() - before
    assert growth < 40 * MB, f"a refused body grew the server by {growth / MB:.0f} MB"


def test_a_workbook_bomb_and_a_large_workbook_cost_bounded_memory(
    server: Server, api: httpx.Client, tmp_path: Path
) -> None:
    project = new_project(api)
    bomb = makers.xlsx_rows(tmp_path / "bomb.xlsx", 8_000_000, same=True)  # ~1 GB of XML
    before = server.reset_peak()
    with bomb.open("rb") as file:
        response = api.post(f"/api/v1/sessions/{project}/files", files={"file": ("b.xlsx", file)})
    assert response.status_code == 413, response.text
    assert server.peak() - before < 40 * MB

    many = makers.xlsx_rows(tmp_path / "many.xlsx", 250_000)  # ~45 MB of sheet XML
    before = server.reset_peak()
    with many.open("rb") as file:
        response = api.post(f"/api/v1/sessions/{project}/files", files={"file": ("m.xlsx", file)})
    assert response.status_code == 201, response.text
    growth = server.peak() - before
    assert growth < 120 * MB, f"a large workbook grew the server by {growth / MB:.0f} MB"


def test_a_geotiff_is_converted_in_less_than_twice_its_size(
    server: Server, api: httpx.Client, tmp_path: Path
) -> None:
    size = 4000  # 48 MB, the size of the example
    path = tmp_path / "scene.tif"
    rng = np.random.default_rng(1)
    profile = {"driver": "GTiff", "width": size, "height": size, "count": 3, "dtype": "uint8",
               "crs": "EPSG:3857", "transform": Affine(10, 0, 0, 0, -10, size * 10)}  # fmt: skip
    with rasterio.open(path, "w", **profile) as out:
        for band in (1, 2, 3):
            out.write(rng.integers(0, 255, (size, size), dtype=np.uint8), band)
    project = new_project(api)
    # A first small GeoTIFF loads the raster stack (rasterio, GDAL, rio-cogeo: once per
    # process, since a server loads it on its first raster, not at start): what is measured
    # is the conversion, whatever the file's size.
    tiny = makers.geotiff(tmp_path / "tiny.tif", size=16)
    warm = api.post(f"/api/v1/sessions/{project}/files", files={"file": ("t.tif", tiny)})
    assert warm.status_code == 201, warm.text
    before = server.reset_peak()
    with path.open("rb") as file:
        response = api.post(f"/api/v1/sessions/{project}/files", files={"file": ("s.tif", file)})
    assert response.status_code == 201, response.text
    growth = server.peak() - before
    limit = 2 * path.stat().st_size
    assert growth < limit, f"{growth / MB:.0f} MB for a {path.stat().st_size / MB:.0f} MB file"
