"""Reading a remote file by HTTP ranges, as GDAL wants it (rasterio's `opener=`), with the
connection in maproom's hands rather than GDAL's (CONTRACT.md 5 and 8):

- the host is resolved once (`urlpolicy.fetch_address`: public, or let through by
  `MAPROOM_FETCH_ALLOWLIST`) and the request goes to that address (the `Host` header and, for
  https, the TLS server name and certificate check stay the host's), so a second lookup cannot
  lead elsewhere;
- a redirect is followed only after its target passes the same check (five hops at most);
- every request has a timeout;
- what went wrong is kept (`RemoteFile.failure`) as a `BadGateway` or `GatewayTimeout`, since
  GDAL turns a Python exception raised inside its read into its own error and the cause is lost
  on the way out.

Reads go out in blocks of at least `BLOCK` bytes, and the last few blocks are kept: GDAL reads a
COG's header in many small pieces.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx
from rasterio.abc import FileContainer

from maproom.domain.urlpolicy import fetch_address
from maproom.errors import BadGateway, GatewayTimeout, MaproomError

BLOCK = 64 * 1024
KEPT_BLOCKS = 16
MAX_REDIRECTS = 5
MAX_READ = 64 * 1024 * 1024  # one read asks for no more than this


class RemoteFile(io.RawIOBase):
    """A read-only, seekable view of a remote file, fetched by ranges (see module doc)."""

    def __init__(
        self,
        url: str,
        *,
        allowlist: Iterable[str] = (),
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        super().__init__()
        self.allowlist = tuple(allowlist)
        self.failure: MaproomError | None = None
        self._client = httpx.Client(
            timeout=timeout, follow_redirects=False, transport=transport, trust_env=False
        )
        self._position = 0
        self._blocks: OrderedDict[int, bytes] = OrderedDict()
        try:
            self.url, self.size = self._locate(url)
        except BaseException:
            self._client.close()
            raise

    # --- the file interface -------------------------------------------------------------------

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self.size}[whence]
        self._position = max(0, base + offset)
        return self._position

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        wanted = min(len(view), self.size - self._position, MAX_READ)
        if wanted <= 0:
            return 0
        data = self._read(self._position, wanted)
        view[: len(data)] = data
        self._position += len(data)
        return len(data)

    def close(self) -> None:
        self._client.close()
        super().close()

    # --- HTTP -----------------------------------------------------------------------------------

    def _read(self, start: int, length: int) -> bytes:
        first, last = start // BLOCK, (start + length - 1) // BLOCK
        missing = [n for n in range(first, last + 1) if n not in self._blocks]
        if missing:
            lo, hi = missing[0] * BLOCK, min(self.size, (missing[-1] + 1) * BLOCK) - 1
            body = self._get(self.url, lo, hi)
            for n in range(missing[0], missing[-1] + 1):
                self._blocks[n] = body[(n - missing[0]) * BLOCK : (n - missing[0] + 1) * BLOCK]
            while len(self._blocks) > max(KEPT_BLOCKS, last - first + 1):
                self._blocks.popitem(last=False)
        joined = b"".join(self._blocks[n] for n in range(first, last + 1))
        offset = start - first * BLOCK
        return joined[offset : offset + length]

    def _locate(self, url: str) -> tuple[str, int]:
        """Follow checked redirects to the file; its final URL and size."""
        for _ in range(MAX_REDIRECTS + 1):
            response = self._send(url, 0, 0)
            if response.is_redirect:
                location = response.headers.get("location")
                if not location:
                    raise self._fail(BadGateway("The remote source redirected nowhere"))
                url = urljoin(url, location)
                continue
            if response.status_code == 206:
                total = response.headers.get("content-range", "").rpartition("/")[2]
                if total.isdigit():
                    return url, int(total)
            if response.status_code == 200:  # no ranges: GDAL cannot read it efficiently
                raise self._fail(
                    BadGateway("The remote source does not serve byte ranges, which a COG needs")
                )
            raise self._fail(BadGateway(f"The remote source answered {response.status_code}"))
        raise self._fail(
            BadGateway(f"The remote source redirected more than {MAX_REDIRECTS} times")
        )

    def _get(self, url: str, first: int, last: int) -> bytes:
        response = self._send(url, first, last)
        if response.status_code != 206:
            raise self._fail(
                BadGateway(f"The remote source answered {response.status_code} to a range read")
            )
        return response.content

    def _send(self, url: str, first: int, last: int) -> httpx.Response:
        """One range request to the checked address of `url`'s host."""
        try:
            address = fetch_address(url, self.allowlist)
        except MaproomError as error:
            raise self._fail(error) from None
        parts = urlsplit(url)
        host = f"[{address}]" if address.version == 6 else str(address)
        netloc = host if parts.port is None else f"{host}:{parts.port}"
        pinned = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
        headers = {"Host": parts.netloc.rsplit("@", 1)[-1], "Range": f"bytes={first}-{last}"}
        extensions = {"sni_hostname": parts.hostname} if parts.scheme == "https" else {}
        try:
            request = self._client.build_request(
                "GET", pinned, headers=headers, extensions=extensions
            )
            response = self._client.send(request)
            response.read()
        except httpx.TimeoutException:
            raise self._fail(GatewayTimeout("The remote source did not answer in time")) from None
        except httpx.HTTPError as exc:
            raise self._fail(
                BadGateway(f"The remote source could not be reached ({type(exc).__name__})")
            ) from None
        return response

    def _fail(self, error: MaproomError) -> MaproomError:
        self.failure = error
        return error


class RemoteOpener(FileContainer):  # type: ignore[misc]  # rasterio ships no types
    """What `rasterio.open(url, opener=...)` reads one remote file through (rasterio's
    `FileContainer`): the file itself by `RemoteFile`; no other path exists (GDAL's look for
    sidecar files, `.aux.xml`, `.msk`, costs no request). What went wrong is in `failure`."""

    def __init__(
        self,
        url: str,
        allowlist: Iterable[str] = (),
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url = url
        self.allowlist, self.timeout, self.transport = tuple(allowlist), timeout, transport
        self.opened: list[RemoteFile] = []
        self._failure: MaproomError | None = None
        self._size: int | None = None

    def open(self, path: str, mode: str = "rb", **kwargs: Any) -> RemoteFile:
        """The remote file (only `url` exists)."""
        if str(path) != self.url:
            raise FileNotFoundError(path)
        try:
            remote = RemoteFile(
                self.url, allowlist=self.allowlist, timeout=self.timeout, transport=self.transport
            )
        except MaproomError as error:
            self._failure = error
            raise OSError(error.message) from None
        self.opened.append(remote)
        self._size = remote.size
        return remote

    def isfile(self, path: str) -> bool:
        return str(path) == self.url

    def isdir(self, path: str) -> bool:
        return False

    def ls(self, path: str) -> list[str]:
        return []

    def mtime(self, path: str) -> int:
        return 0

    def size(self, path: str) -> int:
        if self._size is None:
            self.open(path).close()
        return self._size or 0

    def rm(self, path: str) -> None:
        raise PermissionError(path)

    @property
    def failure(self) -> MaproomError | None:
        """The first thing that went wrong, if anything did."""
        return self._failure or next((f.failure for f in self.opened if f.failure), None)

    def close(self) -> None:
        """Close every file opened."""
        for remote in self.opened:
            remote.close()
