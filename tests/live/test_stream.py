"""The live stream over real HTTP: a uvicorn server on a port, read as a browser would."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import orjson
import pytest
import uvicorn
from fastapi import FastAPI

from maproom.app import create_app
from maproom.settings import Settings
from tests.support import bearer, new_key

pytestmark = pytest.mark.anyio


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def server(make_settings: Callable[..., Settings]) -> AsyncIterator[tuple[str, FastAPI]]:
    """maproom served by uvicorn on a free local port, in this test's event loop."""
    app = create_app(make_settings())
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    served = uvicorn.Server(config)
    task = asyncio.create_task(served.serve())
    while not served.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        served.should_exit = True
        await task


class Stream:
    """Server-sent events read off one HTTP response."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.lines = response.aiter_lines()

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next event (comments and `retry:` skipped), within `timeout` seconds."""
        return await asyncio.wait_for(self._next(), timeout)

    async def _next(self) -> dict[str, Any]:
        event: dict[str, Any] = {}
        async for line in self.lines:
            if not line:
                if "event" in event:
                    return event
                event = {}
                continue
            field, _, value = line.partition(": ")
            if field == "id":
                event["id"] = int(value)
            elif field == "event":
                event["event"] = value
            elif field == "data":
                event["data"] = orjson.loads(value)
        raise EOFError("the stream ended")


