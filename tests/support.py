"""Helpers shared by the tests: headers, error-envelope checks, small request shortcuts."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
from fastapi import FastAPI

from maproom.domain.keys import bootstrap_key

AppFactory = Callable[..., contextlib.AbstractAsyncContextManager[FastAPI]]
KeyMaker = Callable[..., str]
BASE_URL = "http://testserver"
CRASH_SECRET = "the-database-password-is-hunter2"
OWNER = "owner@example.com"
OTHER = "other@example.com"
DEFAULT_MAP_STATE = {
    "center": [0, 20],
    "zoom": 1.5,
    "bearing": 0,
    "pitch": 0,
    "basemap": {"style": "light", "categories": {}},
    "countryMask": None,
    "customMask": None,
}


def new_key(
    app: FastAPI, email: str = OWNER, scopes: list[str] | None = None, name: str = "test"
) -> str:
    """A plaintext key for the account `email` (created if needed), made through the domain."""
    return bootstrap_key(app.state.services.db, email=email, name=name, scopes=scopes)


def bearer(key: str) -> dict[str, str]:
    """The Authorization header of a key."""
    return {"Authorization": f"Bearer {key}"}


@contextlib.asynccontextmanager
async def http_client(app: FastAPI, key: str | None = None) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client talking to `app` in process, sending `key` when given."""
    headers = bearer(key) if key else {}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL, headers=headers) as c:
        yield c


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """Check the contract's error envelope and return its `error` object."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    error = body["error"]
    assert set(error) == {"code", "message", "details"}
    assert error["code"] == code
    assert isinstance(error["message"], str)
    assert error["message"]
    return dict(error)


def detail_paths(response: httpx.Response) -> list[str]:
    """The `path` of every entry of a 400's `details`."""
    details = assert_error(response, 400, "bad_request")["details"]
    assert isinstance(details, list)
    return [d["path"] for d in details]


async def project_count(client: httpx.AsyncClient) -> int:
    """How many projects the client's account has (from /usage)."""
    response = await client.get("/api/v1/usage")
    assert response.status_code == 200, response.text
    return int(response.json()["projects"]["used"])


async def create_project(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    """POST /sessions and return the created project."""
    response = await client.post("/api/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())
