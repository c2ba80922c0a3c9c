"""Blobs left by a crash are swept at start (docs/api-decisions.md, files and uploads): a
server killed (`kill -9`) in the middle of a batch of 36 `add_geojson_layer` leaves stored
files that no row refers to; the next start spares them while they are younger than
`MAPROOM_ORPHAN_GRACE_S`, and removes them once they are older, keeping every file a row
refers to; `/usage` counts only those."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.scale.services import fresh_database
from tests.started import Server, started

SWEPT = "uploads that no row refers to"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def settings(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """The settings of a server on a fresh database (SQLite in its data dir, or PostgreSQL)."""
    base = {"MAPROOM_RATE_LIMIT_PER_MINUTE": "100000", "MAPROOM_MAX_BODY_MB": "64"}
    if request.param == "sqlite":
        yield base
        return
    with fresh_database(request.getfixturevalue("pg_server")) as database:
        yield base | {"MAPROOM_DATABASE_URL": database}


def _layer(i: int) -> dict[str, object]:
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [i + j * 1e-4, j * 1e-4]},
            "properties": {"n": j, "text": "x" * 40},
        }
        for j in range(4000)
    ]
    geojson = {"type": "FeatureCollection", "features": features}
    return {"type": "add_geojson_layer", "layer_id": f"l{i}", "geojson": geojson}


def _folders(data_dir: Path) -> set[str]:
    root = data_dir / "files" / "p"
    return {f"{p.parent.name}/{p.name}" for p in root.glob("*/*") if p.is_dir()}


def _wait_for_sweep(server: Server) -> str:
    deadline = time.monotonic() + 60
    while SWEPT not in server.log_text():
        assert time.monotonic() < deadline, server.log_text()
        time.sleep(0.05)
    return next(line for line in server.log_text().splitlines() if SWEPT in line)


def test_a_crash_mid_batch_leaves_nothing_after_the_grace(
    tmp_path: Path, settings: dict[str, str]
) -> None:
    data = tmp_path / "data"
    with started(data, **settings) as server, server.client() as api:
        project = api.post("/api/v1/sessions", json={}).json()["id"]
        kept = api.post(f"/api/v1/sessions/{project}/files",
                        files={"file": ("kept.csv", b"name,lat,lon\na,1,2\n")})  # fmt: skip
        assert kept.status_code == 201, kept.text
        layer = kept.json()["layer"]["layer_id"]  # a tile waits for the layer's tile index
        assert api.get(f"/api/v1/sessions/{project}/layers/{layer}/tiles/0/0/0.pbf").is_success
        committed = _folders(data)
        usage = api.get("/api/v1/usage").json()["storage"]["usedBytes"]

        batch = {"actions": [_layer(i) for i in range(36)]}
        sender = threading.Thread(
            target=lambda: _post_quietly(server, f"/api/v1/sessions/{project}/map/actions", batch)
        )
        sender.start()
        deadline = time.monotonic() + 120
        while len(_folders(data) - committed) < 3:  # the batch is storing its blobs
            assert time.monotonic() < deadline and sender.is_alive(), "the batch stored nothing"
            time.sleep(0.01)
        server.kill()
        sender.join()
    orphans = _folders(data) - committed
    assert orphans

    # Young orphans are spared (an upload on another worker may be finishing them)...
    with started(data, **settings) as server, server.client() as api:
        assert "removed the stored files of 0 " in _wait_for_sweep(server)
        assert _folders(data) - committed == orphans
        assert api.get("/api/v1/usage").json()["storage"]["usedBytes"] == usage
    # ...old ones removed; what a row refers to stays, and its project is whole.
    with started(data, MAPROOM_ORPHAN_GRACE_S="0", **settings) as server, server.client() as api:
        assert f"removed the stored files of {len(orphans)} " in _wait_for_sweep(server)
        assert _folders(data) == committed
        assert api.get("/api/v1/usage").json()["storage"]["usedBytes"] == usage
        layers = api.get(f"/api/v1/sessions/{project}/layers").json()["data"]
        assert [layer["name"] for layer in layers] == ["kept"]
        content = api.get(f"/api/v1/sessions/{project}/files/{kept.json()['id']}/content")
        assert content.content == b"name,lat,lon\na,1,2\n"


def _post_quietly(server: Server, path: str, body: object) -> None:
    """Send the batch; the server dies under it, which is the point."""
    with server.client() as api, contextlib.suppress(httpx.HTTPError):
        api.post(path, json=body)
