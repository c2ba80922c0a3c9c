"""Benchmark: `GET /api/v1/sessions/{id}` on maproom against a bare FastAPI endpoint.

Both servers run one after the other in this run, on the same machine, as one uvicorn worker
each with the same settings (no access log, same event loop and HTTP parser). The load comes
from `wrk` (Debian package `wrk`) with the same threads, connections and duration. maproom is
measured on its embedded SQLite default, and on PostgreSQL too when `--postgres URL` is given.

    python bench/api.py [--duration 10] [--connections 64] [--postgres postgresql://...]

Prints requests/s and p50/p99 latency for each, and maproom's ratio to the bare endpoint
(target: at least 0.50 on the embedded default; PostgreSQL is printed for reference).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import httpx
from harness import free_port, maproom, maproom_env, server

BARE_APP = """
from fastapi import FastAPI

app = FastAPI()
PROJECT = {
    "id": "5f0c6d52-3f55-4b8e-9d43-2a7e0f0b8c11",
    "title": "Untitled map",
    "mapState": {"center": [0, 20], "zoom": 1.5, "bearing": 0, "pitch": 0,
                 "basemap": {"style": "light", "categories": {}},
                 "countryMask": None, "customMask": None},
    "createdAt": "2026-11-23T00:00:00.000Z", "updatedAt": "2026-11-23T00:00:00.000Z",
    "forkedFromSessionId": None, "isFork": False, "sharedByUser": None,
    "layers": [], "messages": [],
}


@app.get("/api/v1/sessions/{id}")
async def get_project(id: str) -> dict:
    return PROJECT
"""


@dataclass
class Result:
    name: str
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    non_2xx: int


def wrk(name: str, url: str, key: str | None, opts: argparse.Namespace) -> Result:
    command = ["wrk", "-t2", f"-c{opts.connections}", f"-d{opts.duration}s", "--latency", url]
    if key:
        command[1:1] = ["-H", f"Authorization: Bearer {key}"]
    # A short warm-up, then the measured run.
    subprocess.run([*command[:-2], "-d2s", url], check=True, capture_output=True)
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    non_2xx_match = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return Result(
        name=name,
        requests_per_second=rps,
        p50_ms=_latency(out, "50%"),
        p99_ms=_latency(out, "99%"),
        non_2xx=int(non_2xx_match.group(1)) if non_2xx_match else 0,
    )


def _latency(out: str, percentile: str) -> float:
    value, unit = re.search(rf"{percentile}\s+([\d.]+)(us|ms|s)\b", out).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def bench_bare(workdir: Path, opts: argparse.Namespace) -> Result:
    (workdir / "bare_app.py").write_text(BARE_APP)
    env = {**os.environ, "PYTHONPATH": str(workdir)}
    port = free_port()
    with server(["bare_app:app"], env, workdir, port, probe="/api/v1/sessions/x") as bare:
        return wrk("bare FastAPI", f"{bare.base}/api/v1/sessions/x", None, opts)


def bench_maproom(
    name: str, workdir: Path, database_url: str | None, opts: argparse.Namespace
) -> Result:
    env = maproom_env(
        workdir / name.replace(" ", "-"),
        database_url,
        MAPROOM_RATE_LIMIT_PER_MINUTE="100000000",
    )
    with maproom(env, workdir) as (started, key):
        base = started.base
        created = httpx.post(
            f"{base}/api/v1/sessions",
            json={"title": "bench"},
            headers={"Authorization": f"Bearer {key}"},
        )
        created.raise_for_status()
        url = f"{base}/api/v1/sessions/{created.json()['id']}"
        return wrk(name, url, key, opts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per measured run")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--postgres", help="also measure maproom on this PostgreSQL database")
    opts = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("bench/api.py needs wrk (apt-get install -y wrk)")

    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="maproom-bench-") as tmp:
        workdir = Path(tmp)
        results.append(bench_bare(workdir, opts))
        results.append(bench_maproom("maproom SQLite", workdir, None, opts))
        if opts.postgres:
            results.append(bench_maproom("maproom PostgreSQL", workdir, opts.postgres, opts))

    bare = results[0].requests_per_second
    print(
        f"\nGET /api/v1/sessions/{{id}}: wrk -t2 -c{opts.connections} -d{opts.duration}s, "
        "one uvicorn worker each\n"
    )
    print(f"{'server':<22}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'ratio':>8}{'non-2xx':>9}")
    for r in results:
        print(
            f"{r.name:<22}{r.requests_per_second:>10.0f}{r.p50_ms:>10.2f}{r.p99_ms:>10.2f}"
            f"{r.requests_per_second / bare:>8.2f}{r.non_2xx:>9}"
        )
    embedded = results[1].requests_per_second / bare
    print(
        f"\ntarget: maproom (embedded SQLite default) >= 0.50 of bare req/s -> "
        f"{'met' if embedded >= 0.5 else 'NOT met'} ({embedded:.2f})"
    )


if __name__ == "__main__":
    main()
