"""Sharing between accounts (docs/sharing.md), over HTTP on SQLite and PostgreSQL, and
through MCP: for every endpoint of a project, what its owner, an editor, a viewer, someone
whose share was revoked and a stranger get."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from maproom.settings import Settings
from tests import makers
from tests.clients.conftest import started
from tests.support import AppFactory, assert_error, create_project, http_client, new_key

pytestmark = pytest.mark.anyio

ROLES = ("owner", "editor", "viewer", "revoked", "stranger")
EMAILS = {role: f"{role}@example.com" for role in ROLES}
# What each kind of operation answers each role: allowed, 403 or 404.
EXPECTED = {
    "read": {"owner": "ok", "editor": "ok", "viewer": "ok", "revoked": 404, "stranger": 404},
    "edit": {"owner": "ok", "editor": "ok", "viewer": 403, "revoked": 404, "stranger": 404},
    "own": {"owner": "ok", "editor": 403, "viewer": 403, "revoked": 404, "stranger": 404},
    # DELETE .../shares/{the editor's}: the owner, or the editor leaving.
    "leave": {"owner": "ok", "editor": "ok", "viewer": 404, "revoked": 404, "stranger": 404},
}


@pytest.fixture
async def app(app_factory: AppFactory) -> AsyncIterator[FastAPI]:
    """The matrix makes many requests with one owner's key: no rate limit in the way."""
    async with app_factory(rate_limit_per_minute=1_000_000) as started_app:
        yield started_app


@dataclass
class Shared:
    """A project of the owner's with a layer, a file, a report and a view link, shared with
    the editor and the viewer (and once with `revoked`, whose share is gone)."""

    id: str
    layer: str
    file: str
    report: str
    link: str
    editor_share: str


async def shared_project(owner: httpx.AsyncClient) -> Shared:
    project = (await create_project(owner, title="Shared"))["id"]
    base = f"/api/v1/sessions/{project}"
    made = await owner.post(f"{base}/files", files={"file": ("c.csv", makers.csv_latlon())})
    report = await owner.post(f"{base}/reports", json={"title": "R", "html": "<p>r</p>"})
    await owner.post(f"{base}/live-view-url")
    link = (await owner.get(f"{base}/view-links")).json()["data"][0]["id"]
    shares = {}
    for role in ("editor", "viewer", "revoked"):
        role_name = "editor" if role == "editor" else "viewer"
        answer = await owner.post(f"{base}/shares", json={"email": EMAILS[role], "role": role_name})
        assert answer.status_code == 201, answer.text
        shares[role] = answer.json()["id"]
    assert (await owner.delete(f"{base}/shares/{shares['revoked']}")).status_code == 200
    return Shared(project, made.json()["layer"]["layer_id"], made.json()["id"],
                  report.json()["file_id"], link, shares["editor"])  # fmt: skip


Call = Callable[[Shared], tuple[str, str, dict[str, Any]]]
S = "/api/v1/sessions/{p.id}"
# (need, method, path, request options): every project endpoint of openapi.json.
MATRIX: list[tuple[str, str, str, dict[str, Any]]] = [
    ("read", "GET", S, {}),
    ("edit", "PATCH", S, {"json": {"title": "New"}}),
    ("own", "DELETE", S, {}),
    ("read", "GET", S + "/map", {}),
    ("read", "POST", S + "/fork", {"json": {}}),
    ("edit", "POST", S + "/chat", {"json": {"message": "zoom in"}}),
    ("edit", "POST", S + "/ask/respond", {"json": {"questionId": "x", "answer": "y"}}),
    ("read", "GET", S + "/files", {}),
    ("edit", "POST", S + "/files", {"files": {"file": ("d.csv", makers.csv_latlon())}}),
    ("read", "GET", S + "/files/{p.file}/content", {}),
    ("edit", "DELETE", S + "/files/{p.file}", {}),
    ("read", "GET", S + "/assets", {}),
    ("read", "GET", S + "/layers", {}),
    ("read", "GET", S + "/layers/{p.layer}", {}),
    ("edit", "PATCH", S + "/layers/{p.layer}", {"json": {"visible": False}}),
    ("edit", "DELETE", S + "/layers/{p.layer}", {}),
    ("edit", "PUT", S + "/layers/order", {"json": {"layer_ids": ["{p.layer}"]}}),
    ("edit", "PUT", S + "/layers/{p.layer}/style", {"json": {"legend": {"title": "T"}}}),
    ("read", "GET", S + "/layers/{p.layer}/data", {}),
    ("read", "GET", S + "/layers/{p.layer}/tiles/0/0/0.pbf", {}),
    ("read", "GET", S + "/layers/{p.layer}/features", {"params": {"limit": 2}}),
    ("read", "GET", S + "/layers/{p.layer}/stats", {"params": {"field": "population"}}),
    ("read", "GET", S + "/layers/{p.layer}/export", {"params": {"format": "gpkg"}}),
    ("read", "GET", S + "/layers/{p.layer}/tilejson", {}),
    ("read", "GET", S + "/style.json", {}),
    ("edit", "POST", S + "/map/actions", {"json": {"actions": [{"type": "zoom_in"}]}}),
    ("edit", "POST", S + "/reports", {"json": {"title": "T", "html": "<p>x</p>"}}),
    ("read", "GET", S + "/reports/{p.report}", {}),
    ("edit", "POST", S + "/live-view-url", {}),
    ("edit", "POST", S + "/static-view-url", {}),
    ("read", "GET", S + "/view-links", {}),
    ("edit", "DELETE", S + "/view-links/{p.link}", {}),
    ("read", "GET", S + "/history", {}),
    ("read", "GET", S + "/history/1", {}),
    ("edit", "POST", S + "/history/1/restore", {}),
    ("own", "POST", S + "/shares", {"json": {"email": "x@example.com", "role": "viewer"}}),
    ("read", "GET", S + "/shares", {}),
    ("leave", "DELETE", S + "/shares/{p.editor_share}", {}),
]


