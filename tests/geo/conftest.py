"""Fixtures for the geo library tests: a folder for sources and an empty work folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.geo.support import Write


@pytest.fixture
def workdir(tmp_path: Path) -> Iterator[Path]:
    """An empty folder for outputs; afterwards it must hold no partial or temporary file."""
    path = tmp_path / "work"
    path.mkdir()
    yield path
    leftovers = [p.name for p in path.iterdir() if p.name.startswith((".", "tmp"))]
    assert leftovers == []


@pytest.fixture
def source(tmp_path: Path) -> Write:
    """Write a source file (text as UTF-8, or raw bytes) outside the work folder."""
    folder = tmp_path / "in"
    folder.mkdir()

    def write(name: str, content: bytes | str) -> Path:
        path = folder / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return path

    return write
