"""Projects over HTTP: listing and pagination, fork, cascade delete, concurrent writes."""

from __future__ import annotations

import base64
from typing import Any

import anyio
import httpx
import orjson
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from maproom.domain.common import new_id, utcnow
from maproom.storage.models import messages
from tests.support import OTHER, assert_error, create_project, detail_paths, http_client

pytestmark = pytest.mark.anyio

LIST_ITEM_FIELDS = {"id", "title", "createdAt", "updatedAt", "isFork", "layerCount", "sharedByUser"}


async def list_all(api: httpx.AsyncClient, limit: int) -> list[list[dict[str, Any]]]:
    """Every page of GET /sessions, following `meta.nextCursor`."""
    pages: list[list[dict[str, Any]]] = []
    params: dict[str, Any] = {"limit": limit}
    while True:
        response = await api.get("/api/v1/sessions", params=params)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["meta"]["count"] == len(body["data"])
        pages.append(body["data"])
        cursor = body["meta"].get("nextCursor")
        if cursor is None:
            return pages
        assert len(pages) <= 50, "pagination does not end"
        params = {"limit": limit, "cursor": cursor}


async def test_list_shows_the_callers_projects_newest_first(api: httpx.AsyncClient) -> None:
    created = [await create_project(api, title=f"P{i}") for i in range(3)]
    response = await api.get("/api/v1/sessions")
    assert response.status_code == 200
    body = response.json()
    assert body["meta"] == {"count": 3}
    assert [item["id"] for item in body["data"]] == [p["id"] for p in reversed(created)]
    first = body["data"][0]
    assert set(first) == LIST_ITEM_FIELDS
    assert first == {
        "id": created[2]["id"],
        "title": "P2",
        "createdAt": created[2]["createdAt"],
        "updatedAt": created[2]["updatedAt"],
        "isFork": False,
        "layerCount": 0,
        "sharedByUser": None,
    }


async def test_pages_cover_every_project_once_in_order(api: httpx.AsyncClient) -> None:
    created = [await create_project(api, title=f"P{i}") for i in range(7)]
    # Touch an old one: it moves to the front.
    await api.patch(f"/api/v1/sessions/{created[1]['id']}", json={"title": "touched"})

    pages = await list_all(api, limit=3)
    assert [len(page) for page in pages] == [3, 3, 1]
    items = [item for page in pages for item in page]
    ids = [item["id"] for item in items]
    assert len(set(ids)) == len(ids) == 7
    assert set(ids) == {p["id"] for p in created}
    assert ids[0] == created[1]["id"]
    stamps = [item["updatedAt"] for item in items]
    assert stamps == sorted(stamps, reverse=True)

    whole = await api.get("/api/v1/sessions", params={"limit": 200})
    assert [item["id"] for item in whole.json()["data"]] == ids
    assert "nextCursor" not in whole.json()["meta"]


async def test_exact_page_leaves_no_dangling_cursor(api: httpx.AsyncClient) -> None:
    for _ in range(4):
        await create_project(api)
    pages = await list_all(api, limit=2)
    assert [len(page) for page in pages] == [2, 2]


async def test_list_is_scoped_to_the_account(
    app: FastAPI, api: httpx.AsyncClient, make_key: Any
) -> None:
    await create_project(api)
    other = make_key(email="other@example.com")
    response = await api.get("/api/v1/sessions", headers={"Authorization": f"Bearer {other}"})
    assert response.status_code == 200
    assert response.json() == {"data": [], "meta": {"count": 0}}


def _cursor(values: Any) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(values)).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "not a cursor!",
        "%%%",
        _cursor({"a": 1}),
        _cursor(["2024-01-01T00:00:00+00:00"]),
        _cursor(["yesterday", "00000000-0000-4000-8000-000000000000"]),
        _cursor([5, "00000000-0000-4000-8000-000000000000"]),
    ],
)
async def test_bad_cursor_is_400(api: httpx.AsyncClient, cursor: str) -> None:
    response = await api.get("/api/v1/sessions", params={"cursor": cursor})
    assert_error(response, 400, "bad_request")


