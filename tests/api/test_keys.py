"""API keys, /verify and /usage over HTTP (docs/api-decisions.md)."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from typing import Any

import anyio
import httpx
import pytest
from fastapi import FastAPI

from maproom.domain.keys import SCOPES
from maproom.domain.usage import UNMEASURED
from maproom.settings import Settings
from maproom.storage.models import files as files_table
from tests import makers
from tests.support import (
    OWNER,
    KeyMaker,
    assert_error,
    bearer,
    create_project,
    http_client,
    new_key,
)

pytestmark = pytest.mark.anyio

KEY_RECORD = {"id", "name", "prefix", "scopes", "createdAt", "lastUsedAt"}
KEY_SHAPE = re.compile(r"^mr_[A-Za-z0-9_-]{40,}$")


async def test_create_returns_the_record_and_the_plaintext_once(api: httpx.AsyncClient) -> None:
    response = await api.post("/api/v1/api-keys", json={"name": "ci", "scopes": ["map", "files"]})
    assert response.status_code == 201
    created = response.json()
    assert set(created) == KEY_RECORD | {"key"}
    assert KEY_SHAPE.match(created["key"])
    assert created["prefix"] == created["key"][:11]
    assert created["name"] == "ci"
    assert created["scopes"] == ["map", "files"]
    assert created["lastUsedAt"] is None

    listed = await api.get("/api/v1/api-keys")
    assert listed.status_code == 200
    body = listed.json()
    assert body["meta"]["count"] == len(body["data"]) == 2
    record = next(r for r in body["data"] if r["id"] == created["id"])
    assert record == {k: v for k, v in created.items() if k != "key"}
    for item in body["data"]:
        assert set(item) == KEY_RECORD
    assert created["key"] not in listed.text
    assert hashlib.sha256(created["key"].encode()).hexdigest() not in listed.text


async def test_list_never_shows_plaintext_or_hash(api: httpx.AsyncClient, key: str) -> None:
    listed = await api.get("/api/v1/api-keys")
    assert key not in listed.text
    assert key[11:] not in listed.text
    assert hashlib.sha256(key.encode()).hexdigest() not in listed.text
    assert listed.json()["data"][0]["prefix"] == key[:11]


async def test_new_key_authenticates_with_its_scopes(app: FastAPI, api: httpx.AsyncClient) -> None:
    created = (await api.post("/api/v1/api-keys", json={"name": "s", "scopes": ["session"]})).json()
    async with http_client(app, created["key"]) as new:
        verified = (await new.get("/api/v1/verify")).json()
        assert verified["key"]["id"] == created["id"]
        assert verified["key"]["scopes"] == ["session"]
        assert (await new.post("/api/v1/sessions", json={})).status_code == 201
        assert_error(await new.get("/api/v1/api-keys"), 403, "forbidden")


async def test_last_used_is_reported(app: FastAPI, api: httpx.AsyncClient) -> None:
    created = (await api.post("/api/v1/api-keys", json={"name": "later"})).json()
    async with http_client(app, created["key"]) as new:
        assert (await new.get("/api/v1/verify")).status_code == 200
    records = (await api.get("/api/v1/api-keys")).json()["data"]
    used = next(r for r in records if r["id"] == created["id"])["lastUsedAt"]
    assert used is not None
    assert used >= created["createdAt"]


async def test_omitted_scopes_inherit_the_creators(app: FastAPI, make_key: KeyMaker) -> None:
    async with http_client(app, make_key(scopes=["keys", "map"])) as limited:
        response = await limited.post("/api/v1/api-keys", json={"name": "child"})
    assert response.status_code == 201
    assert response.json()["scopes"] == ["keys", "map"]


@pytest.mark.parametrize(
    ("asked", "missing"),
    [
        (["session"], ["session"]),
        (["keys", "session", "map"], ["session", "map"]),
        (["*"], [s for s in SCOPES if s != "keys"]),
        ([], [s for s in SCOPES if s != "keys"]),
    ],
)
async def test_scope_escalation_is_refused(
    app: FastAPI, make_key: KeyMaker, asked: list[str], missing: list[str]
) -> None:
    async with http_client(app, make_key(scopes=["keys"])) as limited:
        response = await limited.post("/api/v1/api-keys", json={"name": "x", "scopes": asked})
        error = assert_error(response, 403, "forbidden")
        assert sorted(error["details"]["requiredScopes"]) == sorted(missing)
        assert len((await limited.get("/api/v1/api-keys")).json()["data"]) == 1


async def test_a_key_may_grant_what_it_holds(app: FastAPI, make_key: KeyMaker) -> None:
    async with http_client(app, make_key(scopes=["keys", "session", "map"])) as holder:
        response = await holder.post(
            "/api/v1/api-keys", json={"name": "narrow", "scopes": ["map", "keys"]}
        )
    assert response.status_code == 201
    assert response.json()["scopes"] == ["map", "keys"]


@pytest.mark.parametrize("grant", [["*"], []], ids=["star", "empty"])
async def test_star_and_empty_hold_everything(
    app: FastAPI, make_key: KeyMaker, grant: list[str]
) -> None:
    async with http_client(app, make_key(scopes=grant)) as holder:
        for scopes in (list(SCOPES), ["*"], []):
            response = await holder.post("/api/v1/api-keys", json={"name": "n", "scopes": scopes})
            assert response.status_code == 201, response.text


async def test_unknown_scope_is_400(api: httpx.AsyncClient) -> None:
    response = await api.post(
        "/api/v1/api-keys", json={"name": "x", "scopes": ["session", "admin"]}
    )
    error = assert_error(response, 400, "bad_request")
    assert [d["path"] for d in error["details"]] == ["scopes[1]"]
    assert len((await api.get("/api/v1/api-keys")).json()["data"]) == 1


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": 3}, "name"),
        ({"name": "x", "scopes": "*"}, "scopes"),
    ],
)
async def test_key_body_is_validated(api: httpx.AsyncClient, body: object, path: str) -> None:
    error = assert_error(await api.post("/api/v1/api-keys", json=body), 400, "bad_request")
    assert path in [d["path"] for d in error["details"]]


@pytest.mark.parametrize("key_id", ["00000000-0000-4000-8000-000000000000", "nope"])
async def test_revoking_an_unknown_key_is_404(api: httpx.AsyncClient, key_id: str) -> None:
    assert_error(await api.delete(f"/api/v1/api-keys/{key_id}"), 404, "not_found")


async def test_revoked_key_leaves_the_list(api: httpx.AsyncClient) -> None:
    created = (await api.post("/api/v1/api-keys", json={"name": "gone"})).json()
    assert (await api.delete(f"/api/v1/api-keys/{created['id']}")).status_code == 200
    ids = {r["id"] for r in (await api.get("/api/v1/api-keys")).json()["data"]}
    assert created["id"] not in ids
    assert_error(await api.delete(f"/api/v1/api-keys/{created['id']}"), 404, "not_found")


async def test_verify(app: FastAPI, make_key: KeyMaker) -> None:
    key = make_key(scopes=["map"], name="mapper")
    async with http_client(app) as client:
        response = await client.get("/api/v1/verify", headers=bearer(key))
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"valid", "account", "key"}
    assert body["valid"] is True
    assert set(body["account"]) == {"id", "email", "name"}
    assert body["account"]["email"] == OWNER
    assert body["account"]["name"]
    assert set(body["key"]) == KEY_RECORD
    assert body["key"]["name"] == "mapper"
    assert body["key"]["scopes"] == ["map"]
    assert body["key"]["prefix"] == key[:11]
    assert key not in response.text


async def test_keys_of_one_account_share_it(app: FastAPI, make_key: KeyMaker) -> None:
    accounts = set()
    async with http_client(app) as client:
        for key in (make_key(), make_key(scopes=["map"]), make_key(email=OWNER.upper())):
            verified = (await client.get("/api/v1/verify", headers=bearer(key))).json()
            accounts.add(verified["account"]["id"])
        other = await client.get("/api/v1/verify", headers=bearer(make_key(email="b@x.org")))
    assert len(accounts) == 1
    assert other.json()["account"]["id"] not in accounts


async def test_usage(api: httpx.AsyncClient, settings: Settings) -> None:
    for _ in range(2):
        await create_project(api)
    await api.get("/api/v1/verify")
    response = await api.get("/api/v1/usage")
    assert response.status_code == 200
    usage = response.json()
    assert set(usage) == {"plan", "period", "requests", "projects", "storage", "rateLimit"}
    assert isinstance(usage["plan"], str)
    start = datetime.fromisoformat(usage["period"]["start"].replace("Z", "+00:00"))
    end = datetime.fromisoformat(usage["period"]["end"].replace("Z", "+00:00"))
    assert start <= datetime.now(UTC) < end
    assert (start.day, start.hour, end.day) == (1, 0, 1)
    assert set(usage["requests"]) == {"used", "limit"}
    assert usage["requests"]["used"] == 4
    assert usage["projects"] == {"used": 2}
    assert set(usage["storage"]) == {"usedBytes", "limitBytes"}
    assert usage["storage"]["usedBytes"] == 0  # projects alone store no file
    assert usage["rateLimit"] == {"perMinute": settings.rate_limit_per_minute}


def _on_disk(app: FastAPI, project_ids: list[str]) -> int:
    """What the projects' files take in the blob store, counted file by file."""
    root = app.state.services.blobs.root
    return sum(
        p.stat().st_size
        for project in project_ids
        for p in (root / "p" / project).rglob("*")
        if p.is_file()
    )


