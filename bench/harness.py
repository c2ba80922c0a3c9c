"""What the benchmarks share: free ports, a started uvicorn server, a maproom with a key."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

SERVER_FLAGS = ["--no-access-log", "--log-level", "warning", "--timeout-graceful-shutdown", "3"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A started server: its base URL and its process (the one that serves: one worker)."""

    base: str
    process: subprocess.Popen[bytes]


@contextlib.contextmanager
def server(
    args: list[str], env: dict[str, str], cwd: Path, port: int, probe: str = "/healthz"
) -> Iterator[Server]:
    """Start a uvicorn server and wait until it answers."""
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", *args, "--port", str(port), *SERVER_FLAGS],
        env=env,
        cwd=cwd,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}{probe}", timeout=1)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("server did not start") from None
                time.sleep(0.1)
        yield Server(base, proc)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def maproom_env(data_dir: Path, database_url: str | None, **extra: str) -> dict[str, str]:
    """Environment of a maproom server on `data_dir` (and PostgreSQL when given)."""
    env = {**os.environ, "MAPROOM_DATA_DIR": str(data_dir), **extra}
    env.pop("MAPROOM_DATABASE_URL", None)
    if database_url:
        env["MAPROOM_DATABASE_URL"] = database_url
    return env


def create_key(env: dict[str, str]) -> str:
    """A new API key, made with the `maproom keys create` command."""
    return subprocess.run(
        [sys.executable, "-m", "maproom.cli", "keys", "create", "--account", "bench@example.com"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


@contextlib.contextmanager
def maproom(env: dict[str, str], cwd: Path) -> Iterator[tuple[Server, str]]:
    """A started maproom server and a key for it."""
    key = create_key(env)
    with server(["maproom.app:app_from_env", "--factory"], env, cwd, free_port()) as started:
        yield started, key
