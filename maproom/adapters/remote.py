"""Reading a remote file by HTTP ranges, as GDAL wants it (rasterio's `opener=`), with the
connection in maproom's hands rather than GDAL's (docs/actions.md; docs/api-decisions.md):

- the host is resolved once (`urlpolicy.fetch_address`: public, or let through by
  `MAPROOM_FETCH_ALLOWLIST`) and the request goes to that address (the `Host` header and, for
  https, the TLS server name and certificate check stay the host's), so a second lookup cannot
  lead elsewhere;
- a redirect is followed only after its target passes the same check (five hops at most);
- every request has a timeout;
- every answer is bounded (docs/api-decisions.md, remote sources): its status is looked at
  before any of its body is read, a range read takes at most the bytes it asked for (an answer
  that says or turns out to be longer is cut off: 502), and no compressed answer is accepted,
  since a small gzip body can inflate without end (`Accept-Encoding: identity` is sent, and an
  answer with another `Content-Encoding` is 502);
- what went wrong is kept (`RemoteFile.failure`) as a `BadGateway` or `GatewayTimeout`, since
  GDAL turns a Python exception raised inside its read into its own error and the cause is lost
  on the way out.

Reads go in blocks, as for every ranged file (`maproom.storage.ranged`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx

from maproom.domain.urlpolicy import fetch_address
from maproom.errors import BadGateway, GatewayTimeout, MaproomError
from maproom.storage.ranged import OneFile, RangedFile

MAX_REDIRECTS = 5


class RemoteFile(RangedFile):
    """A read-only, seekable view of a remote file, fetched by ranges (see module doc)."""

    def __init__(
        self,
        url: str,
        *,
        allowlist: Iterable[str] = (),
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.allowlist = tuple(allowlist)
        self.failure: MaproomError | None = None
        self._client = httpx.Client(
            timeout=timeout, follow_redirects=False, transport=transport, trust_env=False
        )
        try:
            self.url, size = self._locate(url)
        except BaseException:
            self._client.close()
            raise
        super().__init__(size, lambda first, last: self._get(self.url, first, last))

    def close(self) -> None:
        self._client.close()
        super().close()

    def _locate(self, url: str) -> tuple[str, int]:
        """Follow checked redirects to the file; its final URL and size."""
        for _ in range(MAX_REDIRECTS + 1):
            response, _ = self._send(url, 0, 0)
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
        return self._send(url, first, last, body=True)[1]

    def _send(
        self, url: str, first: int, last: int, *, body: bool = False
    ) -> tuple[httpx.Response, bytes]:
        """One range request to the checked address of `url`'s host. With `body`, the answer
        must be the range (206) and its body is read, at most `last - first + 1` bytes;
        otherwise only its status and headers are (a redirect, or the size of the file)."""
        try:
            address = fetch_address(url, self.allowlist)
        except MaproomError as error:
            raise self._fail(error) from None
        parts = urlsplit(url)
        host = f"[{address}]" if address.version == 6 else str(address)
        netloc = host if parts.port is None else f"{host}:{parts.port}"
        pinned = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
        headers = {
            "Host": parts.netloc.rsplit("@", 1)[-1],
            "Range": f"bytes={first}-{last}",
            "Accept-Encoding": "identity",
        }
        extensions = {"sni_hostname": parts.hostname} if parts.scheme == "https" else {}
        try:
            request = self._client.build_request(
                "GET", pinned, headers=headers, extensions=extensions
            )
            response = self._client.send(request, stream=True)
            try:
                content = self._read_range(response, last - first + 1) if body else b""
            finally:
                response.close()
        except httpx.TimeoutException:
            raise self._fail(GatewayTimeout("The remote source did not answer in time")) from None
        except httpx.HTTPError as exc:
            raise self._fail(
                BadGateway(f"The remote source could not be reached ({type(exc).__name__})")
            ) from None
        return response, content

    def _read_range(self, response: httpx.Response, wanted: int) -> bytes:
        """A range answer's body, refusing anything but `wanted` bytes
        sent as they are (see the module docstring)."""
        if response.status_code != 206:
            raise self._fail(
                BadGateway(f"The remote source answered {response.status_code} to a range read")
            )
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise self._fail(
                BadGateway(f"The remote source answered a range read with {encoding} data")
            )
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > wanted:
            raise self._fail(self._too_long(wanted))
        chunks, size = [], 0
        try:
            for chunk in response.iter_raw():
                size += len(chunk)
                if size > wanted:
                    raise self._fail(self._too_long(wanted))
                chunks.append(chunk)
        except httpx.StreamConsumed:  # a transport that answered from memory (tests)
            chunks, size = [response.content], len(response.content)
            if size > wanted:
                raise self._fail(self._too_long(wanted)) from None
        return b"".join(chunks)

    @staticmethod
    def _too_long(wanted: int) -> BadGateway:
        return BadGateway(f"The remote source answered more than the {wanted} bytes asked for")

    def _fail(self, error: MaproomError) -> MaproomError:
        self.failure = error
        return error


class RemoteOpener(OneFile):
    """What `rasterio.open(url, opener=...)` reads one remote file through: `RemoteFile`.
    What went wrong is in `failure`."""

    def __init__(
        self,
        url: str,
        allowlist: Iterable[str] = (),
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        super().__init__(url, self._remote)
        self.allowlist, self.timeout, self.transport = tuple(allowlist), timeout, transport
        self._failure: MaproomError | None = None

    def _remote(self) -> RemoteFile:
        try:
            return RemoteFile(
                self.path, allowlist=self.allowlist, timeout=self.timeout, transport=self.transport
            )
        except MaproomError as error:
            self._failure = error
            raise OSError(error.message) from None

    @property
    def failure(self) -> MaproomError | None:
        """The first thing that went wrong, if anything did."""
        remote = (f.failure for f in self.opened if isinstance(f, RemoteFile) and f.failure)
        return self._failure or next(remote, None)


MAX_STYLE_BYTES = 4 * 1024 * 1024  # a basemap's MapLibre style


def fetcher(allowlist: tuple[str, ...], timeout: float) -> Callable[[str], bytes]:
    """What reads a networked basemap's style (`maproom.domain.basemaps`): the whole file, as
    every remote file is read (module docstring), at most `MAX_STYLE_BYTES`."""

    def fetch(url: str) -> bytes:
        with RemoteFile(url, allowlist=allowlist, timeout=timeout) as found:
            if found.size > MAX_STYLE_BYTES:
                raise BadGateway(f"The basemap style is larger than {MAX_STYLE_BYTES} bytes")
            return found.readall()

    return fetch
