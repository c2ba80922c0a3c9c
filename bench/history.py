"""History: what versions cost, how fast they are read and restored, and what they cost writes.

One maproom server (`maproom.app:app_from_env`, one worker, the embedded SQLite default, the
default retention of 1,000 versions). One project with 200 point layers gets 10,000 changes
through `POST .../map/actions`: four in five a camera move (`fly_to`), one in five a style edit
of one of the 200 layers (`update_layer_style`, a new colour). Then:

- *storage per version*: the bytes the kept versions take in the database (their `before`,
  `actions` and `summary` as stored), divided by their number; beside it, the *peer*: what one
  copy of the project per version would take (the project's map state and its 200 layer rows,
  as the database holds them), the design a version per snapshot would have;
- `GET .../history` p50 / p95 over 200 requests (the first page, and pages at random cursors);
- *restore*: `POST .../history/{oldest kept}/restore` (999 versions back), timed, 5 times on a
  fresh copy of the project each (p50 and max);
- *writes*: the `fly_to` write figure of `bench/api.py` (wrk, 32 connections, one project)
  against this code and against `--baseline` (a git revision without history, checked out in
  a temporary worktree), interleaved in `--rounds` rounds; the median of each.

    python bench/history.py [--changes 10000] [--baseline REV] [--rounds 3] [--duration 10]
                            [--postgres postgresql://postgres@127.0.0.1:5432/postgres]

Needs `wrk` (Debian package) for the write figure.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import WRITERS, post_script, wrk
from harness import maproom, maproom_env

ROOT = Path(__file__).resolve().parent.parent
COLOURS = ["#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00", "#a65628", "#f781bf"]
RETAINED = 1000  # MAPROOM_HISTORY_VERSIONS's default
DEFAULT_BASELINE = "c9e40c6"  # main before history was kept (the idempotency fix)


def layer_actions(count: int) -> list[dict[str, Any]]:
    """`count` small point layers (`l0`, `l1`, ...)."""
    return [
        {
            "type": "add_geojson_layer",
            "layer_id": f"l{i}",
            "name": f"Layer {i}",
            "geojson": {
                "type": "FeatureCollection",
                "features": [
                    {
                        "type": "Feature",
                        "properties": {"n": j},
                        "geometry": {"type": "Point", "coordinates": [i * 0.1, j * 0.1]},
                    }
                    for j in range(5)
                ],
            },
        }
        for i in range(count)
    ]


def change(pick: random.Random) -> dict[str, Any]:
    """One change: a camera move (4 in 5) or a style edit of one of the 200 layers."""
    if pick.random() < 0.8:
        center = [round(pick.uniform(-170, 170), 4), round(pick.uniform(-60, 60), 4)]
        return {"type": "fly_to", "center": center, "zoom": round(pick.uniform(2, 12), 2)}
    paint = {"circle-color": pick.choice(COLOURS), "circle-radius": pick.randint(3, 9)}
    style = {"renderer": {"type": "single", "paint": paint}}
    return {"type": "update_layer_style", "layer_id": f"l{pick.randrange(200)}", "style": style}


def build(api: httpx.Client, changes: int) -> str:
    """The project of 200 layers and `changes` changes; its id."""
    project = api.post("/api/v1/sessions", json={"title": "history"}).json()["id"]
    actions = f"/api/v1/sessions/{project}/map/actions"
    api.post(actions, json={"actions": layer_actions(200)}).raise_for_status()
    pick = random.Random(7)
    for _ in range(changes):
        api.post(actions, json={"actions": [change(pick)]}).raise_for_status()
    return str(project)


def storage(database: Path, project: str) -> tuple[int, float, float]:
    """Kept versions, their bytes each on average, and one snapshot's bytes (the peer)."""
    with sqlite3.connect(database) as db:
        count, kept = db.execute(
            "SELECT count(*), sum(length(before) + length(actions) + length(summary)) "
            "FROM versions WHERE project_id = ?", (project,)
        ).fetchone()  # fmt: skip
        (state,) = db.execute(
            "SELECT length(map_state) + length(title) FROM projects WHERE id = ?", (project,)
        ).fetchone()
        (rows,) = db.execute(
            "SELECT sum(length(style) + length(coalesce(fields, '')) + length(name) "
            "+ length(coalesce(bbox, '')) + length(options) + 200) FROM layers "
            "WHERE project_id = ?",
            (project,),
        ).fetchone()  # 200: the fixed-width columns of a layer row, about
    return int(count), kept / count, float(state + rows)


def timed(call: Any) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def reads_and_restores(api: httpx.Client, project: str, changes: int) -> dict[str, Any]:
    """`GET .../history` times, and restores of the oldest kept version on fresh forks."""
    base = f"/api/v1/sessions/{project}/history"
    first = api.get(base, params={"limit": 50}).json()
    newest = first["data"][0]["version"]
    pick = random.Random(3)
    reads = []
    for i in range(200):
        params: dict[str, Any] = {"limit": 50}
        if i % 2:
            from maproom.domain.common import encode_cursor

            params["cursor"] = encode_cursor([newest - pick.randrange(950)])
        reads.append(timed(lambda p=params: api.get(base, params=p).raise_for_status()))
    restores, oldest = [], 0
    for _ in range(5):  # each restore (and its undo) moves the oldest kept version on
        latest = api.get(base, params={"limit": 1}).json()["data"][0]["version"]
        oldest = max(1, latest - RETAINED + 1)
        path = f"{base}/{oldest}/restore"
        restores.append(timed(lambda p=path: api.post(p).raise_for_status()))
        api.post(f"/api/v1/sessions/{project}/map/actions",
                 json={"actions": [{"type": "undo"}]}).raise_for_status()  # fmt: skip
    return {"reads": sorted(reads), "restores": sorted(restores), "oldest": oldest,
            "newest": oldest + RETAINED - 1}  # fmt: skip


