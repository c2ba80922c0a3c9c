"""A hostile remote host on loopback, for the remote-read probes: each path answers a range
read the way a malicious or broken server would.

    /gzip.tif            206 with `Content-Encoding: gzip`: 1 MB that inflates to 1 GiB
    /gzip-chunked.tif    the same, chunked, without a Content-Length
    /ignores-range.tif   200 with the whole "file": 400 MB
    /too-long.tif        206 for the range asked, then 400 MB more, chunked
    /says-too-long.tif   206 whose Content-Length is 400 MB

Every answer claims a 1 GiB file (`Content-Range: bytes a-b/1073741824`). Requests are counted
per path in `hits`.
"""

from __future__ import annotations

import contextlib
import threading
import zlib
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GIB = 1 << 30
BIG = 400 * 1_048_576
_ZEROS = bytes(1 << 20)


def _gzip_bomb() -> bytes:
    """1 GiB of zeros, gzip-compressed (about 1 MB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [packer.compress(_ZEROS) for _ in range(GIB // len(_ZEROS))]
    return b"".join(parts) + packer.flush()


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def handle(self) -> None:
        with contextlib.suppress(ConnectionError):  # a reader that hangs up is expected
            super().handle()

    def do_GET(self) -> None:
        self.server.hits[self.path] += 1
        first, _, last = self.headers.get("Range", "bytes=0-0")[6:].partition("-")
        span = f"bytes {first}-{last}/{GIB}"
        try:
            if self.path.startswith("/gzip"):
                chunked = self.path == "/gzip-chunked.tif"
                self._start(206, {"Content-Range": span, "Content-Encoding": "gzip"},
                            None if chunked else len(self.server.bomb))  # fmt: skip
                self._body(self.server.bomb, chunked)
            elif self.path == "/ignores-range.tif":
                self._start(200, {}, BIG)
                self._zeros(BIG, chunked=False)
            elif self.path == "/too-long.tif":
                self._start(206, {"Content-Range": span}, None)
                self._zeros(int(last) - int(first) + 1 + BIG, chunked=True)
            elif self.path == "/says-too-long.tif":
                self._start(206, {"Content-Range": span}, BIG)
                self._zeros(BIG, chunked=False)
            else:
                self._start(404, {}, 0)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the reader gave up: what a bounded reader does

    def _start(self, status: int, headers: dict[str, str], length: int | None) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if length is None:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def _body(self, data: bytes, chunked: bool) -> None:
        for start in range(0, len(data), 65536):
            self._write(data[start : start + 65536], chunked)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    def _zeros(self, size: int, chunked: bool) -> None:
        while size > 0:
            piece = _ZEROS[: min(size, len(_ZEROS))]
            self._write(piece, chunked)
            size -= len(piece)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    def _write(self, data: bytes, chunked: bool) -> None:
        if chunked:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        else:
            self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    bomb: bytes
    hits: Counter[str]


@contextlib.contextmanager
def hostile_host() -> Iterator[tuple[str, Counter[str]]]:
    """The host on a free loopback port: its base URL and the hits per path."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.bomb, server.hits = _gzip_bomb(), Counter()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.hits
    finally:
        server.shutdown()
        server.server_close()
