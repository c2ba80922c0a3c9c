"""tipg serving PostGIS: the peer for maproom's vector tiles of points.

tipg (https://github.com/developmentseed/tipg, from PyPI) is an OGC Features / Tiles server
over PostGIS. This module gives a benchmark what it needs to put it beside maproom:

- `ensure_installed()`: stops with the install commands if PostGIS 3 for PostgreSQL 15 or
  tipg is missing (it installs nothing itself);
- `load_points(database, lng, lat, values, categories)`: (re)creates `database` on
  postgresql://postgres@127.0.0.1:5432 with table `public.points (id, name, value,
  category, geom geometry(Point, 4326))`, loaded with COPY (EWKB hex built with numpy),
  then a GiST index on geom and ANALYZE. Row i gets id i and name "site i", as in
  bench/ingest.py's CSV;
- `serve(database, port)`: a context manager that starts tipg (`tipg.main:app`) under
  uvicorn, one worker, on 127.0.0.1:port, waits until it answers and yields the vector
  tile URL template `http://127.0.0.1:{port}/collections/public.points/tiles/WebMercatorQuad/{z}/{x}/{y}`
  (`{z}/{x}/{y}` left to fill with str.format); the server is stopped on exit.

tipg runs with its default settings (notably `TIPG_MAX_FEATURES_PER_TILE` = 10000: a tile
holds at most the 10,000 first rows in the tile by primary key, `ORDER BY id LIMIT 10000`,
and `TIPG_TILE_BUFFER` = 256, `TIPG_TILE_RESOLUTION` = 4096). The only settings given are
`DATABASE_URL` and the catalog scope (`TIPG_DB_SCHEMAS=["public"]`, already the default,
and `TIPG_DB_TABLES=["public.points"]`, so the catalog holds that table alone). Inherited
`TIPG_*` variables are dropped, and the server runs in an empty temporary folder so that
no `.env` file is read. Its responses are compressed (starlette-cramjam) when the client
asks for it, as httpx does by default.

What a tile holds: one layer named "default" (extent 4096) with properties id, name, value,
category. The 10,000 cap is filled in primary-key order, not spatially: with the crowded
points given the first ids (as `_main` and bench/tiles.py do), the z0 tile and the z4 tile
over Paris hold ids 0..9999, all of them in Paris, and nothing of the rest of the world.
`?limit=` above 10000 is refused (422). The catalog also lists three PostGIS set-returning
functions (public.st_subdivide, st_hexagongrid, st_squaregrid): TIPG_DB_TABLES filters tables
only, and they are harmless.

Installed here (tipg 1.6.1) how: `apt-get install -y postgresql-15-postgis-3` (PostGIS
3.3.2), and `pip install tipg` INTO THE MAIN ENVIRONMENT (the one that runs maproom): a
`pip list` before and after showed that it only added packages (asyncpg, ciso8601, cql2,
cramjam, geojson-pydantic, starlette-cramjam, tipg) and changed none of fastapi, starlette,
pydantic, pydantic-settings or uvicorn; `pip check` stayed clean. So tipg runs with
`sys.executable` and no separate virtual environment. Should a later tipg need other
versions, install it into /opt/tipg-venv instead: `tipg_python()` (below) picks that python
when it exists.

    python bench/tipg_peer.py    # end to end: 1,000,000 points, 40 tiles around Paris
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import numpy as np
import psycopg
from harness import free_port, tile_of
from psycopg import sql

PG_URL = "postgresql://postgres@127.0.0.1:5432"
VENV_PYTHON = Path("/opt/tipg-venv/bin/python")
POSTGIS_CONTROL = Path("/usr/share/postgresql/15/extension/postgis.control")
INSTALL = (
    "apt-get update && apt-get install -y postgresql-15-postgis-3\n"
    "pip install tipg\n"
    "(or, should pip install tipg change fastapi/starlette/pydantic/uvicorn:\n"
    " python3 -m venv /opt/tipg-venv && /opt/tipg-venv/bin/pip install tipg)"
)
TILE_PATH = "/collections/public.points/tiles/WebMercatorQuad/{z}/{x}/{y}"
SERVER_FLAGS = ["--no-access-log", "--log-level", "warning", "--timeout-graceful-shutdown", "3"]
# EWKB of a point with an SRID: little endian (01), type 0x20000001 (point | has SRID), 4326.
_EWKB_HEAD = np.frombuffer(bytes.fromhex("0101000020E6100000"), dtype=np.uint8)
NULL = "\\N"  # COPY text format
_HEX = np.array([f"{i:02X}".encode() for i in range(256)], dtype="S2")


def tipg_python() -> str:
    """The python that runs tipg: /opt/tipg-venv's if there is one, else this one."""
    return str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable


