"""Benchmark: maproom's read and write paths against bare FastAPI endpoints doing the same work.

- read: `GET /api/v1/sessions/{id}` against an endpoint answering a fixed project (64
  connections; target: maproom at least 0.50 of bare requests/s on the embedded default);
- write: `POST /api/v1/sessions/{id}/map/actions` with one `fly_to` against an endpoint that
  does the same work by hand: parse the body, then one row UPDATE and one event INSERT in one
  SQLite transaction (32 connections; target: at least 0.50 of bare, p99 under 50 ms).

Every server runs one after the other in this run, on the same machine, as one uvicorn worker
with the same settings (no access log, same event loop and HTTP parser). The load comes from
`wrk` (Debian package `wrk`) with the same threads and duration. maproom is measured on its
embedded SQLite default, and on PostgreSQL too when `--postgres URL` is given: there the
PostgreSQL peer and maproom are measured in turn `--rounds` times (default 3) and the median
run of each is reported, as one run on this machine can be 20 % off the next.

    python bench/api.py [--duration 10] [--postgres postgresql://...] [--rounds 3]

Prints requests/s and p50/p99 latency for each, and maproom's ratio to the bare endpoint.
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

from maproom.settings import Settings

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

# The write peer: the least a service must do to record a camera move durably, by hand. The
# statements run inline on the event loop, which also serialises the writers (no lock waits).
BARE_WRITE_APP = """
import json, os, sqlite3, time
from fastapi import FastAPI, Request

app = FastAPI()
db = sqlite3.connect(os.environ["BARE_DB"], isolation_level=None, check_same_thread=False)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=NORMAL")
db.execute("CREATE TABLE IF NOT EXISTS projects (id TEXT PRIMARY KEY, map_state TEXT, version INT)")
db.execute("CREATE TABLE IF NOT EXISTS events "
           "(id INTEGER PRIMARY KEY, project_id TEXT, type TEXT, payload TEXT, created_at TEXT)")
db.execute("INSERT OR IGNORE INTO projects VALUES ('p', '{}', 1)")


@app.post("/api/v1/sessions/{id}/map/actions")
async def dispatch(id: str, request: Request) -> dict:
    action = json.loads(await request.body())["actions"][0]
    state = json.dumps({"center": action["center"], "zoom": 1.5})
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE projects SET map_state = ?, version = version + 1 WHERE id = 'p'", (state,))
    db.execute("INSERT INTO events (project_id, type, payload, created_at) VALUES (?, ?, ?, ?)",
               ("p", "action", json.dumps(action), time.strftime("%Y-%m-%d %H:%M:%S")))
    db.execute("COMMIT")
    return {"ok": True, "dispatched": 1, "layers": []}
"""
# The PostgreSQL write peer: the work of maproom's action path, by hand, on psycopg's
# asynchronous connections (as many as maproom's pool: MAPROOM_DATABASE_POOL_SIZE): lock the
# project row, append the event, bump the version, in one transaction of five round trips
# (maproom makes the last two one statement: four).
BARE_PG_WRITE_APP = """
import asyncio, contextlib, json, os
import psycopg
from fastapi import FastAPI, Request

free = asyncio.Queue()


@contextlib.asynccontextmanager
async def lifespan(app):
    url = os.environ["BARE_PG"]
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS bare_projects "
                           "(id TEXT PRIMARY KEY, map_state JSONB, version INT)")
        await conn.execute("CREATE TABLE IF NOT EXISTS bare_events (id BIGSERIAL PRIMARY KEY, "
                           "project_id TEXT, type TEXT, payload JSONB, created_at TIMESTAMPTZ)")
        for i in range(32):
            await conn.execute("INSERT INTO bare_projects VALUES (%s, '{}', 1) "
                               "ON CONFLICT DO NOTHING", (f"p{i}",))
    for _ in range(int(os.environ.get("BARE_PG_CONNECTIONS", "10"))):
        free.put_nowait(await psycopg.AsyncConnection.connect(url))
    yield


app = FastAPI(lifespan=lifespan)


@app.post("/api/v1/sessions/{id}/map/actions")
async def dispatch(id: str, request: Request) -> dict:
    action = json.loads(await request.body())["actions"][0]
    conn = await free.get()
    try:
        async with conn.transaction():
            cur = await conn.execute(
                "SELECT map_state, version FROM bare_projects WHERE id = %s FOR UPDATE", (id,))
            state, version = await cur.fetchone()
            state = {**state, "center": action["center"], "zoom": action["zoom"]}
            await conn.execute("INSERT INTO bare_events (project_id, type, payload, created_at) "
                               "VALUES (%s, 'action', %s, now())", (id, json.dumps(action)))
            await conn.execute("UPDATE bare_projects SET map_state = %s, version = %s "
                               "WHERE id = %s", (json.dumps(state), version + 1, id))
    finally:
        free.put_nowait(conn)
    return {"ok": True, "dispatched": 1, "layers": []}
