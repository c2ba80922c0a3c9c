"""Benchmark: live-stream fan-out to 1,000 and 5,000 SSE subscribers, against two bare baselines.

Three servers, each one uvicorn worker, measured one after the other in this run:

- maproom: N viewers on `/live/{token}/events` of one project; each change is a
  `PATCH /api/v1/sessions/{id}` whose title carries the send time (it reaches the stream as a
  `project` event through the event log, the commit hook and the hub);
- sse-starlette: an `EventSourceResponse` per client fed from its own queue (the library
  encodes every event once per client);
- raw frames: a `StreamingResponse` per client fed from its own queue with the bytes of one
  frame encoded once per event.

The client is one asyncio process reading raw sockets (it shares the two cores with the
server). Each of the 100 dispatches (one every 100 ms) carries its send time; the latency of
an event is receive time minus send time, over every subscriber. Memory per connection is the
server's RSS growth from before the first subscriber to all of them connected, divided by N.

    python bench/live.py [--subscribers 1000 5000] [--events 100]

Targets: at 1,000 subscribers maproom's p99 under 100 ms; at 5,000, p99 no worse than 1.2x the
raw-frame baseline, and under 40 KB of server memory per connection.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
from harness import free_port, maproom_env, server

BASELINES = """
import asyncio, time
from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse
from sse_starlette.sse import EventSourceResponse

app = FastAPI()
queues: set[asyncio.Queue] = set()


@app.get("/healthz")
async def healthz():
    return {"ok": True}


@app.post("/publish")
async def publish(request: Request):
    body = await request.body()
    if MODE == "raw":
        frame = b"event: tick\\ndata: " + body + b"\\n\\n"
        for q in queues:
            q.put_nowait(frame)
    else:
        text = body.decode()
        for q in queues:
            q.put_nowait(text)
    return {"ok": True}


@app.get("/events")
async def events(request: Request):
    q: asyncio.Queue = asyncio.Queue()
    queues.add(q)
    if MODE == "raw":
        async def raw():
            try:
                yield b": hello\\n\\n"
                while True:
                    yield await q.get()
            finally:
                queues.discard(q)
        return StreamingResponse(raw(), media_type="text/event-stream")

    async def gen():
        try:
            yield {"comment": "hello"}
            while True:
                yield {"event": "tick", "data": await q.get()}
        finally:
            queues.discard(q)
    return EventSourceResponse(gen(), ping=15)
