"""A fresh server answers its first tiles of every kind at once, with no import race
(docs/tiles.md): the data is made by one `maproom serve`, which is stopped; a second one,
started on the same data, gets 16 concurrent first requests of each kind (vector tiles, PNG and
WebP raster tiles, the offline basemap's tiles), 64 at once, and answers every one with 200."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests import makers
from tests.started import started

CONCURRENT = 16


def test_sixteen_concurrent_first_tiles_of_every_kind(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = {"MAPROOM_RATE_LIMIT_PER_MINUTE": "1000000"}
    with started(data, **settings) as first, first.client() as api:
        project = api.post("/api/v1/sessions", json={}).json()["id"]
        files = f"/api/v1/sessions/{project}/files"
        tiff = makers.geotiff(tmp_path / "in.tif", size=256)
        raster = api.post(files, files={"file": ("in.tif", tiff)}).json()["layer"]["layer_id"]
        points = api.post(files, files={"file": ("p.geojson", makers.geojson_points())})
        vector = points.json()["layer"]["layer_id"]
        base = f"/api/v1/sessions/{project}/layers"
        assert api.get(f"{base}/{vector}/tiles/0/0/0.pbf").status_code == 200  # index built
    # Inside the raster (-10..10 E, 35..55 N) at zoom 5: x 15 and 16, y 10 to 12.
    tiles = [(5, 15 + i % 2, 10 + i // 2 % 3) for i in range(CONCURRENT)]
    paths = [
        *(f"{base}/{vector}/tiles/{z}/{x}/{y}.pbf" for z, x, y in tiles),
        *(f"{base}/{raster}/tiles/{z}/{x}/{y}.png" for z, x, y in tiles),
        *(f"{base}/{raster}/tiles/{z}/{x}/{y}.webp" for z, x, y in tiles),
        *(f"/basemap/offline/{z}/{x}/{y}.pbf" for z, x, y in tiles),
    ]
    with started(data, **settings) as fresh, fresh.client() as api:

        def get(path: str) -> tuple[str, int]:
            return path, api.get(path).status_code

        with ThreadPoolExecutor(len(paths)) as pool:
            answers = list(pool.map(get, paths))
        log = fresh.log_text()
    failed = [(path, status) for path, status in answers if status != 200]
    assert failed == [], f"{failed}\n{log}"
    assert "ImportError" not in log
