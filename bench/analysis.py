"""Data answers on a million points: aggregate_points against GeoPandas, sorted feature queries
and statistics (docs/analysis.md).

One maproom server (`maproom.app:app_from_env`, one worker, SQLite, the default analysis
memory of 512 MB). Two layers are uploaded: 1,000,000 points (CSV: `value` uniform 0..100,
`category` one of four) over a 100 x 50 degree box, and 5,000 irregular quadrilaterals tiling
it (GeoJSON). Then, over HTTP:

- *tables*: the first question of each layer builds its table (timed once);
- *aggregate*: `aggregate_points` (count) of the points in the polygons, timed, with the
  server's peak resident growth; the *peer*, in this process: GeoPandas reading the same two
  layer files maproom stores (`read_file`, pyogrio) then `sjoin(predicate="within")` and
  `groupby().size()`. Target: maproom at most 0.5 of the peer's time, growth under 300 MB;
- *top 10*: `GET .../features?sort=value&order=desc&limit=10`, 20 times: p50 and max. Target
  under 200 ms;
- *stats*: `GET .../stats?field=value&filter={category == "a"}`, 20 times: p50 and max.
  Target under 300 ms.

    python bench/analysis.py [--points 1000000] [--polygons 5000]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import PeakGrowth, maproom, maproom_env, serving_pid

WIDTH, HEIGHT = 100.0, 50.0


def make_points(path: Path, count: int) -> None:
    rng = np.random.default_rng(5)
    xs, ys = rng.uniform(0, WIDTH, count), rng.uniform(0, HEIGHT, count)
    values = rng.uniform(0, 100, count)
    with path.open("w") as out:
        out.write("lon,lat,value,category\n")
        for i in range(count):
            out.write(f"{xs[i]:.6f},{ys[i]:.6f},{values[i]:.3f},{'abcd'[i % 4]}\n")


def make_polygons(path: Path, count: int) -> None:
    columns = round((count * WIDTH / HEIGHT) ** 0.5)
    rows = count // columns
    dx, dy = WIDTH / columns, HEIGHT / rows
    features = []
    for i in range(columns):
        for j in range(rows):
            x, y = i * dx, j * dy
            ring = [[x, y], [x + dx, y + dy * 0.05], [x + dx, y + dy], [x - dx * 0.02, y + dy],
                    [x, y]]  # fmt: skip
            features.append({"type": "Feature", "properties": {"cell": f"{i}-{j}"},
                             "geometry": {"type": "Polygon", "coordinates": [ring]}})  # fmt: skip
    path.write_bytes(orjson.dumps({"type": "FeatureCollection", "features": features}))


def upload(api: httpx.Client, project: str, path: Path) -> dict[str, Any]:
    with path.open("rb") as stream:
        made = api.post(f"/api/v1/sessions/{project}/files", files={"file": (path.name, stream)})
    made.raise_for_status()
    return dict(made.json()["layer"])


@contextlib.contextmanager
def served_project(folder: Path) -> Iterator[tuple[httpx.Client, str, int]]:
    """One maproom server on `folder / "data"` (uploads up to 200 MB, no rate limit), a client
    sending its key, and a new project: (the client, the project's id, the server's pid)."""
    env = maproom_env(folder / "data", None, MAPROOM_RATE_LIMIT_PER_MINUTE="10000000",
                      UPLOAD_MAX_SIZE_MB="200")  # fmt: skip
    with maproom(env, folder) as (started, key):
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=started.base, headers=headers, timeout=1800) as api:
            project = api.post("/api/v1/sessions", json={}).json()["id"]
            yield api, project, serving_pid(started.process)


def timed(call: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    answer = call()
    return time.perf_counter() - started, answer


def peer(points: Path, polygons: Path) -> tuple[float, int]:
    """GeoPandas reading the stored layers, then sjoin + groupby: seconds, points counted."""
    import geopandas

    started = time.perf_counter()
    pts = geopandas.read_file(points, engine="pyogrio")
    polys = geopandas.read_file(polygons, engine="pyogrio")
    joined = geopandas.sjoin(pts, polys, predicate="within")
    counts = joined.groupby("index_right").size()
    return time.perf_counter() - started, int(counts.sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--polygons", type=int, default=5000)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="maproom-bench-") as tmp:
        folder = Path(tmp)
        make_points(folder / "points.csv", opts.points)
        make_polygons(folder / "cells.geojson", opts.polygons)
        data = folder / "data"
        with served_project(folder) as (api, project, pid):
            points = upload(api, project, folder / "points.csv")
            cells = upload(api, project, folder / "cells.geojson")
            base = f"/api/v1/sessions/{project}/layers"
            with PeakGrowth(pid) as building:
                build_points, _ = timed(lambda: api.get(f"{base}/{points['layer_id']}/stats"))
                build_cells, _ = timed(lambda: api.get(f"{base}/{cells['layer_id']}/stats"))
            action = {"type": "aggregate_points", "points_layer_id": points["layer_id"],
                      "polygons_layer_id": cells["layer_id"], "stat": "count"}  # fmt: skip
            path = f"/api/v1/sessions/{project}/map/actions"
            with PeakGrowth(pid) as memory:
                seconds, made = timed(lambda: api.post(path, json={"actions": [action]}))
            made.raise_for_status()
            layer = made.json()["layers"][0]["layer_id"]
            total = api.get(f"{base}/{layer}/stats", params={"field": "count"}).json()["sum"]
            top = [timed(lambda: api.get(f"{base}/{points['layer_id']}/features", params={
                "sort": "value", "order": "desc", "limit": 10}).raise_for_status())[0]
                for _ in range(20)]  # fmt: skip
            where = orjson.dumps({"field": "category", "op": "==", "value": "a"}).decode()
            stats = [timed(lambda: api.get(f"{base}/{points['layer_id']}/stats", params={
                "field": "value", "filter": where}).raise_for_status())[0]
                for _ in range(20)]  # fmt: skip
        stored = sorted((data / "files").rglob("layer.geojson"), key=lambda p: p.stat().st_size)
        peer_seconds, peer_total = peer(stored[-1], stored[0])
    report(opts, (build_points, build_cells, building.growth), seconds, memory.growth, total,
           peer_seconds, peer_total, top, stats)  # fmt: skip


def report(opts: argparse.Namespace, tables: tuple[float, float, int], seconds: float,
           growth: int, total: int, peer_seconds: float, peer_total: int, top: list[float],
           stats: list[float]) -> None:  # fmt: skip
    ms, mb = 1000, 1_048_576
    print(f"\n{opts.points:,} points, {opts.polygons:,} polygons\n")
    print(f"tables (first question)   points {tables[0]:.1f} s, polygons {tables[1]:.1f} s, "
          f"server growth {tables[2] / mb:.0f} MB")  # fmt: skip
    print(f"aggregate_points (count)  maproom {seconds:.2f} s (points counted {total:,}), "
          f"server growth {growth / mb:.0f} MB")  # fmt: skip
    print(f"  peer: GeoPandas read + sjoin + groupby {peer_seconds:.2f} s "
          f"(points counted {peer_total:,})   ratio {seconds / peer_seconds:.2f}")  # fmt: skip
    print(f"top 10 by value           p50 {statistics.median(top) * ms:.0f} ms, "
          f"max {max(top) * ms:.0f} ms")  # fmt: skip
    print(f"stats with a filter       p50 {statistics.median(stats) * ms:.0f} ms, "
          f"max {max(stats) * ms:.0f} ms")  # fmt: skip
    met = (seconds <= 0.5 * peer_seconds and growth < 300 * mb
           and statistics.median(top) < 0.2 and statistics.median(stats) < 0.3)  # fmt: skip
    print(f"targets (<= 0.5 x peer, < 300 MB, top 10 < 200 ms, stats < 300 ms): "
          f"{'met' if met else 'NOT met'}")  # fmt: skip


if __name__ == "__main__":
    main()
