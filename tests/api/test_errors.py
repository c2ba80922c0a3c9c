"""The error envelope for every status, request ids, and crashes that reveal nothing."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi import FastAPI

from tests.support import CRASH_SECRET, assert_error, bearer, create_project, detail_paths

pytestmark = pytest.mark.anyio

REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


async def test_malformed_json_is_400(api: httpx.AsyncClient) -> None:
    for content in (b"{not json", b'{"title": "x"', b"\xff\xfe"):
        response = await api.post(
            "/api/v1/sessions", content=content, headers={"Content-Type": "application/json"}
        )
        assert detail_paths(response) == ["body"]


@pytest.mark.parametrize(
    ("method", "content"),
    [
        ("POST", b"[1, 2]"),
        ("POST", b'"a string"'),
        ("POST", b'{"mapState": []}'),
        ("PATCH", b"null"),
        ("PATCH", b"42"),
        ("PATCH", b'{"mapState": {"center": {"lng": 0}}}'),
    ],
)
async def test_schema_violations_are_400_never_422(
    api: httpx.AsyncClient, method: str, content: bytes
) -> None:
    project = await create_project(api)
    path = "/api/v1/sessions" if method == "POST" else f"/api/v1/sessions/{project['id']}"
    response = await api.request(
        method, path, content=content, headers={"Content-Type": "application/json"}
    )
    error = assert_error(response, 400, "bad_request")
    assert isinstance(error["details"], list)
    for detail in error["details"]:
        assert set(detail) == {"path", "message"}


async def test_every_validation_failure_is_listed(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    response = await api.patch(
        f"/api/v1/sessions/{project['id']}",
        json={"title": "", "mapState": {"zoom": 99, "pitch": -5}},
    )
    assert sorted(detail_paths(response)) == ["mapState.pitch", "mapState.zoom", "title"]
    assert response.json()["error"]["message"].startswith("Invalid request")


async def test_unknown_route_is_404(api: httpx.AsyncClient, client: httpx.AsyncClient) -> None:
    assert_error(await api.get("/api/v1/no-such-thing"), 404, "not_found")
    assert_error(await api.get("/api/v2/sessions"), 404, "not_found")
    assert_error(await client.get("/no-such-page"), 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/api/v1/sessions", {"GET", "POST"}),
        ("PUT", "/api/v1/sessions/{project}", {"GET", "PATCH", "DELETE"}),
        ("POST", "/api/v1/sessions/{project}", {"GET", "PATCH", "DELETE"}),
        ("GET", "/api/v1/sessions/{project}/fork", {"POST"}),
        ("POST", "/api/v1/verify", {"GET"}),
        ("PATCH", "/api/v1/api-keys", {"GET", "POST"}),
        ("GET", "/api/v1/api-keys/{project}", {"DELETE"}),
    ],
)
async def test_wrong_method_on_a_known_path_is_405(
    api: httpx.AsyncClient, method: str, path: str, allowed: set[str]
) -> None:
    project = await create_project(api)
    response = await api.request(method, path.format(project=project["id"]))
    assert_error(response, 405, "method_not_allowed")
    listed = {m.strip() for m in response.headers["allow"].split(",")}
    assert listed - {"HEAD"} == allowed


async def test_wrong_method_outside_the_api_is_405(client: httpx.AsyncClient) -> None:
    assert_error(await client.post("/healthz"), 405, "method_not_allowed")


async def test_crash_is_500_with_request_id_and_no_internals(
    crashing_app: FastAPI, client: httpx.AsyncClient, key: str
) -> None:
    response = await client.get("/api/v1/test-crash", headers=bearer(key))
    error = assert_error(response, 500, "internal_error")
    request_id = response.headers["x-request-id"]
    assert request_id in error["message"]
    assert error["details"] is None
    for leak in (CRASH_SECRET, "RuntimeError", "Traceback", "test_errors.py", 'File "'):
        assert leak not in response.text


async def test_crash_quotes_the_callers_request_id(
    crashing_app: FastAPI, client: httpx.AsyncClient, key: str
) -> None:
    headers = bearer(key) | {"X-Request-Id": "trace-1234.abc"}
    response = await client.get("/api/v1/test-crash", headers=headers)
    assert response.headers["x-request-id"] == "trace-1234.abc"
    assert "trace-1234.abc" in assert_error(response, 500, "internal_error")["message"]


async def test_every_response_carries_a_request_id(
    crashing_app: FastAPI, client: httpx.AsyncClient, key: str
) -> None:
    auth = bearer(key)
    responses = [
        await client.get("/healthz"),
        await client.get("/readyz"),
        await client.get("/api/v1/openapi.json"),
        await client.get("/api/v1/docs"),
        await client.post("/api/v1/sessions", headers=auth, json={}),
        await client.get("/api/v1/verify"),
        await client.get("/api/v1/sessions/x", headers=auth),
        await client.delete("/api/v1/sessions", headers=auth),
        await client.post("/api/v1/sessions", headers=auth, json={"title": ""}),
        await client.get("/api/v1/api-keys", headers=bearer("mr_" + "x" * 43)),
        await client.get("/api/v1/test-crash", headers=auth),
    ]
    assert [r.status_code for r in responses] == [
        200,
        200,
        200,
        200,
        201,
        401,
        404,
        405,
        400,
        401,
        500,
    ]
    ids = [r.headers["x-request-id"] for r in responses]
    assert all(REQUEST_ID.match(i) for i in ids)
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("incoming", ["abc-123", "req.1:2_3", "A" * 128])
async def test_a_valid_incoming_request_id_is_echoed(
    client: httpx.AsyncClient, key: str, incoming: str
) -> None:
    for path, headers in (
        ("/healthz", {}),
        ("/api/v1/verify", bearer(key)),
        ("/api/v1/verify", {}),
    ):
        response = await client.get(path, headers=headers | {"X-Request-Id": incoming})
        assert response.headers["x-request-id"] == incoming


@pytest.mark.parametrize("incoming", ["has space", "A" * 129, "semi;colon", "<script>"])
async def test_an_invalid_incoming_request_id_is_replaced(
    client: httpx.AsyncClient, incoming: str
) -> None:
    response = await client.get("/healthz", headers={"X-Request-Id": incoming})
    replaced = response.headers["x-request-id"]
    assert replaced != incoming
    assert REQUEST_ID.match(replaced)


async def test_authenticated_responses_carry_rate_limit_headers(
    api: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    project = await create_project(api)
    for response in (
        await api.get(f"/api/v1/sessions/{project['id']}"),
        await api.patch(f"/api/v1/sessions/{project['id']}", json={"title": ""}),
        await api.get("/api/v1/sessions/00000000-0000-4000-8000-000000000000"),
        await api.delete("/api/v1/sessions"),
        await api.get("/api/v1/verify"),
    ):
        assert int(response.headers["ratelimit-limit"]) == 300
        assert 0 <= int(response.headers["ratelimit-remaining"]) < 300
        assert 1 <= int(response.headers["ratelimit-reset"]) <= 60
    assert "ratelimit-limit" not in (await client.get("/healthz")).headers
