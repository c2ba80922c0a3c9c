"""Files handed to `upload`: opened when given a path, read in chunks as the request is sent,
with the bytes sent so far reported to a progress callback."""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

Progress = Callable[[int, int | None], None]  # (bytes sent, total bytes or None)


class Counted(io.RawIOBase):
    """A binary file whose reads are counted and reported.

    `httpx` streams multipart bodies by reading the file in chunks; its length comes from
    `seek`/`tell`, so a file that can seek is sent with a `Content-Length` and, when a retry
    is needed, sent again from the start (the count starts over too)."""

    def __init__(self, inner: IO[bytes], progress: Progress | None) -> None:
        super().__init__()
        self.inner = inner
        self.progress = progress
        self.sent = 0
        self.total = _size(inner)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self.total is not None

    def read(self, size: int = -1) -> bytes:
        chunk = self.inner.read(size)
        self.sent += len(chunk)
        if self.progress is not None and chunk:
            self.progress(self.sent, self.total)
        return chunk

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        position = self.inner.seek(offset, whence)
        if whence == os.SEEK_SET and offset == 0:
            self.sent = 0
        return position

    def tell(self) -> int:
        return self.inner.tell()


def _size(stream: IO[bytes]) -> int | None:
    try:
        start = stream.tell()
        end = stream.seek(0, os.SEEK_END)  # the whole file is sent, from its start
        stream.seek(start)
        return end
    except (AttributeError, OSError, ValueError):
        return None


@contextlib.contextmanager
def opened(
    file: str | Path | IO[bytes], file_name: str | None, progress: Progress | None
) -> Iterator[tuple[IO[bytes], str, bool]]:
    """The stream to send, the file name the service sees (its extension picks the
    converter), and whether the body can be sent again."""
    if isinstance(file, str | Path):
        path = Path(file)
        with path.open("rb") as handle:
            counted = Counted(handle, progress)
            yield counted, file_name or path.name, True  # type: ignore[misc]
        return
    name = file_name or Path(str(getattr(file, "name", "") or "")).name
    if not name:
        raise ValueError("upload() needs a file_name for a file object without a name")
    counted = Counted(file, progress)
    yield counted, name, counted.seekable()  # type: ignore[misc]
