"""Layer exports of a million points against `ogr2ogr` (docs/exports.md).

One maproom server (`maproom.app:app_from_env`, one worker, SQLite, the default analysis
memory of 512 MB). A layer of 1,000,000 points (CSV: `value` uniform 0..100, `category` one
of four) is uploaded. Then, for GeoPackage and FlatGeobuf:

- *maproom*: `GET .../layers/{id}/export?format=...`, streamed to a file over HTTP, timed to
  the last byte, with the server's peak resident growth. The layer's first export (to
  GeoPackage) also builds its table for the analysis engine (as its first question does,
  within `MAPROOM_ANALYSIS_MEMORY_MB`): it is timed, and its growth reported, apart from the
  exports that follow, which find the table built;
- *peer*, in the same run: `ogr2ogr -f GPKG|FlatGeobuf` converting the layer's stored data
  (the GeoJSON file maproom keeps) to the same format, timed.

Both files are read back with GDAL (pyogrio) for their feature counts. Targets: maproom's
first export (table included) at most 1.0x the peer's time; the server's growth while
exporting under 200 MB.

    python bench/export.py [--points 1000000]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analysis import make_points, served_project, upload
from harness import PeakGrowth

FORMATS = {"gpkg": "GPKG", "fgb": "FlatGeobuf"}
MB = 1_048_576


def export(api: httpx.Client, path: str, fmt: str, out: Path) -> float:
    """Seconds from the request to the export's last byte, written to `out`."""
    started = time.perf_counter()
    with api.stream("GET", path, params={"format": fmt}) as response, out.open("wb") as file:
        response.raise_for_status()
        for chunk in response.iter_bytes(1 << 20):
            file.write(chunk)
    return time.perf_counter() - started


def ogr2ogr(driver: str, source: Path, out: Path) -> float:
    started = time.perf_counter()
    subprocess.run(["ogr2ogr", "-f", driver, str(out), str(source)], check=True,
                   capture_output=True)  # fmt: skip
    return time.perf_counter() - started


def count(path: Path) -> int:
    import pyogrio

    return int(pyogrio.read_info(path, force_feature_count=True)["features"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=1_000_000)
    opts = parser.parse_args()
    if shutil.which("ogr2ogr") is None:
        sys.exit("ogr2ogr is missing: apt-get install gdal-bin (the peer of this benchmark)")
    rows = []
    with tempfile.TemporaryDirectory(prefix="maproom-bench-") as tmp:
        folder = Path(tmp)
        make_points(folder / "points.csv", opts.points)
        data = folder / "data"
        with served_project(folder) as (api, project, pid):
            layer = upload(api, project, folder / "points.csv")
            path = f"/api/v1/sessions/{project}/layers/{layer['layer_id']}/export"
            stored = next((data / "files").rglob("layer.geojson"))
            with PeakGrowth(pid) as building:  # GeoPackage, building the table first
                first = export(api, path, "gpkg", folder / "first.gpkg")
            for fmt, driver in FORMATS.items():
                out = folder / f"maproom.{fmt}"
                with PeakGrowth(pid) as memory:
                    seconds = export(api, path, fmt, out)
                peer_out = folder / f"ogr2ogr.{fmt}"
                peer = ogr2ogr(driver, stored, peer_out)
                rows.append((fmt, seconds, memory.growth, peer, count(out), count(peer_out)))
    report(opts, (first, building.growth), rows)


def report(
    opts: argparse.Namespace,
    first: tuple[float, int],
    rows: list[tuple[str, float, int, float, int, int]],
) -> None:
    print(f"\n{opts.points:,} points, exported over HTTP\n")
    peers = {fmt: peer for fmt, _, _, peer, _, _ in rows}
    ratio = first[0] / peers["gpkg"]
    print(f"first export (gpkg, building the layer's table) {first[0]:.2f} s, "
          f"server growth {first[1] / MB:.0f} MB   ratio {ratio:.2f}")  # fmt: skip
    met = first[0] <= peers["gpkg"]
    for fmt, seconds, growth, peer, ours, theirs in rows:
        print(f"{fmt:5} maproom {seconds:.2f} s, server growth {growth / MB:.0f} MB, "
              f"{ours:,} features")  # fmt: skip
        print(f"      peer: ogr2ogr from the stored GeoJSON {peer:.2f} s, {theirs:,} features   "
              f"ratio {seconds / peer:.2f}")  # fmt: skip
        met = met and seconds <= peer and growth < 200 * MB and ours == theirs == opts.points
    print(f"targets (<= 1.0 x ogr2ogr, the first export too; growth < 200 MB; every feature): "
          f"{'met' if met else 'NOT met'}")  # fmt: skip


if __name__ == "__main__":
    main()
