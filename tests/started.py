"""A maproom started as people start it (`maproom serve` in a process of its own), with a key,
for tests that measure the process (its peak memory) or stop it hard (`kill -9`)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.serving import free_port

MB = 1_048_576
CLI = [sys.executable, "-m", "maproom.cli"]


@dataclass
class Server:
    """A started `maproom serve`: its base URL, process, key and log."""

    base: str
    process: subprocess.Popen[bytes]
    key: str
    log: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def pid(self) -> int:
        """The serving process."""
        return self.process.pid

    def reset_peak(self) -> int:
        """Reset the process's peak resident memory to what it uses now; that, in bytes."""
        Path(f"/proc/{self.pid}/clear_refs").write_text("5")
        return self._status("VmRSS")

    def peak(self) -> int:
        """The process's peak resident memory since the last reset, in bytes."""
        return self._status("VmHWM")

    def _status(self, name: str) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1]) * 1024
        raise AssertionError(f"no {name} for process {self.pid}")

    def client(self, timeout: float = 300) -> httpx.Client:
        """An HTTP client sending the server's key."""
        headers = {"Authorization": f"Bearer {self.key}"}
        return httpx.Client(base_url=self.base, headers=headers, timeout=timeout)

    def kill(self) -> None:
        """Stop the process at once, as a crash would (`kill -9`)."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    @property
    def env_dir(self) -> Path:
        """The server's data dir."""
        return Path(self.env["MAPROOM_DATA_DIR"])

    def log_text(self) -> str:
        """What the server has logged so far."""
        return self.log.read_text(errors="replace")


def environment(data_dir: Path, settings: dict[str, str]) -> dict[str, str]:
    """This process's environment without maproom settings, plus the data dir and `settings`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAPROOM_")}
    return env | {"MAPROOM_DATA_DIR": str(data_dir)} | settings


def make_key(env: dict[str, str], email: str = "owner@example.com") -> str:
    """A key made with `maproom keys create` on the server's settings."""
    made = subprocess.run([*CLI, "keys", "create", "--account", email], env=env,
                          capture_output=True, text=True, check=True, timeout=120)  # fmt: skip
    return made.stdout.strip()


@contextlib.contextmanager
def started(data_dir: Path, **settings: str) -> Iterator[Server]:
    """`maproom serve` on `data_dir` with these settings (environment names), ready (`/readyz`
    answers 200) and with a key; stopped at the end unless already killed."""
    data_dir.mkdir(parents=True, exist_ok=True)
    env = environment(data_dir, settings)
    key = make_key(env)
    port = free_port()
    log = data_dir.parent / f"{data_dir.name}-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen([*CLI, "serve", "--port", str(port), "--no-access-log"],
                                   env=env, stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
    server = Server(f"http://127.0.0.1:{port}", process, key, log, env)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"the server exited:\n{server.log_text()}"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{server.base}/readyz", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, f"the server did not start:\n{server.log_text()}"
            time.sleep(0.05)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
