"""Vector tiles of large layers: memory, tile time, and the time to make a layer ready.

Two layers, made seeded:

- a CSV of 2,700,000 points (`id,lat,lon,name,value,category`, a fifth of them crowded into
  one city, the rest over the world), about 130 MB;
- a GeoJSON of 5,000 polygons of 200 vertices each (1,000,000 vertices), about 40 MB.

For each, against one maproom server (`maproom.app:app_from_env`, one worker, SQLite):

- *ready*: the upload's time until its 201 (conversion, statistics, database: the layer is
  on the map), beside `ogr2ogr`'s plain conversion of the same file to GeoJSON in the same run
  (the target of `bench/ingest.py`, maproom / ogr2ogr <= 1.0, must still hold here);
- *tiled*: from the same start until its first tile (z0) answers. The tile index is built in
  the background once the upload has answered, and a tile asked meanwhile waits for it; the
  server's peak resident growth over the upload and that first tile is *upload MB*;
- *tiles*: 300 tiles, zoom 0 to 16, half around features (a random feature's tile at a random
  zoom), half anywhere; the server's peak resident growth over all of them (VmHWM after
  resetting it through /proc, as bench/ingest.py does), and the p50 / p95 time of one tile
  over HTTP. Target: growth under 300 MB.

    python bench/tiles.py [--points 2700000] [--polygons 5000] [--tiles 300]

Needs gdal-bin (ogr2ogr) for the peer.
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import PeakGrowth, maproom, maproom_env, serving_pid
from ingest import OGR_OPTIONS, peer, write_points


def make_points(path: Path, rows: int) -> np.ndarray:
    """The points CSV; returns the points (lon, lat)."""
    rng = np.random.default_rng(11)
    lats, lons = rng.uniform(-60, 70, rows), rng.uniform(-180, 180, rows)
    city = rows // 5
    lats[:city], lons[:city] = rng.normal(48.85, 0.08, city), rng.normal(2.35, 0.12, city)
    write_points(path, lats, lons, rng.normal(100, 25, rows))
    return np.column_stack([lons, lats])


def make_polygons(path: Path, count: int, vertices: int = 200) -> np.ndarray:
    """The polygons GeoJSON (rough circles of 0.05 to 2 degrees); returns their centres."""
    rng = np.random.default_rng(12)
    centres = np.column_stack([rng.uniform(-170, 170, count), rng.uniform(-55, 65, count)])
    radii = rng.uniform(0.05, 2, count)
    angles = np.linspace(0, 2 * math.pi, vertices, endpoint=False)
    with path.open("wb") as out:
        out.write(b'{"type":"FeatureCollection","features":[\n')
        for i in range(count):
            ring = np.column_stack([centres[i, 0] + radii[i] * np.cos(angles),
                                    centres[i, 1] + radii[i] * np.sin(angles)])  # fmt: skip
            ring = np.round(np.vstack([ring, ring[:1]]), 5).tolist()
            feature = {"type": "Feature", "properties": {"id": i, "area": float(radii[i])},
                       "geometry": {"type": "Polygon", "coordinates": [ring]}}  # fmt: skip
            out.write((b",\n" if i else b"") + orjson.dumps(feature))
        out.write(b"\n]}\n")
    return centres


def tile_of(lng: float, lat: float, z: int) -> tuple[int, int]:
    n = 2**z
    lat = max(-85.05, min(85.05, lat))
    x = int((lng + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return min(x, n - 1), min(y, n - 1)


def pick_tiles(points: np.ndarray, count: int, seed: int) -> list[tuple[int, int, int]]:
    chooser = random.Random(seed)
    picked = []
    for i in range(count):
        z = chooser.randint(0, 16)
        if i % 2 == 0:
            lng, lat = points[chooser.randrange(len(points))]
            picked.append((z, *tile_of(float(lng), float(lat), z)))
        else:
            picked.append((z, chooser.randrange(2**z), chooser.randrange(2**z)))
    return picked


def measure(
    client: httpx.Client, pid: int, path: Path, points: np.ndarray, tiles: int
) -> dict[str, Any]:
    """Upload a file, then time and measure its tiles."""
    project = client.post("/api/v1/sessions", json={"title": path.name}).json()["id"]
    with PeakGrowth(pid) as upload_memory, path.open("rb") as stream:
        start = time.perf_counter()
        response = client.post(f"/api/v1/sessions/{project}/files",
                               files={"file": (path.name, stream)})  # fmt: skip
        ready = time.perf_counter() - start
        if response.status_code != 201:
            raise SystemExit(f"upload of {path.name}: {response.status_code} {response.text}")
        layer = response.json()["layer"]["layer_id"]
        first = client.get(f"/api/v1/sessions/{project}/layers/{layer}/tiles/0/0/0.pbf")
        tiled = time.perf_counter() - start
    if first.status_code not in (200, 204):
        raise SystemExit(f"first tile of {path.name}: {first.status_code} {first.text}")
    times, sizes, empty = [], [], 0
    with PeakGrowth(pid) as tile_memory:
        for z, x, y in pick_tiles(points, tiles, seed=len(path.name)):
            start = time.perf_counter()
            got = client.get(f"/api/v1/sessions/{project}/layers/{layer}/tiles/{z}/{x}/{y}.pbf")
            times.append(time.perf_counter() - start)
            if got.status_code not in (200, 204):
                raise SystemExit(f"tile {z}/{x}/{y}: {got.status_code} {got.text}")
            sizes.append(len(got.content))
            empty += got.status_code == 204 or not got.content
    times.sort()
    return {
        "ready": ready,
        "tiled": tiled,
        "upload_growth": upload_memory.growth,
        "tile_growth": tile_memory.growth,
        "p50": statistics.median(times),
        "p95": times[math.ceil(len(times) * 0.95) - 1],
        "largest": max(sizes),
        "empty": empty,
    }


def ogr(source: Path, target: Path) -> list[str]:
    if source.suffix == ".csv":
        options = [part for option in OGR_OPTIONS for part in ("-oo", option)]
        return ["ogr2ogr", "-f", "GeoJSON", str(target), str(source), *options]
    return ["ogr2ogr", "-f", "GeoJSON", str(target), str(source)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=2_700_000)
    parser.add_argument("--polygons", type=int, default=5_000)
    parser.add_argument("--tiles", type=int, default=300)
    opts = parser.parse_args()
    if not shutil.which("ogr2ogr"):
        raise SystemExit("bench/tiles.py needs ogr2ogr (apt-get install -y gdal-bin)")
    tmp = Path(tempfile.mkdtemp(prefix="maproom-tiles-"))
    try:
        files = {"points": tmp / "points.csv", "polygons": tmp / "polygons.geojson"}
        where = {"points": make_points(files["points"], opts.points),
                 "polygons": make_polygons(files["polygons"], opts.polygons)}  # fmt: skip
        peers = {name: peer(ogr(path, tmp / f"ogr-{name}.geojson"), tmp / f"ogr-{name}.geojson")
                 for name, path in files.items()}  # fmt: skip
        env = maproom_env(tmp / "data", None, UPLOAD_MAX_SIZE_MB="1024",
                          MAPROOM_RATE_LIMIT_PER_MINUTE="1000000")  # fmt: skip
        results = {}
        with maproom(env, tmp) as (started, key):
            pid = serving_pid(started.process)
            headers = {"Authorization": f"Bearer {key}"}
            with httpx.Client(base_url=started.base, headers=headers, timeout=1800) as client:
                for name, path in files.items():
                    results[name] = measure(client, pid, path, where[name], opts.tiles)
        report(opts, files, peers, results)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(opts: Any, files: dict[str, Path], peers: dict[str, Any], results: dict) -> None:
    mb = 1_048_576
    print(f"\nbench/tiles.py: {opts.tiles} tiles, zoom 0-16, per layer (one run, this machine)\n")
    print(f"{'layer':<10}{'file MB':>9}{'ready s':>9}{'tiled s':>9}{'ogr2ogr s':>11}{'ratio':>7}"
          f"{'upload MB':>11}{'tiles MB':>10}{'p50 ms':>8}{'p95 ms':>8}{'max KB':>8}")  # fmt: skip
    verdicts = []
    for name, result in results.items():
        ratio = result["ready"] / peers[name].seconds
        print(f"{name:<10}{files[name].stat().st_size / mb:>9.1f}{result['ready']:>9.2f}"
              f"{result['tiled']:>9.2f}"
              f"{peers[name].seconds:>11.2f}{ratio:>7.2f}{result['upload_growth'] / mb:>11.1f}"
              f"{result['tile_growth'] / mb:>10.1f}{result['p50'] * 1000:>8.1f}"
              f"{result['p95'] * 1000:>8.1f}{result['largest'] / 1024:>8.0f}")  # fmt: skip
        verdicts.append((f"{name}: tiles grow the server < 300 MB",
                         result["tile_growth"] < 300 * mb))  # fmt: skip
        verdicts.append((f"{name}: ready <= 1.0x ogr2ogr", ratio <= 1.0))
    print("\nogr2ogr peak RSS: " + ", ".join(
        f"{name} {peers[name].memory_bytes / mb:.0f} MB" for name in peers))  # fmt: skip
    print()
    for text, ok in verdicts:
        print(f"target {text}: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
