"""Benchmark: uploads through maproom's API against GDAL's command-line converters, in one run.

1. CSV. A seeded 1,000,000-row table `id,lat,lon,name,value,category` (about 50 MB) uploaded
   to `POST /api/v1/sessions/{id}/files` (multipart, streamed from disk by httpx), timed until
   the 201 that carries the layer (its type and `feature_count` are checked), against

       ogr2ogr -f GeoJSON out.geojson in.csv -oo X_POSSIBLE_NAMES=lon -oo Y_POSSIBLE_NAMES=lat
               -oo KEEP_GEOM_COLUMNS=NO

   which writes every property as a string; maproom types numbers, so the same command with
   `-oo AUTODETECT_TYPE=YES` is printed for reference. Memory: the server's peak RSS growth
   during the upload (VmRSS before; VmHWM after resetting it through /proc/<pid>/clear_refs, or
   VmRSS sampled every 10 ms where that is refused), against the file size; a peer's peak RSS
   as GNU time reports it (`%M`).
2. GeoTIFF. A seeded 4096x4096 3-band uint8 GeoTIFF in EPSG:3857 (two gradients plus noise and a
   diagonal ramp; uncompressed, 256-pixel tiles, 48 MB) uploaded (it becomes a Cloud-Optimized
   GeoTIFF), against `gdal_translate -of COG`. maproom keeps the source grid (not web-optimized,
   so no `TILING_SCHEME=GoogleMapsCompatible` peer) and writes DEFLATE level 1 with the
   horizontal predictor, 512-pixel blocks and "average" overviews on every core
   (maproom/geo/raster.py). The judged peer is the issue's `gdal_translate -of COG` with GDAL's
   defaults (LZW, cubic overviews, one thread); the same command writing maproom's profile, on
   one thread and on every core, is printed for reference (rio-cogeo reads through a warped
   view and compresses twice, so maproom is slower than GDAL writing the identical file).

    python bench/ingest.py [--rows 1000000] [--size 4096] [--repeat 1] [--postgres URL] [--keep]

Each figure is measured once, or as the best of `--repeat N` on both sides (peak memory: the
highest of the N). Targets: the CSV upload no slower than ogr2ogr (ratio <= 1.0) with peak memory
growth under 2x the file size; the GeoTIFF upload at most 1.2x `gdal_translate -of COG`. The
peers need Debian's `gdal-bin` and `time` (GNU time). The server is one uvicorn worker, the
process measured, on the embedded SQLite (and PostgreSQL with `--postgres`); the client runs on
the same machine.
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
from typing import Any

import httpx
import numpy as np
from harness import PeakGrowth, maproom, maproom_env, serving_pid

MB = 1_048_576
KINDS = ("school", "clinic", "market", "park", "depot")
OGR_OPTIONS = ("X_POSSIBLE_NAMES=lon", "Y_POSSIBLE_NAMES=lat", "KEEP_GEOM_COLUMNS=NO")
# maproom's COG profile (maproom/geo/raster.py) as COG driver creation options.
PROFILE = (
    "COMPRESS=DEFLATE",
    "LEVEL=1",
    "PREDICTOR=YES",
    "BLOCKSIZE=512",
    "OVERVIEW_RESAMPLING=AVERAGE",
)
DEFAULT_COG = "gdal_translate -of COG, defaults"
JUDGED_COG = DEFAULT_COG
COG_PEERS = {
    DEFAULT_COG: (),
    "gdal_translate, maproom's profile, 1 thread": PROFILE,
    "gdal_translate, maproom's profile, all CPUs": (*PROFILE, "NUM_THREADS=ALL_CPUS"),
}
OGR = "ogr2ogr -f GeoJSON"
OGR_TYPED = "ogr2ogr ... -oo AUTODETECT_TYPE=YES"


@dataclass
class Run:
    """One measurement: wall time, peak memory (a peer's RSS, the server's growth), output."""

    seconds: float
    memory_bytes: int
    output_bytes: int
    memory_method: str = "GNU time"


def best(runs: list[Run]) -> Run:
    """The fastest time, the highest memory, of repeated runs."""
    return Run(
        min(run.seconds for run in runs),
        max(run.memory_bytes for run in runs),
        runs[0].output_bytes,
        runs[0].memory_method,
    )


def make_csv(path: Path, rows: int) -> None:
    """`id,lat,lon,name,value,category`, seeded."""
    rng = np.random.default_rng(42)
    lats = rng.uniform(-60, 70, rows)
    lons = rng.uniform(-180, 180, rows)
    write_points(path, lats, lons, rng.normal(100, 25, rows))


def write_points(path: Path, lats: np.ndarray, lons: np.ndarray, values: np.ndarray) -> None:
    """The points as `id,lat,lon,name,value,category` rows, 100,000 at a time."""
    rows = len(lats)
    with path.open("w", encoding="utf-8") as out:
        out.write("id,lat,lon,name,value,category\n")
        for start in range(0, rows, 100_000):
            out.writelines(
                f"{i},{lats[i]:.6f},{lons[i]:.6f},site {i},{values[i]:.2f},{KINDS[i % 5]}\n"
                for i in range(start, min(rows, start + 100_000))
            )


def make_tiff(path: Path, size: int) -> None:
    """A `size`x`size` RGB GeoTIFF in web mercator, seeded (see module doc)."""
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


def ogr2ogr(source: Path, target: Path, typed: bool) -> list[str]:
    """CSV to GeoJSON points; `typed` adds ogr2ogr's numeric type detection."""
    options = (*OGR_OPTIONS, "AUTODETECT_TYPE=YES") if typed else OGR_OPTIONS
    return ["ogr2ogr", "-f", "GeoJSON", str(target), str(source), *_each("-oo", options)]