def _postgis_installed() -> bool:
    if shutil.which("dpkg-query"):
        done = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", "postgresql-15-postgis-3"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0 or "install ok installed" not in done.stdout:
            return False
    if not POSTGIS_CONTROL.exists():
        return False
    for line in POSTGIS_CONTROL.read_text().splitlines():
        if line.strip().startswith("default_version"):
            return line.split("=", 1)[1].strip().strip("'\"").startswith("3.")
    return False


def _tipg_installed() -> bool:
    python = tipg_python()
    if python == sys.executable:
        return importlib.util.find_spec("tipg") is not None
    done = subprocess.run([python, "-c", "import tipg, uvicorn"], capture_output=True, check=False)
    return done.returncode == 0


def ensure_installed() -> None:
    """Raise SystemExit with the install commands if PostGIS 3 (PG 15) or tipg is missing."""
    missing = []
    if not _postgis_installed():
        missing.append("PostGIS 3 for PostgreSQL 15 (Debian package postgresql-15-postgis-3)")
    if not _tipg_installed():
        missing.append(f"tipg (not importable by {tipg_python()})")
    if missing:
        raise SystemExit(
            "the tipg peer needs " + " and ".join(missing) + ". Install with:\n" + INSTALL
        )


def _ewkb_hex(lng: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """EWKB hex of each point (SRID 4326), as an array of 50-byte strings."""
    n = len(lng)
    raw = np.empty((n, 25), dtype=np.uint8)
    raw[:, :9] = _EWKB_HEAD
    raw[:, 9:17] = np.ascontiguousarray(lng, dtype="<f8").view(np.uint8).reshape(n, 8)
    raw[:, 17:25] = np.ascontiguousarray(lat, dtype="<f8").view(np.uint8).reshape(n, 8)
    return np.ascontiguousarray(_HEX[raw]).view("S50").ravel()


def _copy_text(value: str) -> str:
    """A value escaped for COPY's text format."""
    return (
        value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    )


def load_points(
    database: str,
    lng: np.ndarray,
    lat: np.ndarray,
    values: np.ndarray,
    categories: Sequence[str] | np.ndarray,
) -> None:
    """(Re)create `database` with `public.points` holding the points, a GiST index, statistics."""
    lng, lat = np.asarray(lng, dtype=np.float64), np.asarray(lat, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    categories = np.asarray(categories, dtype=object)
    n = len(lng)
    if not (len(lat) == len(values) == len(categories) == n):
        raise ValueError("lng, lat, values and categories must have the same length")

    with psycopg.connect(f"{PG_URL}/postgres", autocommit=True) as admin:
        name = sql.Identifier(database)
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(name))

    # Each distinct category escaped once; codes index them.
    kinds, codes = np.unique(categories.astype(str), return_inverse=True)
    kinds = [_copy_text(str(k)) for k in kinds]
    codes = codes.ravel()

    with psycopg.connect(f"{PG_URL}/{database}", autocommit=True) as conn:
        conn.execute("CREATE EXTENSION postgis")
        conn.execute(
            "CREATE TABLE public.points (id bigint PRIMARY KEY, name text, "
            "value double precision, category text, geom geometry(Point, 4326))"
        )
        copy_sql = "COPY public.points (id, name, value, category, geom) FROM STDIN"
        with conn.transaction(), conn.cursor() as cur, cur.copy(copy_sql) as copy:
            step = 100_000
            for start in range(0, n, step):
                stop = min(n, start + step)
                geoms = _ewkb_hex(lng[start:stop], lat[start:stop]).tolist()
                vals = [NULL if v != v else repr(v) for v in values[start:stop].tolist()]
                cats = codes[start:stop].tolist()
                chunk = "".join(
                    f"{i}\tsite {i}\t{vals[j]}\t{kinds[cats[j]]}\t{geoms[j].decode()}\n"
                    for j, i in enumerate(range(start, stop))
                )
                copy.write(chunk)
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("CREATE INDEX points_geom_idx ON public.points USING GIST (geom)")
        conn.execute("ANALYZE public.points")


def _env(database: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TIPG_", "POSTGRES_", "DB_")) and k != "DATABASE_URL"}  # fmt: skip
    env.update(
        DATABASE_URL=f"{PG_URL}/{database}",
        TIPG_DB_SCHEMAS='["public"]',
        TIPG_DB_TABLES='["public.points"]',
        PYTHONUNBUFFERED="1",
    )
    return env


@contextlib.contextmanager
def serve(database: str, port: int, timeout: float = 60) -> Iterator[str]:
    """Run tipg over `database` on 127.0.0.1:port; yields the tile URL template ({z}/{x}/{y})."""
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="tipg-") as tmp:
        log_path = Path(tmp) / "server.log"
        with log_path.open("wb") as log:
            proc = subprocess.Popen(
                [tipg_python(), "-m", "uvicorn", "tipg.main:app", "--host", "127.0.0.1",
                 "--port", str(port), "--workers", "1", *SERVER_FLAGS],
                env=_env(database), cwd=tmp, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    answer = httpx.get(f"{base}/collections/public.points", timeout=2)
                    if answer.status_code == 200:
                        break
                    if answer.status_code == 404 or time.monotonic() > deadline:
                        text = answer.text[:500]
                        raise SystemExit(f"tipg answers {answer.status_code} for points: {text}")
                except httpx.TransportError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    tail = log_path.read_text(errors="replace")[-3000:]
                    raise SystemExit(f"tipg did not start (exit {proc.poll()}):\n{tail}")
                time.sleep(0.2)
            yield base + TILE_PATH
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=15)


def _main() -> None:
    ensure_installed()
    rows, database = 1_000_000, "maproom_bench_tipg"
    rng = np.random.default_rng(11)
    lat, lng = rng.uniform(-60, 70, rows), rng.uniform(-180, 180, rows)
    city = rows // 5
    lat[:city], lng[:city] = rng.normal(48.85, 0.08, city), rng.normal(2.35, 0.12, city)
    values = rng.normal(100, 25, rows)
    kinds = np.array(["cafe", "school", "park", "shop", "clinic"], dtype=object)
    categories = kinds[np.arange(rows) % 5]

    started = time.perf_counter()
    load_points(database, lng, lat, values, categories)
    print(f"loaded {rows:,} points into {database} in {time.perf_counter() - started:.1f} s")

    port = free_port()
    started = time.perf_counter()
    with serve(database, port) as template:
        print(f"tipg up in {time.perf_counter() - started:.1f} s; tiles: {template}")
        with httpx.Client(timeout=120) as client:
            for z in (4, 8, 12, 14):
                cx, cy = tile_of(2.35, 48.85, z)
                # The Paris tile cold, its 3x3 neighbourhood, then the Paris tile again.
                tiles = [(cx, cy)] + [(cx + dx, cy + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                                      if (dx, dy) != (0, 0)] + [(cx, cy)]  # fmt: skip
                for x, y in tiles:
                    url = template.format(z=z, x=x, y=y)
                    t0 = time.perf_counter()
                    answer = client.get(url)
                    ms = (time.perf_counter() - t0) * 1000
                    wire = answer.num_bytes_downloaded
                    print(f"z{z:<3}{x:>6}{y:>6}  {answer.status_code}  {len(answer.content):>9,} B"
                          f"  (wire {wire:>9,} B, {answer.headers.get('content-encoding', '-')})"
                          f"  {ms:8.1f} ms")  # fmt: skip


if __name__ == "__main__":
    _main()