@pytest.mark.parametrize("limit", ["0", "201", "-1", "ten"])
async def test_bad_limit_is_400(api: httpx.AsyncClient, limit: str) -> None:
    response = await api.get("/api/v1/sessions", params={"limit": limit})
    assert any("limit" in path for path in detail_paths(response))


async def test_fork_copies_the_map_state(api: httpx.AsyncClient) -> None:
    source = await create_project(
        api,
        title="Source",
        mapState={"center": [12.5, 41.9], "zoom": 6, "countryMask": {"countryCode": "IT"}},
    )
    response = await api.post(f"/api/v1/sessions/{source['id']}/fork")
    assert response.status_code == 201
    fork = response.json()
    assert fork["id"] != source["id"]
    assert fork["isFork"] is True
    assert fork["forkedFromSessionId"] == source["id"]
    assert fork["title"] == "Source (fork)"
    assert fork["mapState"] == source["mapState"]
    assert fork["layers"] == []
    assert fork["messages"] == []
    assert response.headers["etag"]

    fetched = (await api.get(f"/api/v1/sessions/{fork['id']}")).json()
    assert fetched == fork
    original = (await api.get(f"/api/v1/sessions/{source['id']}")).json()
    assert original["isFork"] is False
    assert original["forkedFromSessionId"] is None


async def test_fork_takes_a_title_and_is_independent(api: httpx.AsyncClient) -> None:
    source = await create_project(api, title="Source")
    response = await api.post(f"/api/v1/sessions/{source['id']}/fork", json={"title": "Mine"})
    fork = response.json()
    assert fork["title"] == "Mine"

    await api.patch(f"/api/v1/sessions/{fork['id']}", json={"mapState": {"zoom": 9}})
    original = (await api.get(f"/api/v1/sessions/{source['id']}")).json()
    assert original["mapState"]["zoom"] == source["mapState"]["zoom"]


async def test_fork_title_is_validated(api: httpx.AsyncClient) -> None:
    source = await create_project(api)
    response = await api.post(f"/api/v1/sessions/{source['id']}/fork", json={"title": ""})
    assert detail_paths(response) == ["title"]


async def test_fork_outlives_its_source(api: httpx.AsyncClient) -> None:
    source = await create_project(api)
    fork = (await api.post(f"/api/v1/sessions/{source['id']}/fork")).json()
    assert (await api.delete(f"/api/v1/sessions/{source['id']}")).status_code == 200
    response = await api.get(f"/api/v1/sessions/{fork['id']}")
    assert response.status_code == 200
    assert response.json()["forkedFromSessionId"] == source["id"]


def _add_messages(app: FastAPI, project_id: str) -> list[str]:
    """Store two chat messages (no endpoint writes them yet), oldest first."""
    ids = [new_id(), new_id()]
    with app.state.services.db.write() as tx:
        for index, (message_id, role) in enumerate(zip(ids, ("user", "assistant"), strict=True)):
            tx.execute(
                messages.insert().values(
                    id=message_id,
                    project_id=project_id,
                    role=role,
                    content=f"message {index}",
                    actions=[{"type": "zoom_in"}] if role == "assistant" else [],
                    created_at=utcnow(),
                )
            )
    return ids


def _message_count(app: FastAPI, project_id: str) -> int:
    with app.state.services.db.write() as tx:
        query = select(func.count()).select_from(messages)
        return int(tx.execute(query.where(messages.c.project_id == project_id)).scalar_one())


async def test_project_shows_its_messages_oldest_first(
    app: FastAPI, api: httpx.AsyncClient
) -> None:
    project = await create_project(api)
    ids = _add_messages(app, project["id"])
    listed = (await api.get(f"/api/v1/sessions/{project['id']}")).json()["messages"]
    assert [m["id"] for m in listed] == ids
    assert set(listed[0]) == {"id", "role", "content", "actions", "question", "createdAt"}
    assert listed[0]["role"] == "user"
    assert listed[1]["actions"] == [{"type": "zoom_in"}]


