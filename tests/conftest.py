"""Fixtures: a maproom app on real temporary databases, HTTP clients and API keys.

Every test that takes `app` runs once on a SQLite file under `tmp_path` and once on
PostgreSQL. The PostgreSQL run needs `MAPROOM_TEST_DATABASE_URL`; without it those runs are
skipped, and with it an unreachable server fails them. Each PostgreSQL test gets a schema of
its own (through the connection's `search_path`), dropped afterwards, so runs never share rows.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fastapi import FastAPI
from sqlalchemy.engine import make_url

from maproom.app import create_app
from maproom.settings import Settings
from tests.support import CRASH_SECRET, OWNER, AppFactory, KeyMaker, http_client, new_key

PG_ENV = "MAPROOM_TEST_DATABASE_URL"
PG_URL = os.environ.get(PG_ENV)


@pytest.fixture
def anyio_backend() -> str:
    """The anyio plugin runs async tests and fixtures on asyncio."""
    return "asyncio"


def _libpq_url(url: str) -> str:
    """The URL without SQLAlchemy's driver suffix, as psycopg wants it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL URL under test; fails (never skips) when the server does not answer."""
    if PG_URL is None:
        pytest.skip(f"{PG_ENV} is not set: PostgreSQL variant not run")
    try:
        with psycopg.connect(_libpq_url(PG_URL), connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        pytest.fail(f"{PG_ENV}={PG_URL} is set but PostgreSQL is unreachable: {exc}")
    return PG_URL


@contextlib.contextmanager
def _pg_schema(server_url: str) -> Iterator[str]:
    """A fresh schema, and a database URL whose connections use only it; dropped afterwards."""
    schema = f"maproom_test_{uuid.uuid4().hex[:16]}"
    admin = _libpq_url(server_url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(server_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def database_url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None for the embedded SQLite default (in the data dir), or a PostgreSQL schema's URL."""
    if request.param == "sqlite":
        yield None
        return
    with _pg_schema(request.getfixturevalue("pg_server")) as url:
        yield url


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """MAPROOM_DATA_DIR of the test: the SQLite file and stored files live here."""
    return tmp_path / "data"


@pytest.fixture
def make_settings(data_dir: Path, database_url: str | None) -> Callable[..., Settings]:
    """Settings for this test's database; keyword arguments override single fields."""

    def make(**overrides: Any) -> Settings:
        fields: dict[str, Any] = {"data_dir": data_dir, "database_url": database_url}
        return Settings(_env_file=None, **(fields | overrides))

    return make


@pytest.fixture
def settings(make_settings: Callable[..., Settings]) -> Settings:
    """The default settings of the test."""
    return make_settings()


@pytest.fixture
def app_factory(make_settings: Callable[..., Settings]) -> AppFactory:
    """`async with app_factory(**overrides) as app:` a started app (lifespan run: migrated)."""

    @contextlib.asynccontextmanager
    async def running(**overrides: Any) -> AsyncIterator[FastAPI]:
        app = create_app(make_settings(**overrides))
        async with app.router.lifespan_context(app):
            yield app

    return running


@pytest.fixture
async def app(app_factory: AppFactory) -> AsyncIterator[FastAPI]:
    """A started app on the test's database."""
    async with app_factory() as started:
        yield started


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client without a key."""
    async with http_client(app) as c:
        yield c


@pytest.fixture
def make_key(app: FastAPI) -> KeyMaker:
    """`make_key(email=..., scopes=[...])`: a plaintext key, made through the domain."""

    def make(email: str = OWNER, scopes: list[str] | None = None, name: str = "test") -> str:
        return new_key(app, email=email, scopes=scopes, name=name)

    return make


@pytest.fixture
def key(make_key: KeyMaker) -> str:
    """A key of the owner's account holding every scope."""
    return make_key()


@pytest.fixture
async def api(app: FastAPI, key: str) -> AsyncIterator[httpx.AsyncClient]:
    """A client sending the owner's all-scopes key."""
    async with http_client(app, key) as c:
        yield c


@pytest.fixture
def crashing_app(app: FastAPI) -> FastAPI:
    """The app with a test-only route that raises, as a bug would."""

    async def crash() -> None:
        raise RuntimeError(CRASH_SECRET)

    app.add_api_route("/api/v1/test-crash", crash, methods=["GET", "POST"], include_in_schema=False)
    return app