def gdal_translate(source: Path, target: Path, options: tuple[str, ...]) -> list[str]:
    """GeoTIFF to COG with the given creation options."""
    return ["gdal_translate", "-q", "-of", "COG", *_each("-co", options), str(source), str(target)]


def _each(flag: str, values: tuple[str, ...]) -> list[str]:
    return [part for value in values for part in (flag, value)]


def peer(command: list[str], target: Path) -> Run:
    """Run a converter under GNU time; its wall time, peak RSS and output size."""
    # Not wait4's rusage of our own child: a child forked from this process counts this
    # process's resident pages (about 100 MB with numpy and rasterio) in its ru_maxrss.
    target.unlink(missing_ok=True)  # ogr2ogr will not write over an existing GeoJSON file
    log, rss = target.with_suffix(".log"), target.with_suffix(".rss")
    with log.open("wb") as errors:
        start = time.perf_counter()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", str(rss), *command],
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({done.returncode}): {log.read_text()}")
    return Run(seconds, int(rss.read_text().split()[-1]) * 1024, target.stat().st_size)


def upload(
    client: httpx.Client, path: Path, pid: int, data_dir: Path, expect: dict[str, Any]
) -> Run:
    """One upload into a fresh project: time until the 201, server peak growth, output size."""
    created = client.post("/api/v1/sessions", json={"title": path.name})
    created.raise_for_status()
    project = created.json()["id"]
    with PeakGrowth(pid) as memory, path.open("rb") as stream:
        start = time.perf_counter()
        response = client.post(
            f"/api/v1/sessions/{project}/files", files={"file": (path.name, stream)}
        )
        seconds = time.perf_counter() - start
    if response.status_code != 201:
        raise SystemExit(f"upload of {path.name} failed: {response.status_code} {response.text}")
    body = response.json()
    layer = body.get("layer") or {}
    if any(layer.get(name) != value for name, value in expect.items()):
        raise SystemExit(f"upload of {path.name}: expected a layer with {expect}: {response.text}")
    if layer.get("layer_type") == "geojson":  # its tile index is built in the background now:
        tile = f"/api/v1/sessions/{project}/layers/{layer['layer_id']}/tiles/0/0/0.pbf"
        client.get(tile).raise_for_status()  # wait for it, so it does not slow the next upload
    outputs = list((data_dir / "files" / "p" / project / body["id"]).glob("layer.*"))
    output_bytes = sum(output.stat().st_size for output in outputs)
    return Run(seconds, memory.growth, output_bytes, memory.method)


def measure_maproom(
    label: str, database_url: str | None, tmp: Path, files: dict[str, Path], opts: Any
) -> dict[str, Run]:
    """Start a maproom server on a fresh data folder and time both uploads on it."""
    data_dir = tmp / f"data-{label}"
    env = maproom_env(
        data_dir,
        database_url,
        UPLOAD_MAX_SIZE_MB="2048",
        MAPROOM_RATE_LIMIT_PER_MINUTE="1000000",
    )
    expects = {
        "csv": {"layer_type": "geojson", "feature_count": opts.rows},
        "tif": {"layer_type": "cog"},
    }
    with maproom(env, tmp) as (started, key):
        pid = serving_pid(started.process)
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=started.base, headers=headers, timeout=1800) as client:
            return {
                kind: best(
                    [
                        upload(client, files[kind], pid, data_dir, expects[kind])
                        for _ in range(opts.repeat)
                    ]
                )
                for kind in ("csv", "tif")
            }


def measure_peers(tmp: Path, files: dict[str, Path], repeat: int) -> dict[str, Run]:
    """Time every peer command, best of `repeat`."""
    commands = {
        OGR: (ogr2ogr(files["csv"], tmp / "ogr.geojson", False), tmp / "ogr.geojson"),
        OGR_TYPED: (ogr2ogr(files["csv"], tmp / "typed.geojson", True), tmp / "typed.geojson"),
    }
    for i, (name, options) in enumerate(COG_PEERS.items()):
        target = tmp / f"cog{i}.tif"
        commands[name] = (gdal_translate(files["tif"], target, options), target)
    return {
        name: best([peer(command, target) for _ in range(repeat)])
        for name, (command, target) in commands.items()
    }