def _fill(value: Any, project: Shared) -> Any:
    if isinstance(value, str):
        return value.format(p=project)
    if isinstance(value, list):
        return [_fill(v, project) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, project) for k, v in value.items()}
    return value


@contextlib.asynccontextmanager
async def clients(app: FastAPI) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    async with contextlib.AsyncExitStack() as stack:
        yield {
            role: await stack.enter_async_context(http_client(app, new_key(app, email=email)))
            for role, email in EMAILS.items()
        }


async def test_the_matrix_covers_every_project_endpoint(app: FastAPI) -> None:
    paths = app.openapi()["paths"]
    documented = {
        (method.upper(), path.replace("{id}", "{p.id}"))
        for path, operations in paths.items()
        if path.startswith("/api/v1/sessions/{id}")
        for method in operations
    }
    covered = {(method, _template(path)) for _, method, path, _ in MATRIX}
    assert documented <= covered, documented - covered


def _template(path: str) -> str:
    """A matrix path with its ids as openapi.json names them."""
    for name, param in (("layer", "layerId"), ("file", "fileId"), ("report", "fileId"),
                        ("link", "linkId"), ("editor_share", "shareId")):  # fmt: skip
        path = path.replace(f"{{p.{name}}}", f"{{{param}}}")
    path = path.replace("/history/1", "/history/{version}")
    return path.replace("tiles/0/0/0.pbf", "tiles/{z}/{x}/{y}.{fmt}")


@pytest.mark.parametrize("role", ROLES)
async def test_every_endpoint_for_each_role(app: FastAPI, role: str) -> None:
    async with clients(app) as by_role:
        for need, method, path, options in MATRIX:
            project = await shared_project(by_role["owner"])
            url = _fill(path, project)
            response = await by_role[role].request(method, url, **_fill(options, project))
            wanted = EXPECTED[need][role]
            where = f"{role} {method} {path}: {response.status_code} {response.text[:200]}"
            if wanted == "ok":
                assert response.status_code < 500 and response.status_code not in (401, 403, 404), (
                    where
                )
            else:
                code = "forbidden" if wanted == 403 else "not_found"
                assert response.status_code == wanted, where
                assert_error(response, wanted, code)
            if need in ("edit", "own") and wanted != "ok" and method != "DELETE":
                # nothing changed: the project reads as before
                view = (await by_role["owner"].get(f"/api/v1/sessions/{project.id}")).json()
                assert view["title"] == "Shared" and len(view["layers"]) == 1, where


async def test_shared_projects_in_the_sharee_s_list_and_body(app: FastAPI) -> None:
    async with clients(app) as by_role:
        project = await shared_project(by_role["owner"])
        owner = (await by_role["owner"].get("/api/v1/verify")).json()["account"]
        for role in ("editor", "viewer"):
            listed = (await by_role[role].get("/api/v1/sessions")).json()["data"]
            assert [(p["id"], p["sharedByUser"]) for p in listed] == [
                (project.id, {"id": owner["id"], "name": owner["name"], "email": owner["email"]})
            ]
            body = (await by_role[role].get(f"/api/v1/sessions/{project.id}")).json()
            assert body["sharedByUser"]["email"] == "owner@example.com"
        for role in ("revoked", "stranger"):
            assert (await by_role[role].get("/api/v1/sessions")).json()["data"] == []
        own = (await by_role["owner"].get(f"/api/v1/sessions/{project.id}")).json()
        assert own["sharedByUser"] is None
        mine = (await by_role["viewer"].get(f"/api/v1/sessions/{project.id}/shares")).json()
        assert [s["email"] for s in mine["data"]] == ["viewer@example.com"]
        everyone = (await by_role["owner"].get(f"/api/v1/sessions/{project.id}/shares")).json()
        assert sorted(s["email"] for s in everyone["data"]) == [
            "editor@example.com", "viewer@example.com"
        ]  # fmt: skip


