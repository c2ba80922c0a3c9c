"""The cluster the several-worker tests share: two workers on PostgreSQL, Redis and S3."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scale.services import Worker, cluster_of_two


@pytest.fixture
def cluster(tmp_path: Path, pg_server: str) -> Iterator[tuple[Worker, Worker, dict[str, str]]]:
    """Workers A and B on one database, one Redis and one bucket; and their environment."""
    with cluster_of_two(tmp_path, pg_server) as started:
        yield started
