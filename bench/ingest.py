"""Benchmark: uploads through maproom's API against GDAL's command-line converters, in one run.

1. A 1,000,000-row CSV (lat/lon plus three properties, ~55 MB) uploaded to
   `POST /api/v1/sessions/{id}/files` until the answer says the layer exists, against
   `ogr2ogr -f GeoJSON` on the same file (with numeric type detection, as maproom types numbers).
   Also the server's peak memory growth during the upload (VmHWM after resetting it through
   /proc/<pid>/clear_refs, minus VmRSS before), against the file size.
2. A 4096x4096 RGB GeoTIFF uploaded (becomes a Cloud-Optimized GeoTIFF), against
   `gdal_translate -of COG` with its defaults, and with maproom's own profile (DEFLATE level 1,
   predictor, 512-pixel blocks, all cores) for reference.

    python bench/ingest.py [--rows 1000000] [--size 4096] [--repeat 1] [--postgres URL] [--keep]

Targets: CSV end to end no slower than ogr2ogr's conversion alone (ratio <= 1.0) with peak
memory growth under 2x the file size; GeoTIFF at most 1.2x gdal_translate. The peers need
Debian's `gdal-bin`. The server is one uvicorn worker on the embedded SQLite (and PostgreSQL
with `--postgres`); the client shares the machine's cores.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import numpy as np
from harness import maproom, maproom_env

MB = 1_048_576


@dataclass
class Run:
    seconds: float
    peak_growth_bytes: int | None = None
    peak_rss_bytes: int | None = None


def make_csv(path: Path, rows: int) -> None:
    """`id,lat,lon,name,value,category`, seeded."""
    rng = np.random.default_rng(42)
    lats = rng.uniform(-60, 70, rows)
    lons = rng.uniform(-180, 180, rows)
    values = rng.normal(100, 25, rows)
    kinds = ("school", "clinic", "market", "park", "depot")
    with path.open("w", encoding="utf-8") as out:
        out.write("id,lat,lon,name,value,category\n")
        for start in range(0, rows, 100_000):
            end = min(rows, start + 100_000)
            out.writelines(
                f"{i},{lats[i]:.6f},{lons[i]:.6f},site {i},{values[i]:.2f},{kinds[i % 5]}\n"
                for i in range(start, end)
            )


def make_tiff(path: Path, size: int) -> None:
    """A `size`x`size` RGB GeoTIFF in web mercator: gradients and noise, uncompressed, tiled."""
    import rasterio
    from affine import Affine

    rng = np.random.default_rng(7)
    ramp = np.linspace(0, 255, size, dtype=np.float32)
    noise = rng.integers(0, 40, (size, size), dtype=np.uint8)
    bands = [
        (ramp[None, :] + noise).clip(0, 255).astype(np.uint8),
        (ramp[:, None] + noise).clip(0, 255).astype(np.uint8),
        np.broadcast_to(((ramp[None, :] + ramp[:, None]) / 2).astype(np.uint8), (size, size)),
    ]
    step = 2.0  # metres per pixel, over Lisbon
    profile = {
        "driver": "GTiff",
        "width": size,
        "height": size,
        "count": 3,
        "dtype": "uint8",
        "crs": "EPSG:3857",
        "transform": Affine(step, 0, -1_020_000, 0, -step, 4_690_000),
        "tiled": True,
        "blockxsize": 256,
        "blockysize": 256,
    }
    with rasterio.open(path, "w", **profile) as dst:
        for i, band in enumerate(bands, start=1):
            dst.write(band, i)


# maproom's COG profile (maproom/geo/raster.py) as gdal_translate creation options.
MATCHED = ("COMPRESS=DEFLATE", "LEVEL=1", "PREDICTOR=YES", "BLOCKSIZE=512", "NUM_THREADS=ALL_CPUS")


def ogr2ogr(source: Path, target: Path) -> list[str]:
    """CSV to GeoJSON, lat/lon columns to points, numbers typed (as maproom does)."""
    options = ["X_POSSIBLE_NAMES=lon", "Y_POSSIBLE_NAMES=lat", "KEEP_GEOM_COLUMNS=NO"]
    options.append("AUTODETECT_TYPE=YES")
    return ["ogr2ogr", "-f", "GeoJSON", str(target), str(source), *_each("-oo", options)]


def gdal_translate(source: Path, target: Path, options: tuple[str, ...] = ()) -> list[str]:
    """GeoTIFF to COG."""
    return ["gdal_translate", "-q", "-of", "COG", *_each("-co", options), str(source), str(target)]


def _each(flag: str, values: list[str] | tuple[str, ...]) -> list[str]:
    return [part for value in values for part in (flag, value)]


def peer(command: list[str]) -> Run:
    """Run a command; its wall time and peak RSS (from wait4's rusage)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(
            f"{command[0]} failed: {proc.stderr.read().decode() if proc.stderr else ''}"
        )
    return Run(seconds, peak_rss_bytes=usage.ru_maxrss * 1024)