"""
FLY_TO = '{"actions": [{"type": "fly_to", "center": [2.35, 48.86], "zoom": 9}]}'


READERS, WRITERS = 64, 32  # connections


@dataclass
class Result:
    name: str
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    non_2xx: int


def wrk(
    name: str,
    url: str,
    key: str | None,
    opts: argparse.Namespace,
    connections: int,
    script: Path | None = None,
) -> Result:
    command = ["wrk", "-t2", f"-c{connections}", f"-d{opts.duration}s", "--latency", url]
    if key:
        command[1:1] = ["-H", f"Authorization: Bearer {key}"]
    if script:
        command[1:1] = ["-s", str(script)]
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


def post_script(workdir: Path, projects: list[str] | None = None) -> Path:
    """A wrk script that POSTs one fly_to per request (to one of `projects` at random, when
    given: the URL's path is then replaced)."""
    script = workdir / f"fly_to_{len(projects or [])}.lua"
    text = (
        'wrk.method = "POST"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        f"wrk.body = '{FLY_TO}'\n"
    )
    if projects:
        listed = ", ".join(f'"{p}"' for p in projects)
        text += (
            f"local ids = {{{listed}}}\n"
            "function request()\n"
            "  local id = ids[math.random(#ids)]\n"
            '  return wrk.format(nil, "/api/v1/sessions/" .. id .. "/map/actions")\n'
            "end\n"
        )
    script.write_text(text)
    return script


def bench_bare(workdir: Path, opts: argparse.Namespace) -> tuple[Result, Result]:
    (workdir / "bare_app.py").write_text(BARE_APP)
    (workdir / "bare_write_app.py").write_text(BARE_WRITE_APP)
    env = {**os.environ, "PYTHONPATH": str(workdir), "BARE_DB": str(workdir / "bare.db")}
    with server(["bare_app:app"], env, workdir, free_port(), probe="/api/v1/sessions/x") as bare:
        read = wrk("bare FastAPI", f"{bare.base}/api/v1/sessions/x", None, opts, READERS)
    with server(["bare_write_app:app"], env, workdir, free_port(), probe="/docs") as bare:
        url = f"{bare.base}/api/v1/sessions/p/map/actions"
        write = wrk("bare FastAPI", url, None, opts, WRITERS, post_script(workdir))
    return read, write


def bench_bare_postgres(workdir: Path, opts: argparse.Namespace) -> tuple[Result, Result]:
    """The PostgreSQL write peer, on one project and spread over 32."""
    (workdir / "bare_pg_write_app.py").write_text(BARE_PG_WRITE_APP)
    env = {**os.environ, "PYTHONPATH": str(workdir), "BARE_PG": _libpq(opts.postgres)}
    env["BARE_PG_CONNECTIONS"] = str(Settings().database_pool_size)  # as many as maproom keeps
    with server(["bare_pg_write_app:app"], env, workdir, free_port(), probe="/docs") as bare:
        url = f"{bare.base}/api/v1/sessions/p0/map/actions"
        name = "bare FastAPI + PG"
        one = wrk(name, url, None, opts, WRITERS, post_script(workdir))
        ids = [f"p{i}" for i in range(32)]
        spread = wrk(name, url, None, opts, WRITERS, post_script(workdir, ids))
    return one, spread


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def bench_maproom(
    name: str,
    workdir: Path,
    database_url: str | None,
    opts: argparse.Namespace,
    spread: list[Result] | None = None,
) -> tuple[Result, Result]:
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
        read = wrk(name, url, key, opts, READERS)
        write = wrk(name, f"{url}/map/actions", key, opts, WRITERS, post_script(workdir))
        if spread is not None:  # the same writes spread over 32 projects
            headers = {"Authorization": f"Bearer {key}"}
            ids = [
                httpx.post(f"{base}/api/v1/sessions", json={}, headers=headers).json()["id"]
                for _ in range(32)
            ]
            script = post_script(workdir, ids)
            spread.append(wrk(name, f"{url}/map/actions", key, opts, WRITERS, script))
        return read, write


def median(results: tuple[Result, ...]) -> Result:
    """The run with the median requests/s (its latencies with it)."""
    ordered = sorted(results, key=lambda r: r.requests_per_second)
    return ordered[len(ordered) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per measured run")
    parser.add_argument("--postgres", help="also measure maproom on this PostgreSQL database")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="PostgreSQL pairs measured this many times, the peer and maproom in turn; the "
        "median of each is reported (this machine's noise between runs is about 20 %%)",
    )
    opts = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("bench/api.py needs wrk (apt-get install -y wrk)")

    runs: list[tuple[Result, Result]] = []
    pg_one: list[Result] = []
    pg_spread: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="maproom-bench-") as tmp:
        workdir = Path(tmp)
        runs.append(bench_bare(workdir, opts))
        runs.append(bench_maproom("maproom SQLite", workdir, None, opts))
        if opts.postgres:
            rounds: list[tuple[Result, Result, Result, Result, Result]] = []
            for _ in range(opts.rounds):
                one, spread = bench_bare_postgres(workdir, opts)
                spreads: list[Result] = []
                read, write = bench_maproom(
                    "maproom PostgreSQL", workdir, opts.postgres, opts, spreads
                )
                rounds.append((one, spread, read, write, spreads[0]))
            bare_one, bare_spread, read, write, spread = (
                median(r) for r in zip(*rounds, strict=True)
            )
            runs.append((read, write))
            pg_one += [bare_one, write]
            pg_spread += [bare_spread, spread]

    reads = [read for read, _ in runs]
    writes = [write for _, write in runs]
    report(f"read: GET /api/v1/sessions/{{id}}, wrk -t2 -c{READERS}", reads, opts)
    report(f"write: POST .../map/actions, one fly_to, wrk -t2 -c{WRITERS}", writes, opts)
    read_ratio = reads[1].requests_per_second / reads[0].requests_per_second
    write_ratio = writes[1].requests_per_second / writes[0].requests_per_second
    print(
        f"\ntarget read: maproom (embedded SQLite) >= 0.50 of bare -> "
        f"{'met' if read_ratio >= 0.5 else 'NOT met'} ({read_ratio:.2f})"
    )
    write_met = write_ratio >= 0.5 and writes[1].p99_ms < 50
    print(
        f"target write: maproom (embedded SQLite) >= 0.50 of bare and p99 < 50 ms -> "
        f"{'met' if write_met else 'NOT met'} ({write_ratio:.2f}, p99 {writes[1].p99_ms:.1f} ms)"
    )
    if opts.postgres:
        report_postgres(reads, pg_one, pg_spread, opts)


