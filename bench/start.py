"""A fast start and a light client (docs/performance.md).

- *start*: `maproom serve` on a fresh data folder, timed from the command to the first 200 of
  `/healthz`, and the process's resident memory two seconds later (before any request but the
  health checks). Target: under 2 s and under 150 MB;
- *help*: `maproom --help`, wall time. Target: under 0.5 s;
- *client command*: `maproom projects list` against that server, wall time. Target: under
  0.5 s;
- *client import*: `python -c "import maproom.client"`, wall time, and whether it loaded any
  server module (SQLAlchemy, numpy, DuckDB, rasterio, FastAPI). Target: none.

Each figure is the median of `--rounds` runs (default 5), each in a fresh process, beside its
peer measured the same way in the same round:

- start: a bare FastAPI app with one `/healthz` route under the same uvicorn;
- help: `uvicorn --help` (a Click command line in the same environment);
- client command: the same `GET /api/v1/sessions` made by a script of bare httpx;
- client import: `import httpx` (what the client is built on).

    python bench/start.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import free_port

CLI = [sys.executable, "-m", "maproom.cli"]
SERVER_MODULES = ("sqlalchemy", "numpy", "duckdb", "rasterio", "fastapi")
MB = 1_048_576


def environment(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAPROOM_")}
    return env | {"MAPROOM_DATA_DIR": str(data)}


BARE_APP = """
from fastapi import FastAPI

app = FastAPI()


@app.get("/healthz")
async def healthz() -> dict:
    return {"status": "ok"}
"""


def start(data: Path, bare: bool = False) -> tuple[float, int, subprocess.Popen[bytes], str]:
    """Seconds from `maproom serve` (or the bare app's uvicorn) to a 200 of /healthz,
    resident bytes 2 s later, the process and its URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    if bare:
        (data / "bare_app.py").write_text(BARE_APP)
        command = [sys.executable, "-m", "uvicorn", "bare_app:app", "--port", str(port),
                   "--no-access-log"]  # fmt: skip
    else:
        command = [*CLI, "serve", "--port", str(port), "--no-access-log"]
    began = time.perf_counter()
    process = subprocess.Popen(command, env=environment(data), cwd=data,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            sys.exit("maproom serve exited")
        time.sleep(0.01)
    seconds = time.perf_counter() - began
    time.sleep(2)
    status = Path(f"/proc/{process.pid}/status").read_text()
    resident = int(status.split("VmRSS:")[1].split()[0]) * 1024
    return seconds, resident, process, base


def timed(command: list[str], env: dict[str, str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    opts = parser.parse_args()
    starts, memory, helps, commands, imports = [], [], [], [], []
    peers: dict[str, list[float]] = {"start": [], "memory": [], "help": [], "command": [],
                                     "import": []}  # fmt: skip
    loaded: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="maproom-bench-") as tmp:
        for round_ in range(opts.rounds):
            data = Path(tmp) / f"data{round_}"
            env = environment(data)
            key = subprocess.run([*CLI, "keys", "create", "--account", "a@example.com"],
                                 env=env, check=True, capture_output=True,
                                 text=True).stdout.strip()  # fmt: skip
            seconds, resident, process, base = start(data)
            try:
                starts.append(seconds)
                memory.append(resident)
                helps.append(timed([*CLI, "--help"], env))
                client_env = env | {"MAPROOM_URL": base, "MAPROOM_KEY": key}
                commands.append(timed([*CLI, "projects", "list"], client_env))
                probe = (
                    "import time, sys; t = time.perf_counter(); import maproom.client; "
                    "print(time.perf_counter() - t); "
                    f"print(','.join(m for m in {SERVER_MODULES!r} if m in sys.modules))"
                )
                out = subprocess.run([sys.executable, "-c", probe], env=env, check=True,
                                     capture_output=True, text=True).stdout.split("\n")  # fmt: skip
                imports.append(float(out[0]))
                loaded |= {m for m in out[1].split(",") if m}
                bare_get = (
                    "import httpx, os; httpx.get(os.environ['MAPROOM_URL'] + '/api/v1/sessions',"
                    " headers={'Authorization': 'Bearer ' + os.environ['MAPROOM_KEY']})"
                    ".raise_for_status()"
                )
                peers["command"].append(timed([sys.executable, "-c", bare_get], client_env))
            finally:
                process.terminate()
                process.wait()
            data.mkdir(exist_ok=True)
            seconds, resident, process, _ = start(data, bare=True)
            process.terminate()
            process.wait()
            peers["start"].append(seconds)
            peers["memory"].append(resident)
            peers["help"].append(timed([sys.executable, "-m", "uvicorn", "--help"], env))
            probe = (
                "import time; t = time.perf_counter(); import httpx; print(time.perf_counter() - t)"
            )
            peers["import"].append(float(subprocess.run(
                [sys.executable, "-c", probe], env=env, check=True, capture_output=True,
                text=True).stdout))  # fmt: skip
    report(starts, memory, helps, commands, imports, loaded, peers)


def report(
    starts: list[float],
    memory: list[int],
    helps: list[float],
    commands: list[float],
    imports: list[float],
    loaded: set[str],
    peers: dict[str, list[float]],
) -> None:
    median = statistics.median
    print(f"\nmedians of {len(starts)} fresh processes each, the peer's beside\n")
    print(f"{'':34}{'maproom':>10}{'peer':>10}  peer; target")
    rows = [
        ("serve to /healthz 200", f"{median(starts):.2f} s", f"{median(peers['start']):.2f} s",
         "bare FastAPI app; < 2 s"),
        ("fresh server resident memory", f"{median(memory) / MB:.0f} MB",
         f"{median(peers['memory']) / MB:.0f} MB", "bare FastAPI app; < 150 MB"),
        ("maproom --help", f"{median(helps):.2f} s", f"{median(peers['help']):.2f} s",
         "uvicorn --help; < 0.5 s"),
        ("maproom projects list", f"{median(commands):.2f} s",
         f"{median(peers['command']):.2f} s", "the same GET with bare httpx; < 0.5 s"),
        ("import maproom.client", f"{median(imports):.2f} s", f"{median(peers['import']):.2f} s",
         "import httpx; no server module"),
    ]  # fmt: skip
    for name, ours, theirs, note in rows:
        print(f"{name:34}{ours:>10}{theirs:>10}  {note}")
    print(f"server modules loaded by import maproom.client: {', '.join(sorted(loaded)) or 'none'}")
    met = (median(starts) < 2 and median(memory) < 150 * MB and median(helps) < 0.5
           and median(commands) < 0.5 and not loaded)  # fmt: skip
    print(f"targets: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
