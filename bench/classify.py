"""Benchmark: server-side classification of a 1,000,000-feature layer.

A seeded 1M-row CSV (`bench/ingest.py`'s table: `id,lat,lon,name,value,category`) is uploaded
to a maproom server (one uvicorn worker, embedded SQLite). Then the layer is classified through
the API:

    PUT /api/v1/sessions/{id}/layers/{layerId}/style
    {"renderer": {"type": "graduated", "field": "value", "method": "quantile", "classes": 7}}

timed until the answer (the computed ranges are checked), with the server's peak RSS growth
during the request (VmHWM after resetting it through /proc/<pid>/clear_refs). Each of
`--repeat` runs asks for a different class count, so the classes are computed every time.

The peer, measured in the same run, is what classifying costs without stored statistics: a
Python process that reads the stored layer whole (orjson) and takes the same quantiles with
NumPy, timed from start to answer, its peak RSS from GNU time. Targets: maproom answers in
under 2 s with server memory growth under 200 MB.

    python bench/classify.py [--rows 1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from harness import maproom, maproom_env
from ingest import MB, PeakGrowth, make_csv, serving_pid

PEER = """
import sys, orjson, numpy as np
document = orjson.loads(open(sys.argv[1], "rb").read())
values = np.array([f["properties"]["value"] for f in document["features"]], dtype=float)
cuts = np.quantile(values, [k / 7 for k in range(1, 7)])
print(len(values), cuts.round(2).tolist())
"""


def classify(client: httpx.Client, url: str, pid: int, classes: int) -> tuple[float, int]:
    """One classification request: seconds until the answer, server peak RSS growth."""
    body = {
        "renderer": {
            "type": "graduated",
            "field": "value",
            "method": "quantile",
            "classes": classes,
        }
    }
    with PeakGrowth(pid) as memory:
        start = time.perf_counter()
        response = client.put(url, json=body)
        seconds = time.perf_counter() - start
    response.raise_for_status()
    ranges = response.json()["renderer"]["ranges"]
    if len(ranges) != classes or ranges[-1]["to"] is not None:
        raise SystemExit(f"unexpected classes: {ranges}")
    return seconds, memory.growth


def peer(layer: Path, workdir: Path) -> tuple[float, int]:
    """The load-it-whole classifier: seconds and peak RSS (GNU time)."""
    script = workdir / "peer.py"
    script.write_text(PEER)
    rss = workdir / "peer.rss"
    start = time.perf_counter()
    subprocess.run(
        ["/usr/bin/time", "-f", "%M", "-o", str(rss), sys.executable, str(script), str(layer)],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start, int(rss.read_text().split()[-1]) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()
    if not Path("/usr/bin/time").exists():
        raise SystemExit("bench/classify.py needs GNU time (apt-get install -y time)")
    with tempfile.TemporaryDirectory(prefix="maproom-bench-") as tmp:
        workdir = Path(tmp)
        source = workdir / "points.csv"
        make_csv(source, opts.rows)
        source_mb = source.stat().st_size / MB
        env = maproom_env(
            workdir / "data",
            None,
            MAPROOM_RATE_LIMIT_PER_MINUTE="100000000",
            UPLOAD_MAX_SIZE_MB="200",
        )
        with maproom(env, workdir) as (started, key):
            pid = serving_pid(started.process)
            headers = {"Authorization": f"Bearer {key}"}
            with httpx.Client(base_url=started.base, headers=headers, timeout=600) as client:
                project = client.post("/api/v1/sessions", json={}).json()["id"]
                start = time.perf_counter()
                with source.open("rb") as stream:
                    uploaded = client.post(
                        f"/api/v1/sessions/{project}/files",
                        files={"file": (source.name, stream)},
                    )
                upload_seconds = time.perf_counter() - start
                uploaded.raise_for_status()
                layer = uploaded.json()["layer"]
                url = f"/api/v1/sessions/{project}/layers/{layer['layer_id']}/style"
                runs = [classify(client, url, pid, 7 - i % 2) for i in range(opts.repeat)]
        stored = next((workdir / "data" / "files" / "p" / project).glob("*/layer.geojson"))
        peer_seconds, peer_rss = peer(stored, workdir)
        shutil.rmtree(workdir / "data", ignore_errors=True)

    seconds = min(run[0] for run in runs)
    growth = max(run[1] for run in runs)
    print(
        f"\nclassify {layer['feature_count']:,} features (quantile, 7 classes), "
        f"{source_mb:.1f} MB CSV uploaded in {upload_seconds:.2f} s\n"
    )
    print(f"{'who':<44}{'seconds':>9}{'memory MB':>11}")
    print(f"{'maproom PUT .../style (server RSS growth)':<44}{seconds:>9.3f}{growth / MB:>11.1f}")
    print(f"{'load-whole peer: orjson + numpy (peak RSS)':<44}{peer_seconds:>9.3f}"
          f"{peer_rss / MB:>11.1f}")  # fmt: skip
    met = seconds < 2 and growth < 200 * MB
    print(
        f"\ntarget: under 2 s and under 200 MB growth -> {'met' if met else 'NOT met'} "
        f"({seconds:.3f} s, {growth / MB:.1f} MB; {peer_seconds / seconds:.0f}x faster than "
        "loading the layer whole)"
    )


if __name__ == "__main__":
    main()
