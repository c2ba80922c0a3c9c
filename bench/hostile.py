"""Tiles of a very detailed polygon, and the health check beside them.

One GeoJSON polygon of 1,000,000 vertices (a wavy ring about 5 degrees across, 38 MB) is
uploaded to a maproom server (`maproom.app:app_from_env`, one worker, SQLite). Then:

- *tile time*: for each zoom 0 to 14, the uncached tiles on the polygon's edge and inside it,
  eight at a time (so eight are being cut at any moment), timed over HTTP: p50 and max per
  zoom. Target: every tile under 1 s.
- *health*: meanwhile, `GET /healthz` every 20 ms from a process of its own (so the bench's
  own threads do not slow the probe): p50, p99 and max. Target: max under 50 ms.
- *peer*: the same tiles cut the way maproom cut them before it kept simplified versions (the
  whole geometry read, clipped to the tile and encoded: what tippecanoe-less servers do), in
  this process, one at a time: its p50 and max per zoom.

    python bench/hostile.py [--vertices 1000000] [--tiles-per-zoom 24]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import mapbox_vector_tile
import orjson
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import maproom, maproom_env

from maproom.geo.tilestore import EXTENT, in_tile, to_unit_square

CENTER = (10.0, 45.0)


def star(vertices: int) -> dict[str, object]:
    """A wavy ring of `vertices` points around CENTER, as a GeoJSON FeatureCollection."""
    ring = []
    for i in range(vertices):
        a = 2 * math.pi * i / vertices
        r = 5 + 0.5 * math.sin(a * 997) + 0.2 * math.sin(a * 31)
        ring.append([CENTER[0] + r * math.cos(a), CENTER[1] + 0.7 * r * math.sin(a)])
    ring.append(ring[0])
    feature = {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [ring]},
               "properties": {"name": "big"}}  # fmt: skip
    return {"type": "FeatureCollection", "features": [feature]}


def tile_of(lng: float, lat: float, z: int) -> tuple[int, int]:
    n = 2**z
    y = (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n
    return int((lng + 180) / 360 * n), int(y)


def tiles_at(z: int, count: int) -> list[tuple[int, int, int]]:
    """`count` distinct tiles at zoom z: around the ring's edge, and its middle."""
    picked: list[tuple[int, int, int]] = [(z, *tile_of(*CENTER, z))]
    for i in range(count * 4):
        a = 2 * math.pi * i / (count * 4)
        tile = (z, *tile_of(CENTER[0] + 5 * math.cos(a), CENTER[1] + 3.5 * math.sin(a), z))
        if tile not in picked:
            picked.append(tile)
    return picked[:count]


def peer_tile(shape: shapely.Geometry, z: int, x: int, y: int) -> bytes:
    """A tile cut from the whole geometry: project, clip, encode."""
    unit = shapely.transform(shape, lambda c: to_unit_square(c[:, 0], c[:, 1]))
    scale = float(2**z) * EXTENT
    clipped = in_tile(unit, x / 2**z, y / 2**z, scale)
    layer = {"name": "layer", "features": [] if clipped is None else
             [{"geometry": clipped, "properties": {"name": "big"}}]}  # fmt: skip
    encoded: bytes = mapbox_vector_tile.encode(
        [layer], default_options={"extents": EXTENT, "y_coord_down": True}
    )
    return encoded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vertices", type=int, default=1_000_000)
    parser.add_argument("--tiles-per-zoom", type=int, default=24)
    opts = parser.parse_args()
    document = star(opts.vertices)
    with tempfile.TemporaryDirectory(prefix="maproom-bench-") as tmp:
        folder = Path(tmp)
        source = folder / "big.geojson"
        source.write_bytes(orjson.dumps(document))
        env = maproom_env(folder / "data", None, MAPROOM_RATE_LIMIT_PER_MINUTE="1000000",
                          UPLOAD_MAX_SIZE_MB="100")  # fmt: skip
        with maproom(env, folder) as (started, key):
            headers = {"Authorization": f"Bearer {key}"}
            with httpx.Client(base_url=started.base, headers=headers, timeout=600) as api:
                project = api.post("/api/v1/sessions", json={}).json()["id"]
                with source.open("rb") as stream:
                    made = api.post(f"/api/v1/sessions/{project}/files",
                                    files={"file": ("big.geojson", stream)})  # fmt: skip
                made.raise_for_status()
                layer = made.json()["layer"]["layer_id"]
                base = f"/api/v1/sessions/{project}/layers/{layer}/tiles"
                api.get(f"{base}/1/1/0.pbf").raise_for_status()  # the index is built
                times, health = measure(started.base, headers, base, opts.tiles_per_zoom)
    shape = shapely.geometry.shape(document["features"][0]["geometry"])  # type: ignore[index]
    peer: dict[int, list[float]] = {}
    for z in range(15):
        for tile in tiles_at(z, opts.tiles_per_zoom)[:2]:
            started_at = time.perf_counter()
            peer_tile(shape, *tile)
            peer.setdefault(z, []).append(time.perf_counter() - started_at)
    report(opts, times, health, peer)


