"""A maproom service started under uvicorn on a loopback port (real HTTP), and a key for it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from maproom.app import create_app
from maproom.settings import Settings
from tests.serving import serving
from tests.support import new_key


@dataclass
class Service:
    """A started service: its origin, an all-scopes key, and a maker of other keys."""

    url: str
    key: str
    settings: Settings
    make_key: Callable[..., str]


@pytest.fixture
def database_url() -> None:
    """The clients only see HTTP: the embedded SQLite default serves them (the service's own
    tests cover PostgreSQL)."""
    return None


@pytest.fixture
def service(make_settings: Callable[..., Settings]) -> Iterator[Service]:
    yield from started(make_settings())


def started(settings: Settings) -> Iterator[Service]:
    app = create_app(settings)
    with serving(app, lifespan="on") as url:

        def make_key(**options: Any) -> str:
            return new_key(app, **options)

        yield Service(url, make_key(), settings, make_key)
