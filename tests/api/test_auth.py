"""Authentication and scopes over HTTP: 401s, 403s with requiredScopes, account isolation."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from maproom.domain.keys import SCOPES
from tests.support import (
    OTHER,
    KeyMaker,
    assert_error,
    bearer,
    create_project,
    http_client,
)

pytestmark = pytest.mark.anyio


def assert_unauthorized(response: httpx.Response) -> None:
    """A 401 in the envelope, with a bearer challenge."""
    assert_error(response, 401, "unauthorized")
    assert response.headers["www-authenticate"].lower().startswith("bearer")
    assert "x-request-id" in response.headers


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        "Bearer garbage",
        "Bearer mr_short",
        "Basic dXNlcjpwYXNz",
        "mr_" + "a" * 43,
        "Token mr_" + "a" * 43,
        "Bearer mr_" + "a" * 300,
    ],
)
async def test_missing_or_garbled_key_is_401(
    client: httpx.AsyncClient, authorization: str | None
) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    for method, path in (
        ("GET", "/api/v1/sessions"),
        ("POST", "/api/v1/sessions"),
        ("GET", "/api/v1/verify"),
        ("GET", "/api/v1/api-keys"),
        ("GET", "/api/v1/no-such-route"),
    ):
        assert_unauthorized(await client.request(method, path, headers=headers))


async def test_unknown_key_is_401(client: httpx.AsyncClient, key: str) -> None:
    unknown = "mr_" + secrets.token_urlsafe(32)
    assert_unauthorized(await client.get("/api/v1/verify", headers=bearer(unknown)))
    # Same prefix as a real key, different secret.
    forged = key[:11] + secrets.token_urlsafe(32)
    assert_unauthorized(await client.get("/api/v1/verify", headers=bearer(forged)))
    assert (await client.get("/api/v1/verify", headers=bearer(key))).status_code == 200


async def test_scheme_is_case_insensitive(client: httpx.AsyncClient, key: str) -> None:
    response = await client.get("/api/v1/verify", headers={"Authorization": f"bearer {key}"})
    assert response.status_code == 200


async def test_revoked_key_is_refused_at_once(
    client: httpx.AsyncClient, api: httpx.AsyncClient
) -> None:
    created = (await api.post("/api/v1/api-keys", json={"name": "doomed"})).json()
    doomed = bearer(created["key"])
    # Use it first, so that any per-process cache knows it.
    for _ in range(2):
        assert (await client.get("/api/v1/verify", headers=doomed)).status_code == 200

    response = await api.delete(f"/api/v1/api-keys/{created['id']}")
    assert response.status_code == 200
    assert response.json() == {"ok": True}

    assert_unauthorized(await client.get("/api/v1/verify", headers=doomed))
    assert_unauthorized(await client.post("/api/v1/sessions", headers=doomed, json={}))
    assert (await api.get("/api/v1/verify")).status_code == 200


async def test_a_key_may_revoke_itself(client: httpx.AsyncClient, key: str) -> None:
    me = (await client.get("/api/v1/verify", headers=bearer(key))).json()["key"]["id"]
    response = await client.delete(f"/api/v1/api-keys/{me}", headers=bearer(key))
    assert response.status_code == 200
    assert_unauthorized(await client.get("/api/v1/verify", headers=bearer(key)))


@pytest.mark.parametrize(
    ("method", "path", "content"),
    [
        ("POST", "/api/v1/sessions", b"{not json"),
        ("POST", "/api/v1/sessions", b'{"title": ""}'),
        ("PATCH", "/api/v1/sessions/00000000-0000-4000-8000-000000000000", b'{"mapState": 3}'),
        ("POST", "/api/v1/api-keys", b'{"scopes": ["nope"]}'),
        ("GET", "/api/v1/sessions?limit=0&cursor=%%%", None),
    ],
)
async def test_auth_comes_before_validation(
    client: httpx.AsyncClient, method: str, path: str, content: bytes | None
) -> None:
    headers = {"Content-Type": "application/json"}
    response = await client.request(method, path, content=content, headers=headers)
    assert_unauthorized(response)


async def test_scope_comes_before_validation(app: FastAPI, make_key: KeyMaker) -> None:
    headers = {"Content-Type": "application/json"}
    async with http_client(app, make_key(scopes=["map"])) as scoped:
        for method, path in (
            ("POST", "/api/v1/sessions"),
            ("PATCH", "/api/v1/sessions/00000000-0000-4000-8000-000000000000"),
            ("POST", "/api/v1/api-keys"),
        ):
            for content in (b"{not json", b'{"title": 5, "name": ""}'):
                response = await scoped.request(method, path, content=content, headers=headers)
                assert_error(response, 403, "forbidden")


@dataclass(frozen=True)
class Endpoint:
    """One operation, the scope it needs (None: any key) and its success status."""

    method: str
    path: str
    scope: str | None
    ok: int
    body: Any = None


# Destructive operations last: a test walks them in this order.
ENDPOINTS = [
    Endpoint("POST", "/api/v1/sessions", "session", 201, {}),
    Endpoint("GET", "/api/v1/sessions/{project}", "session", 200),
    Endpoint("PATCH", "/api/v1/sessions/{project}", "session", 200, {"title": "x"}),
    Endpoint("POST", "/api/v1/sessions/{project}/fork", "session", 201, {}),
    Endpoint("GET", "/api/v1/sessions/{project}/map", "session", 200),
    Endpoint("GET", "/api/v1/usage", "session", 200),
    Endpoint("GET", "/api/v1/api-keys", "keys", 200),
    Endpoint("POST", "/api/v1/api-keys", "keys", 201, {"name": "child"}),
    Endpoint("DELETE", "/api/v1/api-keys/{spare_key}", "keys", 200),
    Endpoint("GET", "/api/v1/verify", None, 200),
    Endpoint("DELETE", "/api/v1/sessions/{project}", "session", 200),
]
GRANTS = [[scope] for scope in SCOPES] + [["*"], [], ["session", "keys"], ["map", "files"]]


def _holds(scopes: list[str], needed: str | None) -> bool:
    return needed is None or not scopes or "*" in scopes or needed in scopes


@pytest.mark.parametrize("scopes", GRANTS, ids=lambda s: ",".join(s) or "empty")
async def test_each_scope_allows_its_endpoints_and_no_others(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker, scopes: list[str]
) -> None:
    project = await create_project(api)
    spare = (await api.post("/api/v1/api-keys", json={"name": "spare"})).json()["id"]
    async with http_client(app, make_key(scopes=scopes)) as scoped:
        for endpoint in ENDPOINTS:
            path = endpoint.path.format(project=project["id"], spare_key=spare)
            response = await scoped.request(endpoint.method, path, json=endpoint.body)
            where = f"{endpoint.method} {endpoint.path} with {scopes}"
            if _holds(scopes, endpoint.scope):
                assert response.status_code == endpoint.ok, f"{where}: {response.text}"
            else:
                error = assert_error(response, 403, "forbidden")
                assert error["details"] == {"requiredScopes": [endpoint.scope]}, where
                assert "ratelimit-limit" in response.headers


@pytest.mark.parametrize("scopes", [[s] for s in SCOPES if s != "session"])
async def test_project_list_refused_without_session_scope(
    app: FastAPI, make_key: KeyMaker, scopes: list[str]
) -> None:
    async with http_client(app, make_key(scopes=scopes)) as scoped:
        error = assert_error(await scoped.get("/api/v1/sessions"), 403, "forbidden")
    assert error["details"] == {"requiredScopes": ["session"]}


@pytest.mark.parametrize("scopes", [["session"], ["*"], []], ids=["session", "star", "empty"])
async def test_project_list_allowed_with_session_scope(
    app: FastAPI, make_key: KeyMaker, scopes: list[str]
) -> None:
    async with http_client(app, make_key(scopes=scopes)) as scoped:
        assert (await scoped.get("/api/v1/sessions")).status_code == 200


async def test_other_accounts_projects_are_404_never_403(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    project = await create_project(api, title="Private")
    before = await api.get(f"/api/v1/sessions/{project['id']}")
    base = f"/api/v1/sessions/{project['id']}"
    async with http_client(app, make_key(email=OTHER)) as intruder:
        for response in (
            await intruder.get(base),
            await intruder.get(f"{base}/map"),
            await intruder.patch(base, json={"title": "mine now"}),
            await intruder.patch(base, json={"title": "mine"}, headers={"If-Match": "*"}),
            await intruder.post(f"{base}/fork", json={}),
            await intruder.delete(base),
        ):
            error = assert_error(response, 404, "not_found")
            assert project["id"] not in error["message"]
        assert (await intruder.get("/api/v1/usage")).json()["projects"]["used"] == 0

    after = await api.get(f"/api/v1/sessions/{project['id']}")
    assert after.json() == before.json()
    assert after.headers["etag"] == before.headers["etag"]


async def test_other_accounts_keys_are_invisible(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    mine = (await api.get("/api/v1/verify")).json()["key"]["id"]
    async with http_client(app, make_key(email=OTHER)) as intruder:
        listed = (await intruder.get("/api/v1/api-keys")).json()["data"]
        assert mine not in {record["id"] for record in listed}
        assert_error(await intruder.delete(f"/api/v1/api-keys/{mine}"), 404, "not_found")
    assert (await api.get("/api/v1/verify")).status_code == 200
