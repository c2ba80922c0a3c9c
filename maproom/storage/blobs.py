"""The blob store: where file bytes live, behind a small interface chosen by URL.

`LocalBlobStore` (`file://` URLs, the default) keeps each blob as a file under one folder.
Blobs are written whole or not at all: bytes go to a temporary file in the same folder and are
renamed into place, so a crash or a rejected upload never leaves a partial or orphan blob. An
S3 implementation fills the same interface later.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol
from urllib.parse import urlparse

CHUNK = 1024 * 1024


class BlobStore(Protocol):
    """Named byte blobs."""

    def put_file(self, key: str, source: Path) -> int:
        """Store the file's bytes under `key` (atomically), consuming `source`; return its size."""
        ...

    def put_bytes(self, key: str, data: bytes) -> int:
        """Store bytes under `key` (atomically); return their size."""
        ...

    def local_path(self, key: str) -> Path:
        """A local file holding the blob (for readers that need a path, e.g. GDAL)."""
        ...

    def size(self, key: str) -> int:
        """The blob's size in bytes."""
        ...

    def read_range(self, key: str, start: int, end: int) -> Iterator[bytes]:
        """The bytes `start..end` (inclusive) in chunks."""
        ...

    def copy(self, source: str, target: str) -> None:
        """Store the blob `source` again under `target`."""
        ...

    def delete(self, key: str) -> None:
        """Remove the blob if it exists."""
        ...

    def delete_prefix(self, prefix: str) -> None:
        """Remove every blob whose key starts with `prefix/`."""
        ...

    def scratch_dir(self) -> Path:
        """A folder for temporary files on the same filesystem as the blobs."""
        ...

    def ping(self) -> None:
        """Raise if the store cannot be used."""
        ...


class LocalBlobStore:
    """Blobs as files under one folder; keys are relative paths of safe segments."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._tmp = self.root / ".tmp"

    def _path(self, key: str) -> Path:
        parts = key.split("/")
        if not key or any(p in ("", ".", "..") or p.startswith(".") for p in parts):
            raise ValueError(f"invalid blob key {key!r}")
        return self.root.joinpath(*parts)

    def scratch_dir(self) -> Path:
        """A folder for temporary files, on the blobs' filesystem so renames are atomic."""
        self._tmp.mkdir(parents=True, exist_ok=True)
        return self._tmp

    def put_file(self, key: str, source: Path) -> int:
        """Move (or copy, across filesystems) a file into place under `key`."""
        target = self._path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        size = source.stat().st_size
        try:
            os.replace(source, target)
        except OSError:  # another filesystem: copy beside the target, then rename
            self._copy_into_place(source, target)
            source.unlink(missing_ok=True)
        return size

    def _copy_into_place(self, source: Path, target: Path) -> None:
        with (
            tempfile.NamedTemporaryFile(dir=self.scratch_dir(), delete=False) as tmp,
            source.open("rb") as src,
        ):
            shutil.copyfileobj(src, tmp, CHUNK)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp.name, target)

    def put_bytes(self, key: str, data: bytes) -> int:
        """Write bytes to a temporary file, then rename it into place."""
        with tempfile.NamedTemporaryFile(dir=self.scratch_dir(), delete=False) as tmp:
            tmp.write(data)
        return self.put_file(key, Path(tmp.name))

    def local_path(self, key: str) -> Path:
        """The blob's own file."""
        return self._path(key)

    def size(self, key: str) -> int:
        """The blob's size in bytes."""
        return self._path(key).stat().st_size

    def read_range(self, key: str, start: int, end: int) -> Iterator[bytes]:
        """Read bytes `start..end` inclusive, a chunk at a time."""
        with self._path(key).open("rb") as f:
            f.seek(start)
            left = end - start + 1
            while left > 0:
                chunk = f.read(min(CHUNK, left))
                if not chunk:
                    break
                left -= len(chunk)
                yield chunk

    def copy(self, source: str, target: str) -> None:
        """A hard link when the filesystem allows (blobs never change in place), else a copy."""
        src, dst = self._path(source), self._path(target)
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dst)
        except OSError:
            self._copy_into_place(src, dst)

    def delete(self, key: str) -> None:
        """Remove a blob (and nothing else)."""
        self._path(key).unlink(missing_ok=True)

    def delete_prefix(self, prefix: str) -> None:
        """Remove every blob under a folder-like prefix."""
        shutil.rmtree(self._path(prefix), ignore_errors=True)

    def ping(self) -> None:
        """The folder exists and is writable."""
        self.scratch_dir()
        with tempfile.NamedTemporaryFile(dir=self._tmp):
            pass


def open_store(url: str) -> LocalBlobStore:
    """The blob store a `MAPROOM_STORAGE_URL` names."""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return LocalBlobStore(Path(parsed.path))
    raise ValueError(f"unsupported storage URL {url!r} (only file:// in this release)")
