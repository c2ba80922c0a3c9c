"""A real HTTP server for what the tests fake at the wire (a model, a remote COG host): an
ASGI app under uvicorn on a free loopback port, in a thread of its own."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serving(app: Any, port: int | None = None, lifespan: str = "off") -> Iterator[str]:
    """Serve `app` until the block ends; yields its base URL (`http://127.0.0.1:PORT`).
    With `lifespan="on"` the server starts and stops the app itself (in its own thread's
    event loop)."""
    port = port or free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan=lifespan)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
