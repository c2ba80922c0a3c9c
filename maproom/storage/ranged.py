"""Files read by byte ranges, as GDAL reads them through rasterio's `opener=`: a remote COG
over HTTP (`maproom.adapters.remote`) and a stored COG in S3-compatible storage
(`maproom.storage.s3`), so that a tile costs a few small reads, not a copy of the file.

Reads go out in blocks of at least `BLOCK` bytes and the last few blocks are kept: GDAL reads
a COG's header in many small pieces.

A read that fails never raises into GDAL: an exception raised through rasterio's opener
aborts the whole process (`std::length_error` from GDAL's C++), so the error is kept in
`error` and GDAL is told the file ended; the caller raises the kept error once GDAL gives up.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from rasterio.abc import FileContainer

BLOCK = 64 * 1024
KEPT_BLOCKS = 16
MAX_READ = 64 * 1024 * 1024  # one read asks for no more than this


class RangedFile(io.RawIOBase):
    """A read-only, seekable file of `size` bytes whose blocks come from `fetch(first, last)`
    (bytes `first..last` inclusive, from wherever the file lives)."""

    def __init__(self, size: int, fetch: Callable[[int, int], bytes]) -> None:
        super().__init__()
        self.size = size
        self.fetch = fetch
        self._position = 0
        self._blocks: OrderedDict[int, bytes] = OrderedDict()
        self.error: Exception | None = None

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
        if wanted <= 0 or self.error is not None:
            return 0
        try:
            data = self._read(self._position, wanted)
        except Exception as exc:  # see the module docstring
            self.error = exc
            return 0
        view[: len(data)] = data
        self._position += len(data)
        return len(data)

    def _read(self, start: int, length: int) -> bytes:
        first, last = start // BLOCK, (start + length - 1) // BLOCK
        missing = [n for n in range(first, last + 1) if n not in self._blocks]
        if missing:
            lo, hi = missing[0] * BLOCK, min(self.size, (missing[-1] + 1) * BLOCK) - 1
            body = self.fetch(lo, hi)
            for n in range(missing[0], missing[-1] + 1):
                self._blocks[n] = body[(n - missing[0]) * BLOCK : (n - missing[0] + 1) * BLOCK]
            while len(self._blocks) > max(KEPT_BLOCKS, last - first + 1):
                self._blocks.popitem(last=False)
        joined = b"".join(self._blocks[n] for n in range(first, last + 1))
        offset = start - first * BLOCK
        return joined[offset : offset + length]


class OneFile(FileContainer):  # type: ignore[misc]  # rasterio ships no types
    """What `rasterio.open(path, opener=...)` reads one file through (rasterio's
    `FileContainer`): `path` opened by `make`; no other path exists (GDAL's look for sidecar
    files, `.aux.xml`, `.msk`, costs no read)."""

    def __init__(self, path: str, make: Callable[[], RangedFile]) -> None:
        self.path = path
        self.make = make
        self.opened: list[RangedFile] = []
        self._size: int | None = None

    def open(self, path: str, mode: str = "rb", **kwargs: Any) -> RangedFile:
        if str(path) != self.path:
            raise FileNotFoundError(path)
        opened = self.make()
        self.opened.append(opened)
        self._size = opened.size
        return opened

    def isfile(self, path: str) -> bool:
        return str(path) == self.path

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
    def error(self) -> Exception | None:
        """The first read that failed in a file opened, if one did."""
        return next((f.error for f in self.opened if f.error is not None), None)

    def close(self) -> None:
        """Close every file opened."""
        for opened in self.opened:
            opened.close()
