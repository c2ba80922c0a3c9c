"""Two maproom workers behave as one service (docs/scaling.md): one fresh PostgreSQL database, one
Redis, one S3-protocol server (moto's standalone server, started here on loopback), and two
`maproom serve` processes on their own data dirs.

Needs `MAPROOM_TEST_DATABASE_URL` and `MAPROOM_TEST_REDIS_URL` (`.ci/run` sets both); without
them the test is skipped, with them an unreachable service fails it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests import makers
from tests.live.test_stream import stream
from tests.scale.services import (
    Worker,
    bucket_objects,
    cli_key,
    fresh_database,
    redis_url,
    start_worker,
)
from tests.support import bearer

pytestmark = [pytest.mark.postgresql, pytest.mark.scale, pytest.mark.anyio]


def _local_copies(worker: Worker) -> set[str]:
    """The files of a worker's data dir (its scratch space holds its copies of objects)."""
    return {str(path.relative_to(worker.data_dir)) for path in worker.data_dir.rglob("*")}


async def test_two_workers_behave_as_one(
    cluster: tuple[Worker, Worker, dict[str, str]], tmp_path: Path
) -> None:
    a, b, env = cluster
    key = cli_key(env, tmp_path / "a", "owner@example.com")
    async with (
        httpx.AsyncClient(base_url=a.base, headers=bearer(key), timeout=30) as on_a,
        httpx.AsyncClient(base_url=b.base, headers=bearer(key), timeout=30) as on_b,
        httpx.AsyncClient(timeout=30) as viewer,
    ):
        project = (await on_a.post("/api/v1/sessions", json={"title": "two"})).json()["id"]
        sessions = f"/api/v1/sessions/{project}"

        # Upload on A; the same bytes and the same tiles from B.
        extra = "".join(f"site {i},{i % 80 - 40}.5,{i % 360 - 180}.25,{i}\n" for i in range(500))
        data = makers.csv_latlon(extra)
        uploaded = await on_a.post(f"{sessions}/files", files={"file": ("sites.csv", data)})
        assert uploaded.status_code == 201, uploaded.text
        file_id, layer = uploaded.json()["id"], uploaded.json()["layer"]["layer_id"]
        content = await on_b.get(f"{sessions}/files/{file_id}/content")
        assert content.status_code == 200 and content.content == data
        ranged = await on_b.get(
            f"{sessions}/files/{file_id}/content", headers={"Range": "bytes=10-99"}
        )
        assert ranged.status_code == 206 and ranged.content == data[10:100]
        for z, x, y in ((0, 0, 0), (3, 4, 2), (5, 16, 10)):
            tile = f"{sessions}/layers/{layer}/tiles/{z}/{x}/{y}.pbf"
            from_b, from_a = await on_b.get(tile), await on_a.get(tile)
            assert from_b.status_code == from_a.status_code
            assert from_b.content == from_a.content
        assert (await on_a.get(f"{sessions}/files/{file_id}/content")).content == data

        # The bucket holds every stored byte; neither worker's data dir holds a stored file.
        stored = bucket_objects(env, "maproom-test", "deployment/")
        assert any(key.endswith("/original") and size == len(data) for key, size in stored)
        for worker in (a, b):
            assert not (worker.data_dir / "files").exists()

        # A GeoTIFF uploaded on A: B draws its tiles by ranged reads of the object, keeping
        # no copy of it on B's disk.
        tif = makers.geotiff(tmp_path / "sat.tif", size=512)
        cog = await on_a.post(f"{sessions}/files", files={"file": ("sat.tif", tif)})
        assert cog.status_code == 201, cog.text
        raster = cog.json()["layer"]["layer_id"]
        copies_before = _local_copies(b)
        for z, x, y in ((0, 0, 0), (4, 8, 5), (5, 16, 10)):
            tile = f"{sessions}/layers/{raster}/tiles/{z}/{x}/{y}.png"
            from_b, from_a = await on_b.get(tile), await on_a.get(tile)
            assert from_b.status_code == from_a.status_code == 200, from_b.text
            assert from_b.content == from_a.content
        assert _local_copies(b) == copies_before

        # An action on A reaches a live stream on B within a second; B's next read of the
        # project (which B keeps in memory from the read just before) shows it.
        assert (await on_b.get(sessions)).json()["mapState"]["zoom"] != 9
        live = (await on_a.post(f"{sessions}/live-view-url")).json()["liveViewUrl"]
        on_b_live = live.replace(a.base, b.base)
        async with stream(viewer, f"{on_b_live}/events") as events:
            snapshot = await events.next()
            assert snapshot["event"] == "snapshot"
            sent = time.monotonic()
            fly = {"type": "fly_to", "center": [2.35, 48.85], "zoom": 9}
            answer = await on_a.post(f"{sessions}/map/actions", json={"actions": [fly]})
            assert answer.status_code == 200, answer.text
            arrived = await events.next(timeout=1.0)
            assert arrived["event"] == "action" and arrived["data"]["type"] == "fly_to"
            assert time.monotonic() - sent < 1.0
            read_on_b = await on_b.get(sessions)
            assert read_on_b.json()["mapState"]["zoom"] == 9
            assert read_on_b.headers["ETag"] == (await on_a.get(sessions)).headers["ETag"]

        # A key revoked on A is refused by B on the next request (B had it cached).
        second = cli_key(env, tmp_path / "a", "owner@example.com")
        assert (await on_b.get("/api/v1/verify", headers=bearer(second))).status_code == 200
        key_id = (await on_a.get("/api/v1/verify", headers=bearer(second))).json()["key"]["id"]
        assert (await on_a.delete(f"/api/v1/api-keys/{key_id}")).status_code == 200
        assert (await on_b.get("/api/v1/verify", headers=bearer(second))).status_code == 401

        # A stream on A that loses its worker resumes on B: nothing lost, nothing repeated.
        actions = f"{sessions}/map/actions"
        seen: list[int] = []
        async with stream(viewer, f"{live}/events") as events:
            seen.append((await events.next())["id"])  # the snapshot
            for zoom in (3, 4):
                await on_b.post(actions, json={"actions": [{**fly, "zoom": zoom}]})
                seen.append((await events.next(timeout=2.0))["id"])
            a.process.send_signal(signal.SIGKILL)
            a.process.wait(timeout=30)
            for zoom in (5, 6, 7):  # committed while the viewer has no stream
                await on_b.post(actions, json={"actions": [{**fly, "zoom": zoom}]})
        zooms = []
        async with stream(viewer, f"{on_b_live}/events", last_event_id=seen[-1]) as events:
            for _ in range(3):
                event = await events.next(timeout=2.0)
                seen.append(event["id"])
                zooms.append(event["data"]["zoom"])
        assert zooms == [5, 6, 7]
        assert seen == sorted(set(seen))