async def test_usage_measures_storage_as_files_come_and_go(
    app: FastAPI, api: httpx.AsyncClient, make_key: Any
) -> None:
    async def used() -> int:
        app.state.services.tiles.settle()  # tile indexes are built after an upload answers
        return int((await api.get("/api/v1/usage")).json()["storage"]["usedBytes"])

    first = (await create_project(api))["id"]
    uploaded = await api.post(
        f"/api/v1/sessions/{first}/files", files={"file": ("cities.csv", makers.csv_latlon())}
    )
    assert uploaded.status_code == 201, uploaded.text
    assert uploaded.json()["layer"] is not None  # converted: original, layer file, statistics
    assert await used() == _on_disk(app, [first]) > uploaded.json()["fileSize"]

    report = await api.post(
        f"/api/v1/sessions/{first}/reports", json={"title": "r", "html": "<p>hi</p>" * 100}
    )
    assert report.status_code == 201
    inline = {"type": "add_geojson_layer", "layer_id": "squares",
              "geojson": makers.geojson_polygons(3)}  # fmt: skip
    await api.post(f"/api/v1/sessions/{first}/map/actions", json={"actions": [inline]})
    assert await used() == _on_disk(app, [first])

    fork = (await api.post(f"/api/v1/sessions/{first}/fork", json={})).json()["id"]
    assert await used() == _on_disk(app, [first, fork])

    await api.delete(f"/api/v1/sessions/{first}/files/{uploaded.json()['id']}")
    assert await used() == _on_disk(app, [first, fork])
    await api.delete(f"/api/v1/sessions/{fork}")
    assert await used() == _on_disk(app, [first])

    # Another account stores nothing, whatever this one does.
    other = http_client(app, make_key(email="someone-else@example.com"))
    async with other as stranger:
        assert (await stranger.get("/api/v1/usage")).json()["storage"]["usedBytes"] == 0


async def test_files_stored_before_counting_are_measured_at_start(
    app_factory: Any, make_settings: Any
) -> None:
    async with app_factory() as app, http_client(app, new_key(app)) as api:
        project = (await create_project(api))["id"]
        uploaded = await api.post(
            f"/api/v1/sessions/{project}/files", files={"file": ("c.csv", makers.csv_latlon())}
        )
        assert uploaded.status_code == 201
        app.state.services.tiles.settle()  # its tile index, built after the answer, counts too
        expected = int((await api.get("/api/v1/usage")).json()["storage"]["usedBytes"])
        with app.state.services.db.write() as tx:
            tx.execute(files_table.update().values(stored_bytes=None))
    async with app_factory() as app, http_client(app, new_key(app)) as api:
        with anyio.fail_after(10):  # measured by a task at start: wait until it is done
            while True:
                with app.state.services.db.reader() as tx:
                    if tx.one(UNMEASURED) is None:
                        break
                await anyio.sleep(0.02)
        assert (await api.get("/api/v1/usage")).json()["storage"]["usedBytes"] == expected
