"""Idempotent POST replay over HTTP (docs/api-decisions.md): one effect per Idempotency-Key."""

from __future__ import annotations

from collections.abc import Callable

import anyio
import httpx
import pytest
from fastapi import FastAPI

from maproom.app import create_app
from maproom.settings import Settings
from tests.serving import serving
from tests.support import (
    KeyMaker,
    assert_error,
    bearer,
    detail_paths,
    http_client,
    new_key,
    project_count,
)

pytestmark = pytest.mark.anyio


def idem(value: str) -> dict[str, str]:
    """The Idempotency-Key header."""
    return {"Idempotency-Key": value}


async def test_retry_replays_the_first_response(api: httpx.AsyncClient) -> None:
    body = {"title": "Once", "mapState": {"zoom": 4}}
    first = await api.post("/api/v1/sessions", json=body, headers=idem("create-1"))
    assert first.status_code == 201
    assert "idempotent-replayed" not in first.headers

    retry = await api.post("/api/v1/sessions", json=body, headers=idem("create-1"))
    assert retry.status_code == 201
    assert retry.headers["idempotent-replayed"] == "true"
    assert retry.content == first.content
    assert retry.headers["etag"] == first.headers["etag"]
    assert retry.headers["content-type"] == first.headers["content-type"]
    assert retry.headers["x-request-id"] != first.headers["x-request-id"]
    assert "ratelimit-remaining" in retry.headers

    assert await project_count(api) == 1
    fetched = await api.get(f"/api/v1/sessions/{first.json()['id']}")
    assert fetched.json() == first.json()


async def test_same_key_with_another_body_is_409(api: httpx.AsyncClient) -> None:
    first = await api.post("/api/v1/sessions", json={"title": "A"}, headers=idem("k"))
    assert first.status_code == 201
    for body in ({"title": "B"}, {}, {"title": "A", "mapState": {"zoom": 2}}):
        response = await api.post("/api/v1/sessions", json=body, headers=idem("k"))
        assert_error(response, 409, "conflict")
    assert await project_count(api) == 1


async def test_same_key_on_another_path_is_409(api: httpx.AsyncClient) -> None:
    project = (await api.post("/api/v1/sessions", json={}, headers=idem("shared"))).json()
    response = await api.post(
        f"/api/v1/sessions/{project['id']}/fork", json={}, headers=idem("shared")
    )
    assert_error(response, 409, "conflict")
    assert await project_count(api) == 1


async def test_different_keys_make_different_projects(api: httpx.AsyncClient) -> None:
    one = await api.post("/api/v1/sessions", json={}, headers=idem("one"))
    two = await api.post("/api/v1/sessions", json={}, headers=idem("two"))
    assert one.json()["id"] != two.json()["id"]
    assert "idempotent-replayed" not in two.headers
    assert await project_count(api) == 2


async def test_keys_are_per_api_key(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    mine = await api.post("/api/v1/sessions", json={"title": "A"}, headers=idem("same"))
    async with http_client(app, make_key()) as colleague:
        theirs = await colleague.post("/api/v1/sessions", json={"title": "B"}, headers=idem("same"))
    assert theirs.status_code == 201
    assert "idempotent-replayed" not in theirs.headers
    assert theirs.json()["id"] != mine.json()["id"]
    assert await project_count(api) == 2


async def test_concurrent_retries_make_exactly_one_project(api: httpx.AsyncClient) -> None:
    responses: list[httpx.Response] = []

    async def post() -> None:
        responses.append(
            await api.post("/api/v1/sessions", json={"title": "Race"}, headers=idem("race"))
        )

    async with anyio.create_task_group() as tasks:
        for _ in range(6):
            tasks.start_soon(post)

    created = [r for r in responses if r.status_code == 201]
    assert created
    assert len({r.content for r in created}) == 1
    for response in responses:
        if response.status_code != 201:
            assert_error(response, 409, "conflict")
    assert await project_count(api) == 1


async def test_client_errors_are_replayed_too(api: httpx.AsyncClient) -> None:
    first = await api.post("/api/v1/sessions", json={"title": ""}, headers=idem("bad"))
    assert detail_paths(first) == ["title"]
    retry = await api.post("/api/v1/sessions", json={"title": ""}, headers=idem("bad"))
    assert retry.status_code == 400
    assert retry.headers["idempotent-replayed"] == "true"
    assert retry.content == first.content


async def test_server_errors_are_not_kept(crashing_app: FastAPI, key: str) -> None:
    async with http_client(crashing_app, key) as api:
        for _ in range(2):
            response = await api.post("/api/v1/test-crash", json={}, headers=idem("boom"))
            assert_error(response, 500, "internal_error")
            assert "idempotent-replayed" not in response.headers


async def test_without_the_header_every_post_acts(api: httpx.AsyncClient) -> None:
    for _ in range(2):
        assert (await api.post("/api/v1/sessions", json={})).status_code == 201
    assert await project_count(api) == 2


async def test_the_header_is_ignored_on_other_methods(api: httpx.AsyncClient) -> None:
    project = (await api.post("/api/v1/sessions", json={})).json()
    url = f"/api/v1/sessions/{project['id']}"
    tags = []
    for zoom in (3, 4):
        response = await api.patch(url, json={"mapState": {"zoom": zoom}}, headers=idem("p"))
        assert response.status_code == 200
        assert "idempotent-replayed" not in response.headers
        tags.append(response.headers["etag"])
    assert tags[0] != tags[1]
    assert (await api.get(url)).json()["mapState"]["zoom"] == 4


@pytest.mark.parametrize("value", ["x" * 256, "tab\there"])
async def test_malformed_idempotency_key_is_400(api: httpx.AsyncClient, value: str) -> None:
    response = await api.post("/api/v1/sessions", json={}, headers=idem(value))
    assert_error(response, 400, "bad_request")
    assert await project_count(api) == 0


async def test_revoked_key_gets_no_replay(
    api: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    created = (await api.post("/api/v1/api-keys", json={"name": "short-lived"})).json()
    headers = bearer(created["key"]) | idem("before-revoke")
    assert (await client.post("/api/v1/sessions", json={}, headers=headers)).status_code == 201
    await api.delete(f"/api/v1/api-keys/{created['id']}")
    response = await client.post("/api/v1/sessions", json={}, headers=headers)
    assert_error(response, 401, "unauthorized")


def test_a_retry_right_after_the_answer_is_the_replay(
    make_settings: Callable[..., Settings],
) -> None:
    """Once the whole answer has arrived, the same request is its replay, never a 409: the
    record is complete before the last byte leaves (docs/api-decisions.md, idempotency)."""
    app = create_app(make_settings(rate_limit_per_minute=10_000))
    with serving(app, lifespan="on") as base, httpx.Client(base_url=base) as http:
        http.headers.update(bearer(new_key(app)))
        for attempt in range(200):
            headers = idem(f"sequential-{attempt}")
            first = http.post("/api/v1/sessions", json={"title": "Once"}, headers=headers)
            assert first.status_code == 201, first.text
            again = http.post("/api/v1/sessions", json={"title": "Once"}, headers=headers)
            assert again.status_code == 201, (attempt, again.text)
            assert again.headers["idempotent-replayed"] == "true"
            assert again.content == first.content
        assert http.get("/api/v1/usage").json()["projects"]["used"] == 200