async def test_a_pending_share_applies_when_the_account_appears(app: FastAPI) -> None:
    async with http_client(app, new_key(app)) as owner:
        project = (await create_project(owner))["id"]
        base = f"/api/v1/sessions/{project}/shares"
        for email in ("nobody-yet@example.com", "NoBody-Yet@Example.com"):  # again: same share
            made = await owner.post(base, json={"email": email, "role": "viewer"})
            assert made.status_code == 201 and made.json()["email"] == "nobody-yet@example.com"
        changed = await owner.post(base, json={"email": "nobody-yet@example.com", "role": "editor"})
        assert changed.json()["role"] == "editor"
        assert len((await owner.get(base)).json()["data"]) == 1
        error = assert_error(await owner.post(base, json={"email": "nope", "role": "viewer"}),
                             400, "bad_request")  # fmt: skip
        assert error["details"][0]["path"] == "email"
        async with http_client(app, new_key(app, email="nobody-yet@example.com")) as later:
            patched = await later.patch(f"/api/v1/sessions/{project}", json={"title": "Ours"})
            assert patched.status_code == 200
        versions = (await owner.get(f"/api/v1/sessions/{project}/history")).json()["data"]
        assert versions[0]["actor"]["accountEmail"] == "nobody-yet@example.com"


async def test_a_sharee_forks_into_their_own_account(app: FastAPI) -> None:
    async with clients(app) as by_role:
        project = await shared_project(by_role["owner"])
        fork = await by_role["viewer"].post(f"/api/v1/sessions/{project.id}/fork", json={})
        assert fork.status_code == 201, fork.text
        body = fork.json()
        assert body["sharedByUser"] is None and body["forkedFromSessionId"] == project.id
        patched = await by_role["viewer"].patch(f"/api/v1/sessions/{body['id']}",
                                                json={"title": "Mine now"})  # fmt: skip
        assert patched.status_code == 200
        assert (await by_role["owner"].get(f"/api/v1/sessions/{body['id']}")).status_code == 404


async def test_through_mcp(make_settings: Callable[..., Settings]) -> None:
    """The same rules through the MCP tools: a viewer describes but cannot change, an editor
    changes (named in the history as `mcp`), a stranger sees nothing."""
    with contextlib.contextmanager(started)(make_settings()) as service:
        headers = {"Authorization": f"Bearer {service.key}"}
        async with httpx.AsyncClient(base_url=service.url, headers=headers) as owner:
            project = (await create_project(owner))["id"]
            for role in ("editor", "viewer"):
                await owner.post(f"/api/v1/sessions/{project}/shares",
                                 json={"email": EMAILS[role], "role": role})  # fmt: skip
            keys = {role: service.make_key(email=EMAILS[role])
                    for role in ("editor", "viewer", "stranger")}  # fmt: skip
            move = {"project_id": project, "actions": [{"type": "zoom_in"}]}
            async with _mcp(service.url, keys["viewer"]) as session:
                assert not (
                    await session.call_tool("describe_project", {"project_id": project})
                ).isError
                assert _code(await session.call_tool("dispatch_actions", move)) == "forbidden"
                listed = await session.call_tool("list_projects", {})
                assert [p["id"] for p in json.loads(listed.content[0].text)["data"]] == [project]
            async with _mcp(service.url, keys["editor"]) as session:
                assert not (await session.call_tool("dispatch_actions", move)).isError
            async with _mcp(service.url, keys["stranger"]) as session:
                found = await session.call_tool("describe_project", {"project_id": project})
                assert _code(found) == "not_found"
            history = await owner.get(f"/api/v1/sessions/{project}/history", params={"limit": 1})
            actor = history.json()["data"][0]["actor"]
            assert (actor["accountEmail"], actor["via"]) == (EMAILS["editor"], "mcp")


def _code(result: Any) -> str:
    assert result.isError, result
    return str(json.loads(result.content[0].text)["error"]["code"])


@contextlib.asynccontextmanager
async def _mcp(url: str, key: str) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {key}"}
    async with (
        httpx.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(f"{url}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
