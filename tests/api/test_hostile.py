"""Hostile and unlucky input, as an attacker with an ordinary key or a full disk would bring
it (docs/api-decisions.md): each gets the contract's answer, nothing is left behind, and no
request holds a user-controlled amount of data in memory."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests import makers
from tests.support import AppFactory, assert_error, create_project, http_client, new_key

pytestmark = pytest.mark.anyio
MB = 1_048_576


# --- request bodies ------------------------------------------------------------------------


async def test_a_body_over_the_ceiling_is_refused_and_changes_nothing(
    app_factory: AppFactory,
) -> None:
    async with app_factory(max_body_mb=1) as app, http_client(app, new_key(app)) as api:
        project = await create_project(api, title="kept")
        padding = "x" * (MB + 10)
        response = await api.patch(
            f"/api/v1/sessions/{project['id']}", json={"title": "changed", "pad": padding}
        )
        error = assert_error(response, 413, "payload_too_large")
        assert "MAPROOM_MAX_BODY_MB" in error["message"]
        assert (await api.get(f"/api/v1/sessions/{project['id']}")).json()["title"] == "kept"


async def test_a_chunked_body_is_cut_off_once_it_passes_the_ceiling(
    app_factory: AppFactory,
) -> None:
    """300 MB offered without a length: refused after about the ceiling, not read whole."""
    sent = 0

    async def endless() -> AsyncIterator[bytes]:
        nonlocal sent
        yield b'{"title": "'
        for _ in range(300):
            sent += MB
            yield b"x" * MB
        yield b'"}'

    async with app_factory(max_body_mb=4) as app, http_client(app, new_key(app)) as api:
        project = await create_project(api)
        for method in ("PATCH", "POST"):
            sent = 0
            path = f"/api/v1/sessions/{project['id']}" + ("" if method == "PATCH" else "/fork")
            response = await api.request(method, path, content=endless())
            assert_error(response, 413, "payload_too_large")
            assert sent <= 6 * MB, sent
        # The same through the idempotency spool, which reads bodies before the route does.
        sent = 0
        response = await api.post(
            "/api/v1/sessions", content=endless(), headers={"Idempotency-Key": "k1"}
        )
        assert_error(response, 413, "payload_too_large")
        assert sent <= 6 * MB, sent


async def test_a_declared_length_over_the_ceiling_is_refused_before_reading(
    app_factory: AppFactory,
) -> None:
    async with app_factory(max_body_mb=1) as app, http_client(app, new_key(app)) as api:
        read = 0

        async def one_chunk() -> AsyncIterator[bytes]:
            nonlocal read
            read += 1
            yield b"{}"

        response = await api.post(
            "/api/v1/sessions",
            content=one_chunk(),
            headers={"Content-Length": str(300 * MB), "Content-Type": "application/json"},
        )
        assert_error(response, 413, "payload_too_large")
        assert read == 0


# --- a full disk -----------------------------------------------------------------------------


@contextlib.contextmanager
def small_disk(where: Path, size_mb: int) -> Iterator[Path]:
    """A tmpfs of `size_mb` mounted at `where` (the tests run as root in CI)."""
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(where)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if mounted.returncode != 0:
        if os.environ.get("CI") or os.geteuid() == 0:
            pytest.fail(f"cannot mount a tmpfs for the disk-full test: {mounted.stderr}")
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path, leave: int) -> Path:
    """Fill the file system of `disk` up to `leave` free bytes; the filler file."""
    filler = disk / "filler"
    with filler.open("wb") as out:
        free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
        out.write(b"\0" * max(0, free - leave))
    return filler


def stored_files(root: Path) -> list[Path]:
    """Every file under the blob store but the scratch area."""
    return [p for p in root.rglob("*") if p.is_file() and ".tmp" not in p.parts]


async def test_a_full_disk_answers_507_and_keeps_nothing(
    app_factory: AppFactory, tmp_path: Path, database_url: str | None
) -> None:
    with small_disk(tmp_path / "disk", 24) as disk:
        data = disk / "data"
        async with (
            app_factory(data_dir=data, min_free_mb=2) as app,
            http_client(app, new_key(app)) as api,
        ):
            project = await create_project(api)
            base = f"/api/v1/sessions/{project['id']}"
            assert (await api.get("/readyz")).status_code == 200
            before = stored_files(data / "files")
            filler = fill(disk, leave=64 * 1024)

            csv = makers.csv_latlon("".join(f"P{i},1.{i},2.{i},{i}\n" for i in range(20000)))
            response = await api.post(f"{base}/files", files={"file": ("big.csv", csv)})
            assert_error(response, 507, "insufficient_storage")
            assert stored_files(data / "files") == before
            assert (await api.get(f"{base}/files")).json()["meta"]["count"] == 0
            assert not [p for p in (data / "tmp").rglob("*") if p.is_file()]

            ready = await api.get("/readyz")
            assert_error(ready, 503, "service_unavailable")
            assert "MAPROOM_MIN_FREE_MB" in ready.json()["error"]["message"]

            if database_url is None:  # the embedded database is on the full disk too
                fill(disk, leave=0)
                created = await api.post("/api/v1/sessions", json={"title": "x" * 100})
                assert created.status_code in (201, 507), created.text
                if created.status_code == 507:
                    assert_error(created, 507, "insufficient_storage")

            filler.unlink()
            response = await api.post(f"{base}/files", files={"file": ("big.csv", csv)})
            assert response.status_code == 201, response.text
            assert (await api.get("/readyz")).status_code == 200


# --- what a crash leaves ---------------------------------------------------------------------


async def test_scratch_left_by_a_stopped_process_is_swept_at_start(
    app_factory: AppFactory, data_dir: Path
) -> None:
    scratch = data_dir / "tmp"
    (scratch / "999999999" / "upload").mkdir(parents=True)
    (scratch / "999999999" / "upload" / "half.csv").write_bytes(b"lat,lon\n1,2\n")
    (scratch / "tmpabc123").write_bytes(b"a stray file of an older layout")
    alive = scratch / str(os.getppid())  # a process that runs: its folder stays
    alive.mkdir()
    (alive / "busy").write_bytes(b"...")
    async with app_factory():
        assert not (scratch / "999999999").exists()
        assert not (scratch / "tmpabc123").exists()
        assert (alive / "busy").exists()


# --- what errors say -------------------------------------------------------------------------


async def test_a_truncated_tiff_is_refused_without_paths_or_internals(
    app: FastAPI, api: httpx.AsyncClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    whole = makers.geotiff(tmp_path / "whole.tif", size=256)
    project = await create_project(api)
    caplog.set_level("WARNING", logger="maproom")
    response = await api.post(
        f"/api/v1/sessions/{project['id']}/files",
        files={"file": ("scene.tif", whole[: len(whole) // 2])},
        headers={"X-Request-Id": "req-truncated-1"},
    )
    message = assert_error(response, 400, "bad_request")["message"]
    assert message.startswith("scene.tif: ")
    data_dir = str(app.state.settings.data_dir)
    for leak in ("/", ".tmp", "partial", "TIFFRead", "GDAL", "Errno", "rasterio", data_dir):
        assert leak not in message.removeprefix("scene.tif: "), (leak, message)
    assert any("req-truncated-1" in r.getMessage() for r in caplog.records)


# --- keyless pages ---------------------------------------------------------------------------


async def test_keyless_pages_are_rate_limited_per_link_and_address(
    app_factory: AppFactory,
) -> None:
    async with (
        app_factory(public_rate_limit_per_minute=5) as app,
        http_client(app, new_key(app)) as api,
    ):
        project = await create_project(api)
        links = []
        for kind in ("live-view-url", "static-view-url", "live-view-url"):
            made = await api.post(f"/api/v1/sessions/{project['id']}/{kind}")
            links.append(httpx.URL(next(iter(made.json().values()))).path)

        def visitor(address: str) -> httpx.AsyncClient:
            transport = httpx.ASGITransport(app=app, client=(address, 40000))
            return httpx.AsyncClient(transport=transport, base_url="http://testserver")

        async with visitor("203.0.113.7") as first, visitor("198.51.100.9") as second:
            for _ in range(5):
                assert (await first.get(f"{links[0]}/state")).status_code == 200
            refused = await first.get(f"{links[0]}/state")
            assert_error(refused, 429, "rate_limited")
            assert int(refused.headers["Retry-After"]) >= 1
            assert_error(await first.get(links[0]), 429, "rate_limited")  # the page itself too
            # Another address, and the same address on another link, are counted apart.
            assert (await second.get(f"{links[0]}/state")).status_code == 200
            assert (await first.get(f"{links[1]}/state")).status_code == 200
            assert (await first.get(f"{links[2]}/state")).status_code == 200
        # Keyed API calls are not counted against the public limit.
        for _ in range(10):
            assert (await api.get(f"/api/v1/sessions/{project['id']}")).status_code == 200


# --- conversions -----------------------------------------------------------------------------


async def test_a_workbook_that_expands_past_ten_times_the_ceiling_is_refused(
    app_factory: AppFactory, tmp_path: Path
) -> None:
    bomb = makers.xlsx_rows(tmp_path / "bomb.xlsx", 300_000, same=True)
    assert bomb.stat().st_size < MB  # under the 1 MB ceiling, 30+ MB of sheet inside
    async with app_factory(upload_max_size_mb=1) as app, http_client(app, new_key(app)) as api:
        project = await create_project(api)
        before = stored_files(app.state.services.blobs.root)
        response = await api.post(
            f"/api/v1/sessions/{project['id']}/files",
            files={"file": ("bomb.xlsx", bomb.read_bytes())},
        )
        error = assert_error(response, 413, "payload_too_large")
        assert "10 times the upload ceiling" in error["message"]
        assert stored_files(app.state.services.blobs.root) == before
        assert (await api.get(f"/api/v1/sessions/{project['id']}/files")).json()["data"] == []


async def test_a_large_workbook_is_read_as_a_stream(
    app_factory: AppFactory, tmp_path: Path
) -> None:
    """Over 32 MB of sheet XML: read row by row (openpyxl), not held whole (calamine)."""
    book = makers.xlsx_rows(tmp_path / "many.xlsx", 200_000)
    async with app_factory(upload_max_size_mb=10) as app, http_client(app, new_key(app)) as api:
        project = await create_project(api)
        response = await api.post(
            f"/api/v1/sessions/{project['id']}/files",
            files={"file": ("many.xlsx", book.read_bytes())},
        )
        assert response.status_code == 201, response.text
        layer = response.json()["layer"]
        assert layer["feature_count"] == 200_000 and layer["geometry_type"] == "Point"
        assert {f["name"] for f in layer["fields"]} == {"name", "n"}