class Table:
    """The closing table: one figure a line, with its target and verdict where it has one."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str, str, str]] = []

    def run(self, name: str, run: Run, memory: str) -> None:
        """A measured side: seconds, peak memory (`RSS` or server `growth`), output size."""
        value = (
            f"{run.seconds:7.2f} s  {memory} {_mb(run.memory_bytes)}, out {_mb(run.output_bytes)}"
        )
        self.lines.append((name, value, "", ""))

    def check(self, name: str, value: float, unit: str, target: str, ok: bool) -> None:
        """A figure judged against its target."""
        self.lines.append((name, f"{value:7.2f}{unit}", target, "PASS" if ok else "FAIL"))

    def note(self, name: str, value: float) -> None:
        """A ratio printed for reference."""
        self.lines.append((name, f"{value:7.2f}", "", ""))

    def print(self) -> None:
        """Print the table."""
        width = max(len(name) for name, *_ in self.lines) + 2
        print(f"{'figure':<{width}}{'value':<40}{'target':<9}result")
        for name, value, target, result in self.lines:
            print(f"{name:<{width}}{value:<40}{target:<9}{result}".rstrip())


def report(
    opts: Any, files: dict[str, Path], peers: dict[str, Run], ours: dict[str, dict[str, Run]]
) -> None:
    """Print the inputs, then every figure with its target."""
    csv_size, tif_size = files["csv"].stat().st_size, files["tif"].stat().st_size
    print(
        f"\ningest: {os.cpu_count()} CPUs, one uvicorn worker, best of {opts.repeat}\n"
        f"  CSV  {opts.rows:,} rows x 6 columns, {_mb(csv_size)}\n"
        f"  TIF  {opts.size}x{opts.size} RGB uint8, EPSG:3857, uncompressed, {_mb(tif_size)}\n"
        f"  server peak memory: {ours['SQLite']['csv'].memory_method}; peers' from GNU time\n"
    )
    table = Table()
    ogr = peers[OGR]
    table.run(f"CSV  {OGR} (judged)", ogr, "RSS")
    table.run(f"CSV  {OGR_TYPED}", peers[OGR_TYPED], "RSS")
    for label, runs in ours.items():
        run = runs["csv"]
        table.run(f"CSV  maproom upload, {label}", run, "growth")
        ratio, growth = run.seconds / ogr.seconds, run.memory_bytes / csv_size
        table.check(f"CSV  time maproom/ogr2ogr, {label}", ratio, "", "<= 1.00", ratio <= 1.0)
        table.note(
            f"CSV  time maproom/ogr2ogr typed, {label}", run.seconds / peers[OGR_TYPED].seconds
        )
        table.check(f"CSV  peak growth/file size, {label}", growth, "x", "< 2x", growth < 2)
    for name in COG_PEERS:
        table.run(f"TIF  {name}" + (" (judged)" if name == JUDGED_COG else ""), peers[name], "RSS")
    for label, runs in ours.items():
        run = runs["tif"]
        table.run(f"TIF  maproom upload, {label}", run, "growth")
        ratio = run.seconds / peers[JUDGED_COG].seconds
        table.check(f"TIF  time maproom/judged peer, {label}", ratio, "", "<= 1.20", ratio <= 1.2)
        matched = peers["gdal_translate, maproom's profile, all CPUs"]
        table.note(f"TIF  time maproom/same profile, {label}", run.seconds / matched.seconds)
    table.print()


def _mb(value: int) -> str:
    return f"{value / MB:.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="CSV rows")
    parser.add_argument("--size", type=int, default=4096, help="GeoTIFF width and height")
    parser.add_argument("--repeat", type=int, default=1, help="best of N, on both sides")
    parser.add_argument("--postgres", help="also measure maproom on this PostgreSQL database")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    opts = parser.parse_args()
    for tool, package in (
        ("ogr2ogr", "gdal-bin"),
        ("gdal_translate", "gdal-bin"),
        ("time", "time"),
    ):
        if not shutil.which(tool):
            raise SystemExit(f"bench/ingest.py needs {tool} (apt-get install -y {package})")

    tmp = Path(tempfile.mkdtemp(prefix="maproom-ingest-"))
    try:
        files = {"csv": tmp / "points.csv", "tif": tmp / "scene.tif"}
        make_csv(files["csv"], opts.rows)
        make_tiff(files["tif"], opts.size)
        peers = measure_peers(tmp, files, opts.repeat)
        ours = {"SQLite": measure_maproom("SQLite", None, tmp, files, opts)}
        if opts.postgres:
            ours["PostgreSQL"] = measure_maproom("PostgreSQL", opts.postgres, tmp, files, opts)
        report(opts, files, peers, ours)
    finally:
        if opts.keep:
            print(f"\nfiles kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