"""


@dataclass
class Result:
    name: str
    subscribers: int
    p50_ms: float
    p99_ms: float
    kb_per_connection: float
    received: int


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise KeyError("VmRSS")


async def _subscriber(
    host: str,
    port: int,
    path: str,
    latencies: list[float],
    ready: asyncio.Event,
    counter: list[int],
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    await reader.readuntil(b"\r\n\r\n")
    counter[0] += 1
    if counter[0] == counter[1]:
        ready.set()
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            at = line.find(b"t=")
            if at >= 0 and line.startswith(b"data:"):
                end = at + 2
                while end < len(line) and (line[end : end + 1].isdigit() or line[end] == 46):
                    end += 1
                latencies.append(time.time() - float(line[at + 2 : end]))
    except (ConnectionError, asyncio.CancelledError):
        return
    finally:
        writer.close()


async def _run(
    name: str,
    base: str,
    pid: int | None,
    path: str,
    publish: httpx.AsyncClient,
    publish_request: tuple[str, str],
    body: str,
    n: int,
    events: int,
) -> Result:
    url = httpx.URL(base)
    latencies: list[float] = []
    ready = asyncio.Event()
    counter = [0, n]
    before = _rss_kb(pid) if pid else 0  # no pid: several processes serve, memory not read
    tasks = []
    for i in range(n):
        tasks.append(
            asyncio.create_task(
                _subscriber(url.host, url.port or 80, path, latencies, ready, counter)
            )
        )
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # let the server accept
    await asyncio.wait_for(ready.wait(), 120)
    await asyncio.sleep(1.0)
    after = _rss_kb(pid) if pid else 0
    method, target = publish_request
    for _ in range(events):
        stamp = f"t={time.time():.6f}"
        response = await publish.request(
            method,
            target,
            content=body.replace("STAMP", stamp),
            headers={"Content-Type": "application/json"},
        )
        response.raise_for_status()
        await asyncio.sleep(0.1)
    deadline = time.monotonic() + 30
    while len(latencies) < n * events and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    ordered = sorted(latencies) or [float("nan")]
    return Result(
        name=name,
        subscribers=n,
        p50_ms=statistics.median(ordered) * 1000,
        p99_ms=ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        kb_per_connection=(after - before) / n,
        received=len(latencies),
    )


@contextlib.contextmanager
def _baseline(workdir: Path, mode: str) -> Iterator[tuple[str, int]]:
    (workdir / f"baseline_{mode}.py").write_text(f"MODE = {mode!r}\n" + BASELINES)
    env = {**os.environ, "PYTHONPATH": str(workdir)}
    with server([f"baseline_{mode}:app"], env, workdir, free_port()) as started:
        yield started.base, started.process.pid


async def bench_baseline(workdir: Path, mode: str, n: int, events: int) -> Result:
    name = "raw frames" if mode == "raw" else "sse-starlette"
    with _baseline(workdir, mode) as (base, pid):
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            return await _run(
                name, base, pid, "/events", client, ("POST", "/publish"), "STAMP", n, events
            )


async def bench_maproom(workdir: Path, n: int, events: int) -> Result:
    from harness import maproom

    env = maproom_env(
        workdir / f"data-{n}",
        None,
        MAPROOM_RATE_LIMIT_PER_MINUTE="1000000",
        MAPROOM_PUBLIC_RATE_LIMIT_PER_MINUTE="1000000",  # every viewer comes from 127.0.0.1
    )
    with maproom(env, workdir) as (started, key):
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(base_url=started.base, headers=headers, timeout=30) as api:
            project = (await api.post("/api/v1/sessions", json={})).json()["id"]
            link = (await api.post(f"/api/v1/sessions/{project}/live-view-url")).json()
            path = httpx.URL(link["liveViewUrl"]).path + "/events"
            return await _run(
                "maproom",
                started.base,
                started.process.pid,
                path,
                api,
                ("PATCH", f"/api/v1/sessions/{project}"),
                '{"title": "STAMP"}',
                n,
                events,
            )


async def main_async(opts: argparse.Namespace) -> list[Result]:
    results = []
    with tempfile.TemporaryDirectory(prefix="maproom-live-") as tmp:
        workdir = Path(tmp)
        for n in opts.subscribers:
            results.append(await bench_maproom(workdir, n, opts.events))
            results.append(await bench_baseline(workdir, "sse", n, opts.events))
            results.append(await bench_baseline(workdir, "raw", n, opts.events))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--subscribers", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--events", type=int, default=100)
    opts = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    results = asyncio.run(main_async(opts))

    print(f"\n{'server':<16}{'subs':>6}{'p50 ms':>10}{'p99 ms':>10}{'KB/conn':>10}{'received':>12}")
    for r in results:
        print(
            f"{r.name:<16}{r.subscribers:>6}{r.p50_ms:>10.1f}{r.p99_ms:>10.1f}"
            f"{r.kb_per_connection:>10.1f}{r.received:>12}"
        )
    for n in opts.subscribers:
        ours = next(r for r in results if r.name == "maproom" and r.subscribers == n)
        raw = next(r for r in results if r.name == "raw frames" and r.subscribers == n)
        expected = n * opts.events
        ratio = ours.p99_ms / raw.p99_ms
        print(
            f"\n{n} subscribers: maproom p99 {ours.p99_ms:.0f} ms = {ratio:.2f}x raw frames; "
            f"{ours.kb_per_connection:.1f} KB/connection; "
            f"{ours.received}/{expected} events received"
        )
        if n <= 1000:
            print(f"  target p99 < 100 ms: {'PASS' if ours.p99_ms < 100 else 'FAIL'}")
        else:
            ok = ours.p99_ms <= 1.2 * raw.p99_ms
            print(f"  target p99 <= 1.2x raw frames: {'PASS' if ok else 'FAIL'}")
            print(
                f"  target < 40 KB/connection: {'PASS' if ours.kb_per_connection < 40 else 'FAIL'}"
            )


if __name__ == "__main__":
    main()
