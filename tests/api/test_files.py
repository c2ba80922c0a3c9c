"""Uploads over HTTP: each accepted type, every rejection path, content, delete, assets."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import orjson
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from maproom.storage.db import Prepared
from maproom.storage.models import events
from tests import makers
from tests.support import AppFactory, KeyMaker, assert_error, http_client, new_key

pytestmark = pytest.mark.anyio


def stored_files(app: FastAPI) -> list[Path]:
    """Every file in the blob store, temporary ones included."""
    root = Path(app.state.settings.data_dir) / "files"
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


async def new_project(api: httpx.AsyncClient) -> str:
    response = await api.post("/api/v1/sessions", json={"title": "data"})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def upload(
    api: httpx.AsyncClient, project: str, file_name: str, data: bytes, **fields: str
) -> httpx.Response:
    return await api.post(
        f"/api/v1/sessions/{project}/files", files={"file": (file_name, data)}, data=fields
    )


async def test_geojson_becomes_a_point_layer(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    response = await upload(api, project, "cities.geojson", makers.geojson_points())
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["fileName"] == "cities.geojson"
    assert body["fileType"] == "geojson"
    assert body["fileSize"] == len(makers.geojson_points())
    layer = body["layer"]
    assert layer["name"] == "cities"
    assert layer["layer_type"] == "geojson"
    assert layer["geometry_type"] == "Point"
    assert layer["feature_count"] == 3
    assert layer["streaming"] is False
    assert layer["source"] == "upload"
    assert layer["file_id"] == body["id"]
    assert layer["bbox"] == pytest.approx([-9.14, 38.72, 13.4, 52.52])
    assert layer["url"].endswith(f"/api/v1/sessions/{project}/layers/{layer['layer_id']}/data")
    listed = (await api.get(f"/api/v1/sessions/{project}/layers")).json()
    assert [item["layer_id"] for item in listed["data"]] == [layer["layer_id"]]
    full = (await api.get(f"/api/v1/sessions/{project}")).json()
    assert full["layers"] == listed["data"]
    sessions = (await api.get("/api/v1/sessions")).json()["data"]
    assert [s["layerCount"] for s in sessions if s["id"] == project] == [1]


async def test_layer_name_comes_from_the_form(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    response = await upload(api, project, "x.geojson", makers.geojson_points(), name="Capitals")
    assert response.json()["layer"]["name"] == "Capitals"


async def test_csv_with_lat_lon_skips_and_counts_bad_rows(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    data = makers.csv_latlon(extra_rows="Nowhere,,,1\nMoon,95,10,2\n")
    response = await upload(api, project, "cities.csv", data)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["skippedRows"] == 2
    assert body["layer"]["feature_count"] == 3
    assert body["layer"]["geometry_type"] == "Point"


async def test_csv_with_wkt_geometry(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    response = await upload(api, project, "roads.csv", makers.csv_wkt())
    assert response.status_code == 201, response.text
    layer = response.json()["layer"]
    assert (layer["geometry_type"], layer["feature_count"]) == ("LineString", 2)
    assert layer["bbox"] == pytest.approx([0, 0, 2, 1])


async def test_xlsx_first_sheet(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    response = await upload(api, project, "cities.xlsx", makers.xlsx_points())
    assert response.status_code == 201, response.text
    layer = response.json()["layer"]
    assert (layer["geometry_type"], layer["feature_count"]) == ("Point", 3)


async def test_xls_first_sheet(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    response = await upload(api, project, "cities.xls", makers.xls_points())
    assert response.status_code == 201, response.text
    layer = response.json()["layer"]
    assert (layer["geometry_type"], layer["feature_count"]) == ("Point", 3)
    assert layer["bbox"] == pytest.approx([-9.14, 38.72, 13.4, 52.52])


async def test_geotiff_becomes_a_cog_layer(api: httpx.AsyncClient, tmp_path: Path) -> None:
    project = await new_project(api)
    data = makers.geotiff(tmp_path / "in.tif")
    response = await upload(api, project, "scene.tif", data)
    assert response.status_code == 201, response.text
    layer = response.json()["layer"]
    assert layer["layer_type"] == "cog"
    assert layer["geometry_type"] is None
    assert layer["bbox"] == pytest.approx([-10, 35, 10, 55])
    assert layer["url"].endswith("/tiles/{z}/{x}/{y}.png")


async def test_pdf_is_stored_without_a_layer(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    response = await upload(api, project, "notes.pdf", makers.pdf())
    assert response.status_code == 201, response.text
    assert response.json()["layer"] is None
    content = await api.get(f"/api/v1/sessions/{project}/files/{response.json()['id']}/content")
    assert content.content == makers.pdf()
    assert content.headers["content-type"] == "application/pdf"


@pytest.mark.parametrize(
    ("name", "data", "status", "code"),
    [
        ("tool.exe", b"MZ", 415, "unsupported_media_type"),
        ("bad.geojson", b'{"type": "FeatureCollection", "features": 3}', 400, "bad_request"),
        ("bad.json", b"{not json", 400, "bad_request"),
        ("nocoords.csv", b"name,value\na,1\n", 400, "bad_request"),
    ],
)
async def test_rejections_leave_nothing_behind(
    app: FastAPI, api: httpx.AsyncClient, name: str, data: bytes, status: int, code: str
) -> None:
    project = await new_project(api)
    before = (await api.get(f"/api/v1/sessions/{project}")).headers["etag"]
    assert_error(await upload(api, project, name, data), status, code)
    assert stored_files(app) == []
    assert (await api.get(f"/api/v1/sessions/{project}/files")).json()["data"] == []
    assert (await api.get(f"/api/v1/sessions/{project}")).headers["etag"] == before


async def test_csv_without_coordinates_says_what_was_looked_for(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    error = assert_error(await upload(api, project, "x.csv", b"a,b\n1,2\n"), 400, "bad_request")
    assert "lat" in error["message"]
    assert "wkt" in error["message"].lower()


async def test_ungeoreferenced_tiff_is_refused(
    app: FastAPI, api: httpx.AsyncClient, tmp_path: Path
) -> None:
    project = await new_project(api)
    data = makers.geotiff(tmp_path / "plain.tif", georeferenced=False)
    assert_error(await upload(api, project, "plain.tif", data), 400, "bad_request")
    assert stored_files(app) == []


async def test_too_large_upload_is_cut_off(app_factory: AppFactory) -> None:
    async with app_factory(upload_max_size_mb=1) as app, http_client(app, new_key(app)) as api:
        project = await new_project(api)
        data = b"x" * (1_048_576 + 1)
        response = await upload(api, project, "big.txt", data)
        assert_error(response, 413, "payload_too_large")
        assert stored_files(app) == []
        exact = await upload(api, project, "fits.txt", b"y" * 1_048_576)
        assert exact.status_code == 201, exact.text


async def test_too_large_upload_is_cut_off_mid_stream(app_factory: AppFactory) -> None:
    """The server stops reading once past the ceiling: most of a 64 MB body is never sent."""
    sent = 0

    async def body() -> AsyncIterator[bytes]:
        nonlocal sent
        yield (
            b'--cut\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n'
            b"Content-Type: text/csv\r\n\r\nlat,lon\r\n"
        )
        for _ in range(1024):
            sent += 65_536
            yield b"1,2\n" * 16_384
        yield b"\r\n--cut--\r\n"

    async with app_factory(upload_max_size_mb=1) as app, http_client(app, new_key(app)) as api:
        project = await new_project(api)
        response = await api.post(
            f"/api/v1/sessions/{project}/files",
            content=body(),
            headers={"Content-Type": "multipart/form-data; boundary=cut"},
        )
        assert_error(response, 413, "payload_too_large")
        assert sent < 4 * 1_048_576
        assert stored_files(app) == []
        assert (await api.get(f"/api/v1/sessions/{project}/files")).json()["data"] == []


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"content": b"plain", "headers": {"content-type": "text/plain"}}, "body"),
        ({"files": {"other": ("a.txt", b"a")}}, "file"),
    ],
)
async def test_upload_needs_a_file_part(
    api: httpx.AsyncClient, kwargs: dict[str, object], path: str
) -> None:
    project = await new_project(api)
    response = await api.post(f"/api/v1/sessions/{project}/files", **kwargs)  # type: ignore[arg-type]
    error = assert_error(response, 400, "bad_request")
    assert error["details"][0]["path"] == path


async def test_content_supports_ranges(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    data = makers.csv_latlon()
    file_id = (await upload(api, project, "c.csv", data)).json()["id"]
    url = f"/api/v1/sessions/{project}/files/{file_id}/content"
    whole = await api.get(url)
    assert whole.status_code == 200
    assert whole.content == data
    assert whole.headers["content-type"].startswith("text/csv")
    assert "c.csv" in whole.headers["content-disposition"]
    part = await api.get(url, headers={"Range": "bytes=5-14"})
    assert part.status_code == 206
    assert part.content == data[5:15]
    assert part.headers["content-range"] == f"bytes 5-14/{len(data)}"
    tail = await api.get(url, headers={"Range": "bytes=-4"})
    assert tail.content == data[-4:]
    past = await api.get(url, headers={"Range": f"bytes={len(data)}-"})
    assert_error(past, 416, "range_not_satisfiable")


async def test_delete_file_removes_its_layers(app: FastAPI, api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    body = (await upload(api, project, "a.geojson", makers.geojson_points())).json()
    response = await api.delete(f"/api/v1/sessions/{project}/files/{body['id']}")
    assert response.json() == {"ok": True}
    assert (await api.get(f"/api/v1/sessions/{project}/layers")).json()["data"] == []
    app.state.services.tiles.settle()  # a tile index being built meanwhile is removed too
    assert stored_files(app) == []
    again = await api.delete(f"/api/v1/sessions/{project}/files/{body['id']}")
    assert (again.status_code, again.json()) == (200, {"ok": True})


async def test_files_list_pages(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    ids = [(await upload(api, project, f"{i}.txt", b"t")).json()["id"] for i in range(5)]
    seen: list[str] = []
    cursor = None
    while True:
        params = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        page = (await api.get(f"/api/v1/sessions/{project}/files", params=params)).json()
        seen += [item["id"] for item in page["data"]]
        cursor = page["meta"].get("nextCursor")
        if not cursor:
            break
    assert seen == ids


async def test_assets_fold_files_into_layers(api: httpx.AsyncClient, make_key: KeyMaker) -> None:
    project = await new_project(api)
    layer_file = (await upload(api, project, "a.geojson", makers.geojson_points())).json()
    plain = (await upload(api, project, "notes.txt", b"hello")).json()
    assets = (await api.get(f"/api/v1/sessions/{project}/assets")).json()
    assert assets["meta"]["count"] == 2
    first, second = assets["data"]
    assert first["assetType"] == "layer"
    assert first["layer_id"] == layer_file["layer"]["layer_id"]
    assert (first["file_type"], first["file_size"], first["order"]) == (
        "geojson",
        layer_file["fileSize"],
        0,
    )
    assert second == {
        "assetType": "file",
        "file_id": plain["id"],
        "name": "notes.txt",
        "file_type": "txt",
        "file_size": 5,
        "source": "upload",
        "createdAt": plain["createdAt"],
    }


async def test_reports_are_saved_and_sandboxed(app: FastAPI, api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    html = "<h1>Report</h1><script>fetch('/api/v1/sessions')</script>"
    saved = await api.post(
        f"/api/v1/sessions/{project}/reports", json={"title": "Q3 map", "html": html}
    )
    assert saved.status_code == 201, saved.text
    body = saved.json()
    assert body["ok"] is True
    meta = (await api.get(f"/api/v1/sessions/{project}/reports/{body['file_id']}")).json()
    assert meta["data"]["fileType"] == "html"
    assert meta["data"]["fileSize"] == len(html.encode())
    link = body["url"].removeprefix("http://testserver")
    assert link.startswith("/r/") and len(link) >= len("/r/") + 22  # 128 random bits or more
    async with httpx.AsyncClient(  # a browser: no key
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as browser:
        content = await browser.get(link)
        assert content.status_code == 200 and content.text == html
        assert content.headers["content-type"].startswith("text/html")
        assert content.headers["content-security-policy"] == "sandbox"
        with app.state.services.db.reader() as tx:
            rows = tx.all(Prepared(select(events.c.type, events.c.payload)))
        assert [(r.type, r.payload["file_id"], r.payload["url"]) for r in rows] == [
            ("file_generated", body["file_id"], body["url"])
        ]
        listed = (await api.get(f"/api/v1/sessions/{project}/view-links")).json()["data"]
        assert [(x["kind"], x["url"]) for x in listed] == [("report", body["url"])]

        # Revoked: 404 at once. A new report's link dies with its file, then its project.
        assert (
            await api.delete(f"/api/v1/sessions/{project}/view-links/{listed[0]['id']}")
        ).status_code == 200
        assert_error(await browser.get(link), 404, "not_found")
        again = (
            await api.post(f"/api/v1/sessions/{project}/reports", json={"title": "b", "html": html})
        ).json()
        second = again["url"].removeprefix("http://testserver")
        assert (await browser.get(second)).status_code == 200
        assert (
            await api.delete(f"/api/v1/sessions/{project}/files/{again['file_id']}")
        ).status_code == 200
        assert_error(await browser.get(second), 404, "not_found")
        assert (await api.get(f"/api/v1/sessions/{project}/view-links")).json()["data"] == []
        third = (
            await api.post(f"/api/v1/sessions/{project}/reports", json={"title": "c", "html": html})
        ).json()
        assert (await api.delete(f"/api/v1/sessions/{project}")).status_code == 200
        assert_error(
            await browser.get(third["url"].removeprefix("http://testserver")), 404, "not_found"
        )


async def test_report_over_two_megabytes_is_refused(app: FastAPI, api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    html = "é" * (1_048_576 + 1)  # 2 MB + 2 bytes of UTF-8
    response = await api.post(
        f"/api/v1/sessions/{project}/reports", json={"title": "t", "html": html}
    )
    assert_error(response, 413, "payload_too_large")
    assert stored_files(app) == []
    ok = await api.post(
        f"/api/v1/sessions/{project}/reports", json={"title": "t", "html": "é" * 1_048_576}
    )
    assert ok.status_code == 201


async def test_fork_copies_files_and_layers(api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    layer = (await upload(api, project, "a.geojson", makers.geojson_points())).json()["layer"]
    fork = (await api.post(f"/api/v1/sessions/{project}/fork")).json()
    assert len(fork["layers"]) == 1
    assert fork["layers"][0]["layer_id"] != layer["layer_id"]
    files = (await api.get(f"/api/v1/sessions/{fork['id']}/files")).json()["data"]
    content = await api.get(f"/api/v1/sessions/{fork['id']}/files/{files[0]['id']}/content")
    assert orjson.loads(content.content) == orjson.loads(makers.geojson_points())
    await api.delete(f"/api/v1/sessions/{project}")
    again = await api.get(f"/api/v1/sessions/{fork['id']}/files/{files[0]['id']}/content")
    assert again.status_code == 200


async def test_project_delete_removes_its_blobs(app: FastAPI, api: httpx.AsyncClient) -> None:
    project = await new_project(api)
    await upload(api, project, "a.geojson", makers.geojson_points())
    assert stored_files(app) != []
    await api.delete(f"/api/v1/sessions/{project}")
    app.state.services.tiles.settle()  # a tile index being built meanwhile is removed too
    assert stored_files(app) == []


async def test_other_accounts_files_are_not_found(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker
) -> None:
    project = await new_project(api)
    file_id = (await upload(api, project, "n.txt", b"x")).json()["id"]
    other_key = make_key("other@example.com")
    async with http_client(app, other_key) as other:
        for response in (
            await other.get(f"/api/v1/sessions/{project}/files"),
            await other.get(f"/api/v1/sessions/{project}/files/{file_id}/content"),
            await upload(other, project, "n.txt", b"x"),
            await other.delete(f"/api/v1/sessions/{project}/files/{file_id}"),
            await other.get(f"/api/v1/sessions/{project}/assets"),
        ):
            assert_error(response, 404, "not_found")
    assert (await api.get(f"/api/v1/sessions/{project}/files")).json()["meta"]["count"] == 1
