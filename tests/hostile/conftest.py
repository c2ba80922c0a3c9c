"""The hostile-input probes run against a started maproom (`maproom serve`, its own process,
so its memory can be measured and it can be killed), once on SQLite and once on PostgreSQL,
and a hostile remote host on loopback."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.hostile.hostile_host import hostile_host
from tests.scale.services import fresh_database
from tests.started import Server, started

SETTINGS = {
    "MAPROOM_RATE_LIMIT_PER_MINUTE": "1000000",
    "MAPROOM_FETCH_ALLOWLIST": "127.0.0.1",
    "MAPROOM_FETCH_TIMEOUT_S": "30",
}


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]
)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A started maproom on a fresh SQLite file or PostgreSQL database."""
    data = tmp_path_factory.mktemp("hostile") / "data"
    if request.param == "sqlite":
        with started(data, **SETTINGS) as running:
            yield running
        return
    with (
        fresh_database(request.getfixturevalue("pg_server")) as database,
        started(data, MAPROOM_DATABASE_URL=database, **SETTINGS) as running,
    ):
        yield running


@pytest.fixture(scope="module")
def api(server: Server) -> Iterator[httpx.Client]:
    """A client of the started server, with its key."""
    with server.client() as client:
        yield client


@pytest.fixture(scope="session")
def remote() -> Iterator[tuple[str, Counter[str]]]:
    """The hostile host: its base URL and the requests it saw per path."""
    with hostile_host() as running:
        yield running


def new_project(api: httpx.Client) -> str:
    """A fresh project's id."""
    response = api.post("/api/v1/sessions", json={})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def assert_no_stray(data_dir: Path) -> None:
    """Nothing left in the data dir's scratch folders after a refused request."""
    scratch = data_dir / "tmp"
    leftovers = [p for p in scratch.rglob("*") if p.is_file()] if scratch.exists() else []
    assert not leftovers, leftovers
