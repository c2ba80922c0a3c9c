"""View links over HTTP: create, list, revoke, expiry, framing, and the pages' data routes."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import update

from maproom.domain.common import utcnow
from maproom.storage.models import view_links
from tests import makers
from tests.support import KeyMaker, assert_error, detail_paths, http_client

pytestmark = pytest.mark.anyio


async def new_project(api: httpx.AsyncClient) -> str:
    return str((await api.post("/api/v1/sessions", json={"title": "views"})).json()["id"])


def path_of(url: str) -> str:
    return httpx.URL(url).path


async def test_live_and_static_links_are_created_and_listed(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    live = await api.post(f"/api/v1/sessions/{project}/live-view-url")
    assert live.status_code == 201, live.text
    assert set(live.json()) == {"liveViewUrl"}
    assert path_of(live.json()["liveViewUrl"]).startswith("/live/")
    static = await api.post(
        f"/api/v1/sessions/{project}/static-view-url",
        json={"expiresInSeconds": 3600, "allowedOrigins": ["https://example.com"]},
    )
    assert static.status_code == 201, static.text
    assert path_of(static.json()["staticViewUrl"]).startswith("/embed/")
    token = path_of(static.json()["staticViewUrl"]).split("/")[2]
    assert len(token) >= 22  # at least 128 random bits, URL-safe
    listed = (await api.get(f"/api/v1/sessions/{project}/view-links")).json()
    assert listed["meta"]["count"] == 2
    first, second = listed["data"]
    assert set(first) == {"id", "kind", "url", "createdAt", "expiresAt", "allowedOrigins"}
    assert (first["kind"], first["url"]) == ("live", live.json()["liveViewUrl"])
    assert (first["expiresAt"], first["allowedOrigins"]) == (None, None)
    assert second["kind"] == "static" and second["expiresAt"].endswith("Z")
    assert second["allowedOrigins"] == ["https://example.com"]


async def test_pages_data_follow_the_link(
    api: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    project = await new_project(api)
    upload = await api.post(
        f"/api/v1/sessions/{project}/files",
        files={"file": ("cities.geojson", makers.geojson_points())},
    )
    layer = upload.json()["layer"]
    live = path_of(
        (await api.post(f"/api/v1/sessions/{project}/live-view-url")).json()["liveViewUrl"]
    )
    state = await client.get(f"{live}/state")
    assert state.status_code == 200, state.text
    assert state.headers["content-security-policy"] == "frame-ancestors *"
    assert state.headers["referrer-policy"] == "no-referrer"
    body = state.json()
    assert body["project"]["id"] == project
    assert [item["layer_id"] for item in body["layers"]] == [layer["layer_id"]]
    data_url = body["layers"][0]["url"]
    assert path_of(data_url) == f"{live}/layers/{layer['layer_id']}/data"
    data = await client.get(path_of(data_url))
    assert data.status_code == 200
    assert len(data.json()["features"]) == 3
    tile = await client.get(f"{live}/layers/{layer['layer_id']}/tiles/0/0/0.pbf")
    assert tile.status_code == 200
    country = await client.get(f"{live}/countries/PT.geojson")
    assert country.status_code == 200
    assert country.json()["properties"]["code"] == "PT"
    assert country.json()["geometry"]["type"] in ("Polygon", "MultiPolygon")
    assert_error(await client.get(f"{live}/countries/XX.geojson"), 404, "not_found")
    # A live token is not a static page, and the other way round.
    assert_error(await client.get(live.replace("/live/", "/embed/") + "/state"), 404, "not_found")


async def test_allowed_origins_become_frame_ancestors(
    api: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    project = await new_project(api)
    origins = ["https://a.example", "http://localhost:3000"]
    created = await api.post(
        f"/api/v1/sessions/{project}/static-view-url", json={"allowedOrigins": origins}
    )
    embed = path_of(created.json()["staticViewUrl"])
    state = await client.get(f"{embed}/state")
    assert state.headers["content-security-policy"] == f"frame-ancestors {' '.join(origins)}"


async def test_expired_and_revoked_links_are_404(
    app: FastAPI, api: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    project = await new_project(api)
    created = await api.post(
        f"/api/v1/sessions/{project}/live-view-url", json={"expiresInSeconds": 60}
    )
    live = path_of(created.json()["liveViewUrl"])
    assert (await client.get(f"{live}/state")).status_code == 200
    with app.state.services.db.write() as tx:
        tx.execute(update(view_links).values(expires_at=utcnow() - timedelta(seconds=1)))
    assert_error(await client.get(f"{live}/state"), 404, "not_found")
    link = (await api.get(f"/api/v1/sessions/{project}/view-links")).json()["data"][0]
    revoked = await api.delete(f"/api/v1/sessions/{project}/view-links/{link['id']}")
    assert revoked.json() == {"ok": True}
    assert (await api.get(f"/api/v1/sessions/{project}/view-links")).json()["data"] == []
    again = await api.delete(f"/api/v1/sessions/{project}/view-links/{link['id']}")
    assert_error(again, 404, "not_found")


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"expiresInSeconds": 0}, "expiresInSeconds"),
        ({"expiresInSeconds": "60"}, "expiresInSeconds"),
        ({"allowedOrigins": ["https://a.example/path"]}, "allowedOrigins[0]"),
        ({"allowedOrigins": "https://a.example"}, "allowedOrigins"),
        ({"other": 1}, "other"),
    ],
)
async def test_bad_link_bodies_are_refused(
    api: httpx.AsyncClient, body: dict[str, object], path: str
) -> None:
    project = await new_project(api)
    response = await api.post(f"/api/v1/sessions/{project}/live-view-url", json=body)
    assert detail_paths(response) == [path]
    assert (await api.get(f"/api/v1/sessions/{project}/view-links")).json()["data"] == []


async def test_links_need_the_remote_scope_and_the_owner(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    project = await new_project(api)
    async with http_client(app, make_key(scopes=["session"])) as limited:
        for method, suffix in (
            ("POST", "live-view-url"),
            ("POST", "static-view-url"),
            ("GET", "view-links"),
        ):
            response = await limited.request(method, f"/api/v1/sessions/{project}/{suffix}")
            assert_error(response, 403, "forbidden")
    async with http_client(app, make_key(email="other@example.com")) as other:
        response = await other.post(f"/api/v1/sessions/{project}/live-view-url")
        assert_error(response, 404, "not_found")
        response = await other.get(f"/api/v1/sessions/{project}/view-links")
        assert_error(response, 404, "not_found")


async def test_deleting_the_project_kills_its_links(
    api: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    project = await new_project(api)
    live = path_of(
        (await api.post(f"/api/v1/sessions/{project}/live-view-url")).json()["liveViewUrl"]
    )
    assert (await api.delete(f"/api/v1/sessions/{project}")).status_code == 200
    assert_error(await client.get(f"{live}/state"), 404, "not_found")