def report_postgres(
    reads: list[Result], one: list[Result], spread: list[Result], opts: argparse.Namespace
) -> None:
    """The PostgreSQL writes beside a bare endpoint running the same statements, and the
    PostgreSQL targets."""
    report(f"write on PostgreSQL, one project, wrk -t2 -c{WRITERS}", one, opts)
    report(f"write on PostgreSQL, spread over 32 projects, wrk -t2 -c{WRITERS}", spread, opts)
    bare, pg = reads[0], reads[-1]
    read_ratio = pg.requests_per_second / bare.requests_per_second
    read_met = read_ratio >= 0.6 and pg.p99_ms <= 3 * bare.p99_ms
    print(
        f"\ntarget read on PostgreSQL: >= 0.60 of bare and p99 <= 3x bare p99 -> "
        f"{'met' if read_met else 'NOT met'} ({read_ratio:.2f}, p99 {pg.p99_ms:.1f} ms "
        f"against {bare.p99_ms:.1f} ms)"
    )
    for label, pair in (("one project", one), ("32 projects", spread)):
        ratio = pair[1].requests_per_second / pair[0].requests_per_second
        print(
            f"target write on PostgreSQL, {label}: >= 0.50 of the bare endpoint doing the same "
            f"statements -> {'met' if ratio >= 0.5 else 'NOT met'} ({ratio:.2f})"
        )


def report(
    title: str, results: list[Result], opts: argparse.Namespace, each: str = "one uvicorn worker"
) -> None:
    """One table: each server's figures and its ratio to the first one."""
    bare = results[0].requests_per_second
    print(f"\n{title} -d{opts.duration}s, {each} each\n")
    print(f"{'server':<22}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'ratio':>8}{'non-2xx':>9}")
    for r in results:
        print(
            f"{r.name:<22}{r.requests_per_second:>10.0f}{r.p50_ms:>10.2f}{r.p99_ms:>10.2f}"
            f"{r.requests_per_second / bare:>8.2f}{r.non_2xx:>9}"
        )


if __name__ == "__main__":
    main()