async def test_delete_removes_the_project_and_what_it_owns(
    app: FastAPI, api: httpx.AsyncClient
) -> None:
    project = await create_project(api)
    keep = await create_project(api)
    _add_messages(app, project["id"])
    _add_messages(app, keep["id"])
    assert _message_count(app, project["id"]) == 2

    response = await api.delete(f"/api/v1/sessions/{project['id']}")
    assert response.status_code == 200
    assert response.json() == {"ok": True}

    assert _message_count(app, project["id"]) == 0
    assert _message_count(app, keep["id"]) == 2
    base = f"/api/v1/sessions/{project['id']}"
    for gone in (
        await api.get(base),
        await api.get(f"{base}/map"),
        await api.patch(base, json={"title": "x"}),
        await api.post(f"{base}/fork"),
        await api.delete(base),
    ):
        assert_error(gone, 404, "not_found")
    assert (await api.get(f"/api/v1/sessions/{keep['id']}")).status_code == 200
    usage = (await api.get("/api/v1/usage")).json()
    assert usage["projects"]["used"] == 1


@pytest.mark.parametrize("contenders", [2, 8])
async def test_concurrent_patches_with_one_if_match_let_exactly_one_win(
    api: httpx.AsyncClient, contenders: int
) -> None:
    project = await create_project(api)
    url = f"/api/v1/sessions/{project['id']}"
    etag = (await api.get(url)).headers["etag"]
    results: dict[str, httpx.Response] = {}

    async def patch(title: str) -> None:
        results[title] = await api.patch(url, json={"title": title}, headers={"If-Match": etag})

    async with anyio.create_task_group() as tasks:
        for n in range(contenders):
            tasks.start_soon(patch, f"writer {n}")

    winners = [title for title, r in results.items() if r.status_code == 200]
    assert len(winners) == 1, {t: r.status_code for t, r in results.items()}
    for title, response in results.items():
        if title not in winners:
            assert_error(response, 412, "precondition_failed")
    final = await api.get(url)
    assert final.json()["title"] == winners[0]
    assert final.headers["etag"] == results[winners[0]].headers["etag"]


async def test_concurrent_patches_without_if_match_all_apply(api: httpx.AsyncClient) -> None:
    project = await create_project(api)
    url = f"/api/v1/sessions/{project['id']}"
    fields = {"zoom": 3, "pitch": 30, "bearing": 45}
    statuses: list[int] = []

    async def patch(name: str, value: float) -> None:
        statuses.append((await api.patch(url, json={"mapState": {name: value}})).status_code)

    async with anyio.create_task_group() as tasks:
        for name, value in fields.items():
            tasks.start_soon(patch, name, value)

    assert statuses == [200, 200, 200]
    state = (await api.get(url)).json()["mapState"]
    assert {name: state[name] for name in fields} == fields


async def test_a_read_project_follows_every_change(
    app: FastAPI, api: httpx.AsyncClient, make_key: Any
) -> None:
    """Project bodies are kept in memory between reads; what a change or a delete does is
    seen by the very next read, and a kept body is never another account's."""
    project = (await create_project(api, title="Kept"))["id"]
    path = f"/api/v1/sessions/{project}"
    first = await api.get(path)
    assert (await api.get(path)).json() == first.json()  # the second read comes from memory
    assert app.state.services.bodies.get(project) is not None

    async with http_client(app, make_key(email=OTHER)) as intruder:
        assert_error(await intruder.get(path), 404, "not_found")

    fly = {"type": "fly_to", "center": [2.35, 48.85], "zoom": 9}
    assert (await api.post(f"{path}/map/actions", json={"actions": [fly]})).status_code == 200
    moved = await api.get(path)
    assert moved.json()["mapState"]["center"] == [2.35, 48.85]
    assert moved.headers["ETag"] != first.headers["ETag"]

    await api.post(f"{path}/chat", json={"message": "hello"})
    assert [m["role"] for m in (await api.get(path)).json()["messages"]][:1] == ["user"]

    assert (await api.delete(path)).status_code == 200
    assert_error(await api.get(path), 404, "not_found")
