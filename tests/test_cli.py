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