@contextlib.contextmanager
def fresh_database(server: str | None) -> Iterator[str | None]:
    """A new PostgreSQL database on `server` (dropped afterwards), or None: SQLite."""
    if server is None:
        yield None
        return
    import psycopg

    name = f"maproom_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def write_rounds(opts: argparse.Namespace, folder: Path) -> dict[str, list[float]]:
    """fly_to writes/s (and p99) against this code and the baseline, interleaved."""
    tree = folder / "baseline"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-f", "--detach", str(tree),
                    opts.baseline], check=True, capture_output=True)  # fmt: skip
    figures: dict[str, list[float]] = {"history": [], "baseline": [], "history p99": [],
                                       "baseline p99": []}  # fmt: skip
    try:
        for round_no in range(opts.rounds):
            pair = [("history", ROOT), ("baseline", tree)]
            for name, cwd in pair if round_no % 2 == 0 else reversed(pair):  # each first in turn
                data = folder / f"{name}-{round_no}"
                with fresh_database(opts.postgres) as database:
                    env = maproom_env(data, database, MAPROOM_RATE_LIMIT_PER_MINUTE="100000000")
                    env["PYTHONPATH"] = str(cwd)
                    result = one_write_run(name, env, cwd, opts, folder)
                figures[name].append(result.requests_per_second)
                figures[f"{name} p99"].append(result.p99_ms)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                       check=False, capture_output=True)  # fmt: skip
    return figures


def one_write_run(
    name: str, env: dict[str, str], cwd: Path, opts: argparse.Namespace, folder: Path
) -> Any:
    """wrk's fly_to figure against one started maproom."""
    with maproom(env, cwd) as (started, key):
        headers = {"Authorization": f"Bearer {key}"}
        project = httpx.post(f"{started.base}/api/v1/sessions", json={},
                             headers=headers).json()["id"]  # fmt: skip
        url = f"{started.base}/api/v1/sessions/{project}/map/actions"
        return wrk(name, url, key, opts, WRITERS, post_script(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--changes", type=int, default=10_000)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--no-writes", action="store_true", help="skip the write figure")
    parser.add_argument("--postgres", help="measure the writes on PostgreSQL (a server URL)")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="maproom-bench-") as tmp:
        folder = Path(tmp)
        env = maproom_env(folder / "data", None, MAPROOM_RATE_LIMIT_PER_MINUTE="100000000")
        with maproom(env, folder) as (started, key):
            headers = {"Authorization": f"Bearer {key}"}
            with httpx.Client(base_url=started.base, headers=headers, timeout=600) as api:
                began = time.perf_counter()
                project = build(api, opts.changes)
                build_seconds = time.perf_counter() - began
                count, per_version, snapshot = storage(folder / "data" / "maproom.db", project)
                timing = reads_and_restores(api, project, opts.changes)
        writes = None if opts.no_writes else write_rounds(opts, folder)
    report(opts, build_seconds, count, per_version, snapshot, timing, writes)


def report(
    opts: argparse.Namespace,
    build_seconds: float,
    count: int,
    per_version: float,
    snapshot: float,
    timing: dict[str, Any],
    writes: dict[str, list[float]] | None,
) -> None:
    ms = 1000
    reads, restores = timing["reads"], timing["restores"]
    p95 = reads[int(len(reads) * 0.95) - 1]
    print(f"\nhistory of one project: 200 layers, {opts.changes:,} changes "
          f"({opts.changes / build_seconds:.0f} changes/s over HTTP, one at a time)\n")  # fmt: skip
    print(f"versions kept            {count:,} (retention 1,000)")
    print(f"bytes per version        {per_version:,.0f}   peer (a snapshot per version): "
          f"{snapshot:,.0f}   ratio {per_version / snapshot:.3f}")  # fmt: skip
    print(f"GET history (50 a page)  p50 {statistics.median(reads) * ms:.1f} ms, "
          f"p95 {p95 * ms:.1f} ms")  # fmt: skip
    print(
        f"restore of version {timing['oldest']} ({timing['newest'] - timing['oldest']} back)"
        f"  p50 {statistics.median(restores) * ms:.0f} ms, max {restores[-1] * ms:.0f} ms"
    )
    if writes:
        where = "PostgreSQL" if opts.postgres else "SQLite"
        print(f"\nfly_to writes on {where}, wrk -c{WRITERS} on one project, {opts.rounds} "
              f"rounds (median), against {opts.baseline} (no history):")  # fmt: skip
        for name in ("history", "baseline"):
            print(f"  {name:<9} {statistics.median(writes[name]):8.0f} req/s   "
                  f"p99 {statistics.median(writes[name + ' p99']):.1f} ms   "
                  f"rounds {[round(v) for v in writes[name]]}")  # fmt: skip
        ratio = statistics.median(writes["history"]) / statistics.median(writes["baseline"])
        print(f"  ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
