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

`python bench/tiles.py cold [--points 1000000] [--rounds 3]` measures *cold* tiles beside tipg
serving PostGIS (`bench/tipg_peer.py`: PostGIS 3 from Debian's `postgresql-15-postgis-3`, a
GiST index, tipg from PyPI): the same points in both (a fifth crowded into Paris), the same
198 tiles (18 per zoom from 4 to 14: two thirds at a random point's tile, one third at a
Paris point's), fetched 6 at a time as a browser does. Each round restarts each server before
its tiles (no tile cache, no open index; the operating system's file cache stays warm for
both), the servers taking turns; the median round of each is reported: tiles/s, p50 and p99
of a tile, bytes on the wire. Targets: maproom at least as fast as tipg, cold p99 under 1 s.
What the tiles hold differs by design: maproom thins evenly across space (about 5,500 points
a tile at most below zoom 15), tipg takes the first 10,000 rows by id in the tile.
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

from harness import PeakGrowth, free_port, maproom, maproom_env, serving_pid, tile_of
from ingest import KINDS, OGR_OPTIONS, peer, write_points


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


COLD_ZOOMS = range(4, 15)
COLD_PER_ZOOM = 18
COLD_CONCURRENCY = 6


def cold_tiles(lng: np.ndarray, lat: np.ndarray, crowd: int) -> list[tuple[int, int, int]]:
    """18 tiles per zoom from 4 to 14: two thirds at a random point, one third in the crowd."""
    chooser = random.Random(198)
    tiles = []
    for z in COLD_ZOOMS:
        for k in range(COLD_PER_ZOOM):
            i = chooser.randrange(crowd) if k % 3 == 0 else chooser.randrange(len(lng))
            tiles.append((z, *tile_of(float(lng[i]), float(lat[i]), z)))
    return tiles


def fetch_all(urls: list[str], headers: dict[str, str]) -> dict[str, Any]:
    """Every URL, `COLD_CONCURRENCY` at a time: wall time, each one's seconds, wire bytes."""
    from concurrent.futures import ThreadPoolExecutor

    limits = httpx.Limits(max_connections=COLD_CONCURRENCY)
    with httpx.Client(headers=headers, timeout=120, limits=limits) as client:

        def one(url: str) -> tuple[float, int, int]:
            start = time.perf_counter()
            got = client.get(url)
            return time.perf_counter() - start, got.status_code, got.num_bytes_downloaded

        start = time.perf_counter()
        with ThreadPoolExecutor(COLD_CONCURRENCY) as pool:
            done = list(pool.map(one, urls))
        wall = time.perf_counter() - start
    times = sorted(t for t, _, _ in done)
    return {
        "rate": len(urls) / wall,
        "p50": statistics.median(times),
        "p99": times[math.ceil(len(times) * 0.99) - 1],
        "wire": sum(b for _, _, b in done) / len(done),
        "failed": sum(status not in (200, 204) for _, status, _ in done),
    }


def cold(points: int, rounds: int) -> None:
    """Cold tiles of maproom beside tipg on PostGIS (module docstring)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import tipg_peer
    from harness import server

    tipg_peer.ensure_installed()
    rng = np.random.default_rng(11)
    lat, lng = rng.uniform(-60, 70, points), rng.uniform(-180, 180, points)
    crowd = points // 5
    lat[:crowd], lng[:crowd] = rng.normal(48.85, 0.08, crowd), rng.normal(2.35, 0.12, crowd)
    values = rng.normal(100, 25, points)
    kinds = np.array(KINDS, dtype=object)[np.arange(points) % len(KINDS)]
    tiles = cold_tiles(lng, lat, crowd)
    database = "maproom_bench_tipg"
    tmp = Path(tempfile.mkdtemp(prefix="maproom-cold-"))
    try:
        csv = tmp / "points.csv"
        write_points(csv, lat, lng, values)
        started = time.perf_counter()
        tipg_peer.load_points(database, lng, lat, values, list(kinds))
        loaded = time.perf_counter() - started
        print(f"PostGIS: {points:,} points loaded and indexed in {loaded:.1f} s")
        env = maproom_env(tmp / "data", None, UPLOAD_MAX_SIZE_MB="1024",
                          MAPROOM_RATE_LIMIT_PER_MINUTE="100000000")  # fmt: skip
        with maproom(env, tmp) as (started_server, key):
            headers = {"Authorization": f"Bearer {key}"}
            with httpx.Client(base_url=started_server.base, headers=headers, timeout=1800) as api:
                project = api.post("/api/v1/sessions", json={"title": "cold"}).json()["id"]
                with csv.open("rb") as stream:
                    made = api.post(f"/api/v1/sessions/{project}/files",
                                    files={"file": ("points.csv", stream)})  # fmt: skip
                if made.status_code != 201:
                    raise SystemExit(f"upload: {made.status_code} {made.text}")
                layer = made.json()["layer"]["layer_id"]
                api.get(f"/api/v1/sessions/{project}/layers/{layer}/tiles/0/0/0.pbf")  # indexed
        path = f"/api/v1/sessions/{project}/layers/{layer}/tiles/{{z}}/{{x}}/{{y}}.pbf"
        runs: dict[str, list[dict[str, Any]]] = {"maproom": [], "tipg": []}
        for round_ in range(rounds):
            order = ["maproom", "tipg"] if round_ % 2 == 0 else ["tipg", "maproom"]
            for name in order:
                if name == "maproom":
                    args = ["maproom.app:app_from_env", "--factory"]
                    with server(args, env, tmp, free_port()) as started_server:
                        urls = [started_server.base + path.format(z=z, x=x, y=y)
                                for z, x, y in tiles]  # fmt: skip
                        runs[name].append(fetch_all(urls, {"Authorization": f"Bearer {key}"}))
                else:
                    with tipg_peer.serve(database, free_port()) as template:
                        urls = [template.format(z=z, x=x, y=y) for z, x, y in tiles]
                        runs[name].append(fetch_all(urls, {}))
        report_cold(points, len(tiles), rounds, runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report_cold(points: int, tiles: int, rounds: int, runs: dict[str, list[dict]]) -> None:
    print(f"\ncold tiles: {points:,} points, {tiles} tiles at zoom 4-14, "
          f"{COLD_CONCURRENCY} at a time, each server restarted before each of {rounds} rounds "
          f"(median round)\n")  # fmt: skip
    print(f"{'server':<34}{'tiles/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'wire KB':>9}{'failed':>8}"
          f"   rounds (tiles/s)")  # fmt: skip
    medians = {}
    for name, label in (("maproom", "maproom (SQLite, tile index)"),
                        ("tipg", "tipg 1.6 on PostGIS 3 (GiST)")):  # fmt: skip
        ordered = sorted(runs[name], key=lambda r: r["rate"])
        median = medians[name] = ordered[len(ordered) // 2]
        each = ", ".join(f"{r['rate']:.1f}" for r in runs[name])
        print(f"{label:<34}{median['rate']:>9.1f}{median['p50'] * 1000:>9.0f}"
              f"{median['p99'] * 1000:>9.0f}{median['wire'] / 1024:>9.1f}{median['failed']:>8}"
              f"   {each}")  # fmt: skip
    ratio = medians["maproom"]["rate"] / medians["tipg"]["rate"]
    print(f"\nratio maproom / tipg: {ratio:.2f} (per round: " + ", ".join(
        f"{m['rate'] / t['rate']:.2f}" for m, t in zip(runs["maproom"], runs["tipg"], strict=True)
    ) + ")")  # fmt: skip
    fast = ratio >= 1.0 and medians["maproom"]["failed"] == 0
    print(f"target cold tiles at least as fast as tipg: {'met' if fast else 'NOT met'}")
    p99 = medians["maproom"]["p99"]
    print(f"target cold p99 < 1 s: {'met' if p99 < 1.0 else 'NOT met'} ({p99 * 1000:.0f} ms)")


def ogr(source: Path, target: Path) -> list[str]:
    if source.suffix == ".csv":
        options = [part for option in OGR_OPTIONS for part in ("-oo", option)]
        return ["ogr2ogr", "-f", "GeoJSON", str(target), str(source), *options]
    return ["ogr2ogr", "-f", "GeoJSON", str(target), str(source)]


def main() -> None:
    if sys.argv[1:2] == ["cold"]:
        parser = argparse.ArgumentParser(prog="bench/tiles.py cold")
        parser.add_argument("--points", type=int, default=1_000_000)
        parser.add_argument("--rounds", type=int, default=3)
        opts = parser.parse_args(sys.argv[2:])
        cold(opts.points, opts.rounds)
        return
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
