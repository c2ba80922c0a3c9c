"""The `maproom keys create` command, run as a separate process against the test database."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from maproom.settings import Settings
from tests.support import assert_error, bearer

pytestmark = pytest.mark.anyio

KEY_LINE = re.compile(r"^mr_[A-Za-z0-9_-]{40,}\n$")


def run_cli(settings: Settings, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`maproom ARGS` in a fresh process whose environment names only the test's database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAPROOM_")}
    env["MAPROOM_DATA_DIR"] = str(settings.data_dir)
    if settings.database_url:
        env["MAPROOM_DATABASE_URL"] = settings.database_url
    return subprocess.run(
        [sys.executable, "-m", "maproom.cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def test_keys_create_prints_only_a_working_key(
    app: FastAPI, settings: Settings, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    result = run_cli(settings, tmp_path, "keys", "create", "--account", "a@example.com")
    assert result.returncode == 0, result.stderr
    assert KEY_LINE.match(result.stdout), result.stdout
    key = result.stdout.strip()

    response = await client.get("/api/v1/verify", headers=bearer(key))
    assert response.status_code == 200, response.text
    verified = response.json()
    assert verified["account"]["email"] == "a@example.com"
    assert verified["key"]["scopes"] == ["*"]
    assert verified["key"]["prefix"] == key[:11]
    created = await client.post("/api/v1/sessions", headers=bearer(key), json={})
    assert created.status_code == 201

    again = run_cli(settings, tmp_path, "keys", "create", "--account", "a@example.com")
    second = again.stdout.strip()
    assert second != key
    other = (await client.get("/api/v1/verify", headers=bearer(second))).json()
    assert other["account"]["id"] == verified["account"]["id"]


async def test_keys_create_with_scopes(
    app: FastAPI, settings: Settings, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    result = run_cli(
        settings,
        tmp_path,
        *("keys", "create", "--account", "b@example.com"),
        *("--name", "ci", "--scopes", "session, map"),
    )
    assert result.returncode == 0, result.stderr
    assert KEY_LINE.match(result.stdout), result.stdout
    key = bearer(result.stdout.strip())

    verified = (await client.get("/api/v1/verify", headers=key)).json()
    assert verified["key"]["scopes"] == ["session", "map"]
    assert verified["key"]["name"] == "ci"
    assert (await client.post("/api/v1/sessions", headers=key, json={})).status_code == 201
    error = assert_error(await client.get("/api/v1/api-keys", headers=key), 403, "forbidden")
    assert error["details"] == {"requiredScopes": ["keys"]}


@pytest.mark.parametrize(
    "args",
    [
        ("--account", "c@example.com", "--scopes", "session,admin"),
        ("--account", "not-an-email"),
    ],
)
async def test_keys_create_refuses_bad_input(
    app: FastAPI, settings: Settings, tmp_path: Path, args: tuple[str, ...]
) -> None:
    result = run_cli(settings, tmp_path, "keys", "create", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("maproom: ")


async def test_keys_create_says_which_database_it_wrote_to(
    app: FastAPI, settings: Settings, tmp_path: Path
) -> None:
    result = run_cli(settings, tmp_path, "keys", "create", "--account", "d@example.com")
    assert result.returncode == 0, result.stderr
    where = "postgresql" if settings.database_url else str(settings.data_dir.resolve())
    assert "d@example.com" in result.stderr and where in result.stderr
    assert "hunter" not in result.stderr  # no password, ever


async def test_data_dir_option_points_every_command_at_that_folder(
    app: FastAPI, settings: Settings, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # Run from another folder, with MAPROOM_DATA_DIR naming some third place: the option wins.
    stray = Settings(
        _env_file=None, data_dir=tmp_path / "stray", database_url=settings.database_url
    )
    made = run_cli(stray, elsewhere, "keys", "create", "--account", "e@example.com",
                   "--data-dir", str(settings.data_dir))  # fmt: skip
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    assert (await client.get("/api/v1/verify", headers=bearer(key))).status_code == 200
    assert not (tmp_path / "stray").exists()
    assert not (elsewhere / ".maproom").exists()

    listed = run_cli(stray, elsewhere, "keys", "list", "--data-dir", str(settings.data_dir))
    assert listed.returncode == 0, listed.stderr
    assert "e@example.com" in listed.stdout and key not in listed.stdout
    key_id = (await client.get("/api/v1/verify", headers=bearer(key))).json()["key"]["id"]
    assert key_id in listed.stdout

    revoked = run_cli(stray, elsewhere, "keys", "revoke", key_id,
                      "--data-dir", str(settings.data_dir))  # fmt: skip
    assert revoked.returncode == 0, revoked.stderr
    assert key_id in revoked.stderr
    app.state.services.authenticator.forget(key_id)  # this test's server caches keys
    assert_error(await client.get("/api/v1/verify", headers=bearer(key)), 401, "unauthorized")
    again = run_cli(stray, elsewhere, "keys", "revoke", key_id,
                    "--data-dir", str(settings.data_dir))  # fmt: skip
    assert again.returncode == 2 and again.stderr.startswith("maproom: ")


async def test_keys_list_of_one_account(app: FastAPI, settings: Settings, tmp_path: Path) -> None:
    for email in ("f@example.com", "g@example.com"):
        assert run_cli(settings, tmp_path, "keys", "create", "--account", email).returncode == 0
    listed = run_cli(settings, tmp_path, "keys", "list", "--account", "f@example.com")
    assert listed.returncode == 0, listed.stderr
    assert "f@example.com" in listed.stdout and "g@example.com" not in listed.stdout


def test_version(tmp_path: Path) -> None:
    from maproom import __version__

    result = subprocess.run(
        [sys.executable, "-m", "maproom.cli", "--version"],
        capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0
    assert result.stdout == f"maproom {__version__}\n"
