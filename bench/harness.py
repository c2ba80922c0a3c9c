"""What the benchmarks share: free ports, a started uvicorn server, a maproom with a key."""

from __future__ import annotations

import contextlib
import math
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

SERVER_FLAGS = ["--no-access-log", "--log-level", "warning", "--timeout-graceful-shutdown", "3"]


def tile_of(lng: float, lat: float, z: int) -> tuple[int, int]:
    """The Web Mercator tile (x, y) holding a point at zoom z."""
    n = 2**z
    lat = max(-85.05, min(85.05, lat))
    x = int((lng + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return min(x, n - 1), min(y, n - 1)


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


def create_key(env: dict[str, str], cwd: Path | None = None) -> str:
    """A new API key, made with the `maproom keys create` command (of the maproom in `cwd`)."""
    return subprocess.run(
        [sys.executable, "-m", "maproom.cli", "keys", "create", "--account", "bench@example.com"],
        env=env,
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


@contextlib.contextmanager
def maproom(env: dict[str, str], cwd: Path) -> Iterator[tuple[Server, str]]:
    """A started maproom server and a key for it."""
    key = create_key(env, cwd)
    with server(["maproom.app:app_from_env", "--factory"], env, cwd, free_port()) as started:
        yield started, key


def _status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise KeyError(field)


class PeakGrowth:
    """A process's peak RSS growth over a `with` block, in bytes, as `growth` (see module doc)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.growth = 0
        self.method = "VmHWM after clear_refs"
        self._stop = threading.Event()
        self._sampler: threading.Thread | None = None
        self._sampled_kb = 0

    def __enter__(self) -> PeakGrowth:
        self._before_kb = _status_kb(self.pid, "VmRSS")
        try:
            Path(f"/proc/{self.pid}/clear_refs").write_text("5")  # VmHWM := current RSS
        except OSError:
            self.method = "VmRSS sampled every 10 ms"
            self._sampled_kb = self._before_kb
            self._sampler = threading.Thread(target=self._sample, daemon=True)
            self._sampler.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.01):
            self._sampled_kb = max(self._sampled_kb, _status_kb(self.pid, "VmRSS"))

    def __exit__(self, *exc: object) -> None:
        if self._sampler is None:
            peak_kb = _status_kb(self.pid, "VmHWM")
        else:
            self._stop.set()
            self._sampler.join()
            peak_kb = max(self._sampled_kb, _status_kb(self.pid, "VmRSS"))
        self.growth = max(0, peak_kb - self._before_kb) * 1024


def serving_pid(process: subprocess.Popen[bytes]) -> int:
    """The pid of the process that serves: uvicorn itself, which must have no worker children."""
    pid = process.pid
    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if b"uvicorn" not in cmdline or (children.exists() and children.read_text().strip()):
        raise SystemExit(f"process {pid} is not a lone uvicorn worker: {cmdline}")
    return pid