def _status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise KeyError(field)


def upload(base: str, key: str, path: Path, pid: int, expect_type: str) -> Run:
    """One upload into a fresh project; time until the 201, and the server's peak growth."""
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, headers=headers, timeout=600) as client:
        project = client.post("/api/v1/sessions", json={"title": path.name}).json()["id"]
        before = _status_kb(pid, "VmRSS")
        Path(f"/proc/{pid}/clear_refs").write_text("5")  # resets VmHWM to the current RSS
        start = time.perf_counter()
        with path.open("rb") as stream:
            response = client.post(
                f"/api/v1/sessions/{project}/files", files={"file": (path.name, stream)}
            )
        seconds = time.perf_counter() - start
        peak = _status_kb(pid, "VmHWM")
    if response.status_code != 201:
        raise SystemExit(f"upload of {path.name} failed: {response.status_code} {response.text}")
    layer = response.json()["layer"]
    if layer is None or layer["layer_type"] != expect_type:
        raise SystemExit(f"upload of {path.name} made no {expect_type} layer: {response.text}")
    return Run(seconds, peak_growth_bytes=(peak - before) * 1024)


def best(runs: list[Run]) -> Run:
    return min(runs, key=lambda run: run.seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--size", type=int, default=4096, help="GeoTIFF width and height")
    parser.add_argument("--repeat", type=int, default=1, help="best of N, for both sides")
    parser.add_argument("--postgres", help="also measure maproom on this PostgreSQL database")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    opts = parser.parse_args()
    for tool in ("ogr2ogr", "gdal_translate"):
        if not shutil.which(tool):
            raise SystemExit(f"bench/ingest.py needs {tool} (apt-get install -y gdal-bin)")

    tmp = Path(tempfile.mkdtemp(prefix="maproom-ingest-"))
    try:
        csv, tif = tmp / "points.csv", tmp / "scene.tif"
        make_csv(csv, opts.rows)
        make_tiff(tif, opts.size)
        csv_size = csv.stat().st_size

        ogr = best([peer(ogr2ogr(csv, tmp / f"ogr{i}.geojson")) for i in range(opts.repeat)])
        cog_default = best(
            [peer(gdal_translate(tif, tmp / f"d{i}.tif")) for i in range(opts.repeat)]
        )
        cog_matched = best(
            [peer(gdal_translate(tif, tmp / f"m{i}.tif", MATCHED)) for i in range(opts.repeat)]
        )

        databases = [("SQLite", None)] + ([("PostgreSQL", opts.postgres)] if opts.postgres else [])
        rows: list[tuple[str, Run, Run]] = []
        for label, url in databases:
            env = maproom_env(
                tmp / f"data-{label}",
                url,
                UPLOAD_MAX_SIZE_MB="2048",
                MAPROOM_RATE_LIMIT_PER_MINUTE="1000000",
            )
            with maproom(env, tmp) as (started, key):
                pid = started.process.pid
                csv_run = best(
                    [upload(started.base, key, csv, pid, "geojson") for _ in range(opts.repeat)]
                )
                tif_run = best(
                    [upload(started.base, key, tif, pid, "cog") for _ in range(opts.repeat)]
                )
            rows.append((label, csv_run, tif_run))
    finally:
        if opts.keep:
            print(f"files kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    print(f"\nCSV: {opts.rows:,} rows, {csv_size / MB:.1f} MB")
    ogr_rss = _mb(ogr.peak_rss_bytes)
    print(f"  ogr2ogr -f GeoJSON             {ogr.seconds:7.2f} s   peak RSS {ogr_rss}")
    for label, csv_run, _ in rows:
        growth = csv_run.peak_growth_bytes or 0
        print(
            f"  maproom upload ({label:<10})   {csv_run.seconds:7.2f} s   "
            f"ratio {csv_run.seconds / ogr.seconds:4.2f} (target <= 1.00: "
            f"{_verdict(csv_run.seconds <= ogr.seconds)})   peak growth {_mb(growth)} = "
            f"{growth / csv_size:.2f}x file (target < 2x: {_verdict(growth < 2 * csv_size)})"
        )
    print(f"\nGeoTIFF: {opts.size}x{opts.size} RGB, {tif.name}")
    print(f"  gdal_translate -of COG         {cog_default.seconds:7.2f} s   (defaults)")
    print(f"  gdal_translate, maproom's profile {cog_matched.seconds:4.2f} s   (reference)")
    for label, _, tif_run in rows:
        ratio = tif_run.seconds / cog_default.seconds
        print(
            f"  maproom upload ({label:<10})   {tif_run.seconds:7.2f} s   "
            f"ratio {ratio:4.2f} (target <= 1.20: {_verdict(ratio <= 1.2)})   "
            f"peak growth {_mb(tif_run.peak_growth_bytes)}"
        )


def _mb(value: int | None) -> str:
    return "-" if value is None else f"{value / MB:.0f} MB"


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


if __name__ == "__main__":
    main()