@contextlib.asynccontextmanager
async def stream(
    client: httpx.AsyncClient, url: str, last_event_id: int | None = None
) -> AsyncIterator[Stream]:
    headers = {"Last-Event-ID": str(last_event_id)} if last_event_id is not None else {}
    async with client.stream("GET", url, headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        yield Stream(response)


@contextlib.asynccontextmanager
async def setup(base: str, app: FastAPI) -> AsyncIterator[tuple[httpx.AsyncClient, str, str]]:
    """An API client, a project and a live view URL of it."""
    async with httpx.AsyncClient(base_url=base, headers=bearer(new_key(app)), timeout=10) as api:
        yield api, *(await _project_and_link(api))


async def _project_and_link(api: httpx.AsyncClient) -> tuple[str, str]:
    project = (await api.post("/api/v1/sessions", json={"title": "live"})).json()["id"]
    created = await api.post(f"/api/v1/sessions/{project}/live-view-url")
    assert created.status_code == 201, created.text
    return project, created.json()["liveViewUrl"]


async def report(api: httpx.AsyncClient, project: str, title: str) -> str:
    response = await api.post(
        f"/api/v1/sessions/{project}/reports", json={"title": title, "html": "<p>hi</p>"}
    )
    assert response.status_code == 201, response.text
    return str(response.json()["file_id"])


async def test_snapshot_then_live_events(server: tuple[str, FastAPI]) -> None:
    async with (
        setup(*server) as (api, project, live),
        httpx.AsyncClient(timeout=10) as viewer,
        stream(viewer, f"{live}/events") as s,
    ):
        snapshot = await s.next()
        assert snapshot["event"] == "snapshot"
        assert snapshot["data"]["project"]["id"] == project
        assert snapshot["data"]["project"]["mapState"]["zoom"] == 1.5
        assert snapshot["id"] == snapshot["data"]["lastEventId"]
        started = asyncio.get_running_loop().time()
        file_id = await report(api, project, "Weekly")
        event = await s.next(timeout=1.0)
        assert asyncio.get_running_loop().time() - started < 1.0
        assert event["event"] == "file_generated"
        assert event["data"]["file_id"] == file_id
        assert event["id"] > snapshot["id"]


async def test_resume_gets_exactly_what_was_missed(server: tuple[str, FastAPI]) -> None:
    async with setup(*server) as (api, project, live), httpx.AsyncClient(timeout=10) as viewer:
        async with stream(viewer, f"{live}/events") as s:
            first = await s.next()
            await report(api, project, "one")
            seen = await s.next()
        # The connection dropped; two changes happen while it is away.
        missed = [await report(api, project, "two"), await report(api, project, "three")]
        async with stream(viewer, f"{live}/events", last_event_id=seen["id"]) as s:
            replay = [await s.next(), await s.next()]
            assert [e["data"]["file_id"] for e in replay] == missed
            assert replay[0]["id"] > seen["id"] > first["id"]
            assert replay[1]["id"] > replay[0]["id"]
            latest = await report(api, project, "four")
            live_one = await s.next(timeout=1.0)
            assert live_one["data"]["file_id"] == latest


async def test_a_resume_point_too_old_or_unknown_gets_a_snapshot(
    server: tuple[str, FastAPI],
) -> None:
    async with (
        setup(*server) as (_api, _, live),
        httpx.AsyncClient(timeout=10) as viewer,
        stream(viewer, f"{live}/events", last_event_id=10**9) as s,
    ):
        assert (await s.next())["event"] == "snapshot"


async def test_deleting_the_project_ends_streams_and_pages(server: tuple[str, FastAPI]) -> None:
    async with setup(*server) as (api, project, live), httpx.AsyncClient(timeout=10) as viewer:
        async with stream(viewer, f"{live}/events") as s:
            await s.next()
            assert (await api.delete(f"/api/v1/sessions/{project}")).status_code == 200
            with pytest.raises(EOFError):
                await s.next(timeout=2.0)
        for url in (live, f"{live}/state", f"{live}/events"):
            response = await viewer.get(url)
            assert response.status_code == 404, url
            assert response.json()["error"]["code"] == "not_found"


async def test_revoking_a_link_closes_its_streams(server: tuple[str, FastAPI]) -> None:
    async with setup(*server) as (api, project, live), httpx.AsyncClient(timeout=10) as viewer:
        links = (await api.get(f"/api/v1/sessions/{project}/view-links")).json()["data"]
        async with stream(viewer, f"{live}/events") as s:
            await s.next()
            revoked = await api.delete(f"/api/v1/sessions/{project}/view-links/{links[0]['id']}")
            assert revoked.status_code == 200
            with pytest.raises(EOFError):
                await s.next(timeout=2.0)
        assert (await viewer.get(f"{live}/events")).status_code == 404


async def test_every_kind_of_change_reaches_the_stream(server: tuple[str, FastAPI]) -> None:
    """REST edits are published as the actions they are made of (docs/live.md)."""
    async with (
        setup(*server) as (api, project, live),
        httpx.AsyncClient(timeout=10) as viewer,
        stream(viewer, f"{live}/events") as s,
    ):
        await s.next()
        patched = await api.patch(f"/api/v1/sessions/{project}", json={"mapState": {"zoom": 4}})
        assert patched.status_code == 200
        event = await s.next(timeout=1.0)
        assert (event["event"], event["data"]) == (
            "action",
            {"type": "jump_to", "center": [0, 20], "zoom": 4, "bearing": 0, "pitch": 0},
        )
        upload = await api.post(
            f"/api/v1/sessions/{project}/files",
            files={"file": ("c.geojson", b'{"type": "Point", "coordinates": [1, 2]}')},
        )
        layer_id = upload.json()["layer"]["layer_id"]
        added = await s.next(timeout=1.0)
        assert added["data"] == {"op": "added", "layer_id": layer_id}
        await api.patch(f"/api/v1/sessions/{project}/layers/{layer_id}", json={"visible": False})
        hidden = await s.next(timeout=1.0)
        assert hidden["data"] == {
            "type": "set_layer_visibility",
            "layer_id": layer_id,
            "visible": False,
        }
        await api.put(
            f"/api/v1/sessions/{project}/layers/{layer_id}/style",
            json={"renderer": {"paint": {"circle-color": "#ff0000"}}},
        )
        styled = await s.next(timeout=1.0)
        assert styled["data"]["type"] == "update_layer_style"
        assert styled["data"]["style"]["renderer"]["paint"]["circle-color"] == "#ff0000"
        await api.delete(f"/api/v1/sessions/{project}/layers/{layer_id}")
        removed = await s.next(timeout=1.0)
        assert removed["data"] == {"type": "remove_layer", "layer_id": layer_id}
        assert [added["id"], hidden["id"], styled["id"], removed["id"]] == sorted(
            {added["id"], hidden["id"], styled["id"], removed["id"]}
        )


async def test_map_actions_reach_the_stream_within_a_second(server: tuple[str, FastAPI]) -> None:
    async with (
        setup(*server) as (api, project, live),
        httpx.AsyncClient(timeout=10) as viewer,
        stream(viewer, f"{live}/events") as s,
    ):
        await s.next()
        started = asyncio.get_running_loop().time()
        body = {"actions": [{"type": "map.flyTo", "center": [2.35, 48.86], "zoom": 9}]}
        response = await api.post(f"/api/v1/sessions/{project}/map/actions", json=body)
        assert response.status_code == 200, response.text
        event = await s.next(timeout=1.0)
        assert asyncio.get_running_loop().time() - started < 1.0
        assert event["event"] == "action"
        assert event["data"] == {"type": "fly_to", "center": [2.35, 48.86], "zoom": 9}
