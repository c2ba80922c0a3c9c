"""What the chat tests share: one app on the embedded SQLite per module."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """Module-scoped, so that the module's app can be."""
    return "asyncio"


@pytest.fixture(scope="module")
async def chat_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[FastAPI]:
    """One app on the embedded SQLite for every phrasing (the agent does not depend on the
    database; the API tests of the chat run on PostgreSQL too)."""
    from maproom.app import create_app
    from maproom.settings import Settings

    settings = Settings(
        _env_file=None, data_dir=tmp_path_factory.mktemp("chat"), rate_limit_per_minute=100_000
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app
