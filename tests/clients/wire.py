"""What stands between a client and the service, faked at the wire: a TCP relay whose
connections can be cut (a worker dying, a network dropping), and an HTTP front that refuses
the first requests with 429 and `Retry-After` (a gateway's own limit) before passing requests on."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.serving import serving


class Relay:
    """Relays TCP connections from its own loopback port to `upstream` (`host`, `port`)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            with self.lock:
                self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def cut(self) -> None:
        """Drop every open connection, as a network failure would."""
        with self.lock:
            dropped, self.open = self.open, []
        for sock in dropped:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def close(self) -> None:
        self.listener.close()
        self.cut()


@contextlib.contextmanager
def relay(url: str) -> Iterator[Relay]:
    host, port = httpx.URL(url).host, httpx.URL(url).port
    assert port is not None
    r = Relay((host, port))
    try:
        yield r
    finally:
        r.close()


@contextlib.contextmanager
def refusing_front(upstream: str, refusals: int) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """An HTTP front answering the first `refusals` requests with 429 (`Retry-After: 1`) and
    passing the others to `upstream`; yields its URL and what it saw of each request."""
    seen: list[dict[str, Any]] = []

    async def front(request: Request) -> Response:
        body = await request.body()
        seen.append(
            {
                "method": request.method,
                "path": request.url.path,
                "idempotency_key": request.headers.get("idempotency-key"),
                "body": body,
            }
        )
        if len(seen) <= refusals:
            envelope = {"error": {"code": "rate_limited", "message": "slow down", "details": {}}}
            return JSONResponse(envelope, status_code=429, headers={"Retry-After": "1"})
        headers = {k: v for k, v in request.headers.items() if k.lower() != "host"}
        async with httpx.AsyncClient(base_url=upstream) as http:
            answer = await http.request(
                request.method, request.url.path, content=body, headers=headers
            )
        hop = {"content-length", "content-encoding", "transfer-encoding", "connection"}
        kept = {k: v for k, v in answer.headers.items() if k.lower() not in hop}
        return Response(answer.content, answer.status_code, headers=kept)

    app = Starlette(routes=[Route("/{path:path}", front, methods=["GET", "POST", "DELETE"])])
    with serving(app) as url:
        yield url, seen
