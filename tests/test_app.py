"""The application factory: health checks outside the API, and no key needed for them."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from maproom.app import create_app
from maproom.settings import Settings
from tests.support import assert_error, http_client

pytestmark = pytest.mark.anyio


async def test_healthz(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readyz(client: httpx.AsyncClient) -> None:
    response = await client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    assert body["checks"]["database"] == "ok"


async def test_readyz_is_503_when_the_database_is_down(tmp_path: Path) -> None:
    # Port 1 on loopback refuses connections at once: a database that is not there.
    settings = Settings(
        _env_file=None,
        data_dir=tmp_path,
        database_url="postgresql://nobody@127.0.0.1:1/none?connect_timeout=2",
    )
    app = create_app(settings)
    try:
        async with http_client(app) as client:
            assert (await client.get("/healthz")).status_code == 200
            response = await client.get("/readyz")
    finally:
        app.state.services.db.dispose()
    error = assert_error(response, 503, "service_unavailable")
    assert "127.0.0.1" not in error["message"]


async def test_the_app_creates_its_data_dir(tmp_path: Path) -> None:
    data_dir = tmp_path / "nested" / "data"
    app = create_app(Settings(_env_file=None, data_dir=data_dir))
    async with app.router.lifespan_context(app), http_client(app) as client:
        assert (await client.get("/readyz")).status_code == 200
    assert (data_dir / "maproom.db").is_file()
