"""Two workers on the embedded SQLite default (one data dir) sharing a Redis that goes away and
comes back (a `redis-server` of the test's own, on a free port): requests keep being answered,
and what was committed meanwhile still reaches the other worker's streams (docs/deploy.md)."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest

from tests.live.test_stream import stream
from tests.scale.services import cli_key, redis_url, start_worker
from tests.serving import free_port
from tests.support import bearer

pytestmark = [pytest.mark.scale, pytest.mark.anyio]


@contextlib.contextmanager
def redis_server(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A throwaway Redis on `port` that keeps nothing on disk."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is needed (Debian's redis-server package)"
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    import redis

    client = redis.Redis(port=port, socket_connect_timeout=1)
    try:
        for _ in range(200):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert process.poll() is None, "redis-server did not start"
                time.sleep(0.05)  # polling for the server to listen
        yield process
    finally:
        client.close()
        process.terminate()
        process.wait(timeout=30)


async def zoom_seen(client: httpx.AsyncClient, path: str, zoom: int, within: float) -> bool:
    """Whether reads of the project show `zoom` before `within` seconds pass."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if (await client.get(path)).json()["mapState"]["zoom"] == zoom:
            return True
        await anyio.sleep(0.02)  # polling for the change to be seen
    return False


async def test_workers_ride_out_a_redis_outage(tmp_path: Path) -> None:
    redis_url()  # CI sets MAPROOM_TEST_REDIS_URL: this test then runs (its Redis is its own)
    port = free_port()
    data = tmp_path / "data"
    env = {"MAPROOM_REDIS_URL": f"redis://127.0.0.1:{port}/0"}
    with (
        redis_server(port) as first,
        start_worker(env, data) as a,
        start_worker(env, data) as b,
    ):
        key = cli_key(env, data, "owner@example.com")
        async with (
            httpx.AsyncClient(base_url=a.base, headers=bearer(key), timeout=30) as on_a,
            httpx.AsyncClient(base_url=b.base, headers=bearer(key), timeout=30) as on_b,
            httpx.AsyncClient(timeout=30) as viewer,
        ):
            project = (await on_a.post("/api/v1/sessions", json={"title": "x"})).json()["id"]
            actions = f"/api/v1/sessions/{project}/map/actions"
            live = (await on_a.post(f"/api/v1/sessions/{project}/live-view-url")).json()
            on_b_live = live["liveViewUrl"].replace(a.base, b.base)
            fly = {"type": "fly_to", "center": [2.35, 48.85]}
            async with stream(viewer, f"{on_b_live}/events") as events:
                assert (await events.next())["event"] == "snapshot"
                await on_a.post(actions, json={"actions": [{**fly, "zoom": 3}]})
                assert (await events.next(timeout=1.0))["data"]["zoom"] == 3

                project_on_b = f"/api/v1/sessions/{project}"
                assert (await on_b.get(project_on_b)).json()["mapState"]["zoom"] == 3  # kept
                first.terminate()  # Redis goes away
                first.wait(timeout=30)
                during = await on_a.post(actions, json={"actions": [{**fly, "zoom": 4}]})
                assert during.status_code == 200, during.text
                # B stops keeping bodies once it notices the bus is gone (within moments).
                assert await zoom_seen(on_b, project_on_b, 4, within=2.0)
                for client in (on_a, on_b):  # limits fall back to each worker's own
                    answer = await client.get("/api/v1/verify")
                    assert answer.status_code == 200
                    assert "ratelimit-remaining" in {h.lower() for h in answer.headers}

                with redis_server(port):  # back: B reads the log again, finds zoom 4
                    assert (await events.next(timeout=10.0))["data"]["zoom"] == 4
                    await on_a.post(actions, json={"actions": [{**fly, "zoom": 5}]})
                    assert (await events.next(timeout=1.0))["data"]["zoom"] == 5