def probe(origin: str, stop: Any, out: Any) -> None:
    """`GET /healthz` every 20 ms until `stop` is set; the times go to `out` (a pipe)."""
    times = []
    with httpx.Client(base_url=origin, timeout=30) as client:
        while not stop.is_set():
            started_at = time.perf_counter()
            client.get("/healthz").raise_for_status()
            times.append(time.perf_counter() - started_at)
            stop.wait(0.02)
    out.send(times)


def measure(
    origin: str, headers: dict[str, str], base: str, per_zoom: int
) -> tuple[dict[int, list[float]], list[float]]:
    """Tile times per zoom (eight at a time) and the health check's times meanwhile."""
    times: dict[int, list[float]] = {}

    def fetch(tile: tuple[int, int, int]) -> None:
        z, x, y = tile
        started_at = time.perf_counter()
        response = client.get(f"{base}/{z}/{x}/{y}.pbf")
        response.raise_for_status()
        times.setdefault(z, []).append(time.perf_counter() - started_at)

    stop = multiprocessing.Event()
    receive, send = multiprocessing.Pipe(duplex=False)
    prober = multiprocessing.Process(target=probe, args=(origin, stop, send))
    limits = httpx.Limits(max_connections=8, max_keepalive_connections=8)
    with httpx.Client(base_url=origin, headers=headers, timeout=600, limits=limits) as client:
        prober.start()
        try:
            with ThreadPoolExecutor(8) as pool:
                tiles = [tile for z in range(15) for tile in tiles_at(z, per_zoom)]
                list(pool.map(fetch, tiles))
        finally:
            stop.set()
            health: list[float] = receive.recv()
            prober.join()
    return times, health


def report(
    opts: argparse.Namespace,
    times: dict[int, list[float]],
    health: list[float],
    peer: dict[int, list[float]],
) -> None:
    ms = 1000
    print(f"\ntiles of one polygon of {opts.vertices:,} vertices, eight cut at a time\n")
    print(f"{'zoom':>4} {'tiles':>6} {'p50 ms':>8} {'max ms':>8}   {'peer p50':>9} {'peer max':>9}")
    for z in sorted(times):
        ours, theirs = sorted(times[z]), sorted(peer.get(z, [0.0]))
        print(f"{z:>4} {len(ours):>6} {statistics.median(ours) * ms:>8.1f} {ours[-1] * ms:>8.1f}"
              f"   {statistics.median(theirs) * ms:>9.1f} {theirs[-1] * ms:>9.1f}")  # fmt: skip
    worst = max(max(v) for v in times.values())
    health.sort()
    p99 = health[max(0, math.ceil(len(health) * 0.99) - 1)]
    print(f"\nslowest tile {worst * ms:.0f} ms (target < 1000 ms)")
    print(f"/healthz meanwhile: {len(health)} probes, p50 {statistics.median(health) * ms:.1f} ms,"
          f" p99 {p99 * ms:.1f} ms, max {health[-1] * ms:.1f} ms (target max < 50 ms)")  # fmt: skip
    met = worst < 1 and health[-1] < 0.05
    print(f"targets {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
