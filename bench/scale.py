"""Several workers: a read-heavy mix on 1 and 2 workers (PostgreSQL + Redis) beside the
single-process embedded default, and live fan-out with the viewers spread over two workers.

Servers, one after the other in this run, each started with `maproom serve` (so `--workers 2`
is uvicorn's own process manager, the kernel spreading connections over the workers):

- `SQLite, 1 worker`: the embedded default;
- `PostgreSQL+Redis, 1 worker` and `PostgreSQL+Redis, 2 workers`: a fresh PostgreSQL database
  (made and dropped by this script) and the Redis at `--redis`.

The mix (wrk, 2 threads, 64 connections, a Lua script cycling through ten requests): six
`GET /sessions/{id}`, two `GET /sessions/{id}/layers`, one `GET /verify`, one `POST
/sessions/{id}/map/actions` (a `fly_to`), on one project with one layer.

Fan-out: 1,000 viewers of one project's live stream on `--workers 2` (each viewer's connection
lands on either worker), 100 changes (`PATCH` of the title carrying its send time) one every
100 ms, each through either worker; the p50 / p99 latency from send to receipt over every
viewer, beside the same on one worker.

    python bench/scale.py --postgres postgresql://postgres@127.0.0.1:5432/postgres \
        [--redis redis://127.0.0.1:6379/0] [--duration 10] [--viewers 1000]

Needs wrk. On 2 cores a second worker cannot double throughput (wrk and the database share
the same cores); the figures show what a second worker adds here and what it costs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
from api import Result, report, wrk
from harness import create_key, free_port, maproom_env
from live import _run
from sqlalchemy.engine import make_url

MIX = """
local paths = {}
local bodies = {}
local methods = {}
local i = 0
function init(args)
  local s = "/api/v1/sessions/PROJECT"
  for k, p in ipairs({s, s, s, s, s, s, s .. "/layers", s .. "/layers", "/api/v1/verify"}) do
    paths[k] = p; methods[k] = "GET"; bodies[k] = nil
  end
  paths[10] = s .. "/map/actions"; methods[10] = "POST"
  bodies[10] = '{"actions": [{"type": "fly_to", "center": [2.35, 48.85], "zoom": 9}]}'
end
function request()
  i = i % 10 + 1
  local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer KEY"}
  return wrk.format(methods[i], paths[i], headers, bodies[i])
end
"""


@contextlib.contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    name = f"maproom_scale_{uuid.uuid4().hex[:10]}"
    admin = make_url(admin_url).set(drivername="postgresql")
    plain = admin.render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def serve(env: dict[str, str], workers: int) -> Iterator[str]:
    """`maproom serve --workers N`; yields its base URL once every worker answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "maproom.cli", "serve", "--port", str(port),
         "--workers", str(workers), "--no-access-log"],
        env=env, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        answered = 0
        while answered < workers * 4:  # several answers: every worker has started
            try:
                answered += httpx.get(f"{base}/readyz", timeout=2).status_code == 200
            except httpx.HTTPError:
                time.sleep(0.1)
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("maproom did not start")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=60)


def setup(base: str, key: str, workdir: Path) -> tuple[str, Path]:
    """A project with one layer; the wrk script of the mix on it."""
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, headers=headers, timeout=60) as api:
        project = api.post("/api/v1/sessions", json={"title": "scale"}).json()["id"]
        csv = "name,lat,lon\n" + "".join(f"p{i},{i % 80},{i % 170}\n" for i in range(200))
        api.post(f"/api/v1/sessions/{project}/files", files={"file": ("p.csv", csv.encode())})
    script = workdir / f"mix-{project}.lua"
    script.write_text(MIX.replace("PROJECT", project).replace("KEY", key))
    return project, script


async def fan_out(base: str, key: str, viewers: int, events: int) -> tuple[float, float, int]:
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=60) as api:
        project = (await api.post("/api/v1/sessions", json={})).json()["id"]
        link = (await api.post(f"/api/v1/sessions/{project}/live-view-url")).json()
        path = httpx.URL(link["liveViewUrl"]).path + "/events"
        result = await _run(
            "fan-out", base, None, path, api, ("PATCH", f"/api/v1/sessions/{project}"),
            '{"title": "STAMP"}', viewers, events,
        )  # fmt: skip
    return result.p50_ms, result.p99_ms, result.received


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", required=True, help="a PostgreSQL server (admin URL)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--events", type=int, default=100)
    opts = parser.parse_args()
    limits = {"MAPROOM_RATE_LIMIT_PER_MINUTE": "100000000",
              "MAPROOM_PUBLIC_RATE_LIMIT_PER_MINUTE": "100000000"}  # fmt: skip
    mixes: list[Result] = []
    fan: dict[str, tuple[float, float, int]] = {}
    with tempfile.TemporaryDirectory(prefix="maproom-scale-") as tmp:
        workdir = Path(tmp)
        runs = [("SQLite, 1 worker", None, 1), ("PostgreSQL+Redis, 1 worker", "pg", 1),
                ("PostgreSQL+Redis, 2 workers", "pg", 2)]  # fmt: skip
        for name, kind, workers in runs:
            with contextlib.ExitStack() as stack:
                database = stack.enter_context(fresh_database(opts.postgres)) if kind else None
                env = maproom_env(workdir / name.replace(" ", "_"), database, **limits)
                if kind:
                    env["MAPROOM_REDIS_URL"] = opts.redis
                key = create_key(env)
                base = stack.enter_context(serve(env, workers))
                _, script = setup(base, key, workdir)
                mixes.append(wrk(name, f"{base}/", key, opts, 64, script))
                if kind:
                    fan[name] = asyncio.run(fan_out(base, key, opts.viewers, opts.events))
    title = "read-heavy mix (6 project reads, 2 layer lists, 1 verify, 1 fly_to)"
    report(title, mixes, opts, each="wrk -t2 -c64, `maproom serve`")
    print(f"\nlive fan-out: {opts.viewers} viewers, {opts.events} changes, PostgreSQL+Redis\n")
    print(f"{'server':<30}{'p50 ms':>10}{'p99 ms':>10}{'received':>12}")
    for name, (p50, p99, received) in fan.items():
        print(f"{name:<30}{p50:>10.1f}{p99:>10.1f}{received:>12}")


if __name__ == "__main__":
    main()
