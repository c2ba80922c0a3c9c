"""Settings: validated at construction, from keywords or the environment (README, settings)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from maproom.settings import Settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No maproom variable of the calling shell leaks into these tests."""
    for name in list(os.environ):
        if name.startswith("MAPROOM_") or name == "UPLOAD_MAX_SIZE_MB":
            monkeypatch.delenv(name)


def make(tmp_path: Path, **fields: object) -> Settings:
    """Settings that ignore any `.env` file."""
    return Settings(_env_file=None, data_dir=tmp_path, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fields",
    [
        {"database_url": "mysql://localhost/x"},
        {"storage_url": "ftp://example.com/files"},
        {"public_url": "example.com"},
        {"rate_limit_per_minute": 0},
        {"upload_max_size_mb": 0},
        {"workers": 0},
    ],
)
def test_nonsense_is_refused(tmp_path: Path, fields: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        make(tmp_path, **fields)


def test_defaults(tmp_path: Path) -> None:
    settings = make(tmp_path)
    assert settings.resolved_database_url == f"sqlite:///{(tmp_path / 'maproom.db').resolve()}"
    assert settings.resolved_storage_url == f"file://{(tmp_path / 'files').resolve()}"
    assert settings.rate_limit_per_minute == 300
    assert settings.upload_max_bytes == 50 * 1_048_576


def test_postgres_urls_use_psycopg(tmp_path: Path) -> None:
    for url in ("postgresql://u@h:5432/db", "postgres://u@h:5432/db"):
        resolved = make(tmp_path, database_url=url).resolved_database_url
        assert resolved == "postgresql+psycopg://u@h:5432/db"


def test_public_url_loses_its_trailing_slash(tmp_path: Path) -> None:
    assert make(tmp_path, public_url="https://maps.example.com/").public_url == (
        "https://maps.example.com"
    )


def test_upload_ceiling_by_keyword(tmp_path: Path) -> None:
    assert make(tmp_path, upload_max_size_mb=2).upload_max_bytes == 2_097_152


@pytest.mark.parametrize("variable", ["UPLOAD_MAX_SIZE_MB", "MAPROOM_UPLOAD_MAX_SIZE_MB"])
def test_upload_ceiling_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.setenv(variable, "3")
    assert make(tmp_path).upload_max_bytes == 3 * 1_048_576


def test_environment_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAPROOM_DATA_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("MAPROOM_RATE_LIMIT_PER_MINUTE", "7")
    settings = Settings(_env_file=None)
    assert settings.data_dir == tmp_path / "elsewhere"
    assert settings.rate_limit_per_minute == 7