async def test_one_budget_across_workers(
    cluster: tuple[Worker, Worker, dict[str, str]], tmp_path: Path
) -> None:
    """400 requests with one key, alternating between the workers: 300 (the budget) pass."""
    a, b, env = cluster
    key = cli_key(env, tmp_path / "a", "burst@example.com")
    # The budget is a sliding window over fixed minutes: a burst astride a minute's end may
    # pass a few more (the last minute's weight shrinks meanwhile). Start well inside one.
    while time.time() % 60 > 45:
        await asyncio.sleep(0.5)
    async with (
        httpx.AsyncClient(base_url=a.base, headers=bearer(key), timeout=30) as on_a,
        httpx.AsyncClient(base_url=b.base, headers=bearer(key), timeout=30) as on_b,
    ):

        async def one(i: int) -> int:
            client = on_a if i % 2 else on_b
            return (await client.get("/api/v1/verify")).status_code

        codes: list[Any] = []
        for start in range(0, 400, 20):
            codes += await asyncio.gather(*(one(i) for i in range(start, start + 20)))
    assert set(codes) <= {200, 429}
    assert 297 <= codes.count(200) <= 303


def test_migrations_are_safe_when_workers_start_at_once(tmp_path: Path, pg_server: str) -> None:
    """Four workers started together on an empty database: all serve, the schema made once."""
    with fresh_database(pg_server) as database, contextlib.ExitStack() as stack:
        env = {"MAPROOM_DATABASE_URL": database, "MAPROOM_REDIS_URL": redis_url()}
        workers = [
            stack.enter_context(start_worker(env, tmp_path / name, wait=False)) for name in "abcd"
        ]
        for worker in workers:
            worker.wait_ready()
        with psycopg.connect(database) as conn:
            assert conn.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
