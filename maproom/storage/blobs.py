"""The blob store: where file bytes live, behind a small interface chosen by URL.

`LocalBlobStore` (`file://` URLs, the default) keeps each blob as a file under one folder;
`maproom.storage.s3.S3BlobStore` (`s3://bucket/prefix`) as an object in S3-compatible storage.
Blobs are written whole or not at all (a file renamed into place; an object visible only once
its upload completed), so a crash or a rejected upload never leaves a partial blob to serve.
Blobs never change once written: a new upload is a new key. Scratch files are not the store's
business (`maproom.storage.scratch`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlparse

from maproom.storage import scratch

if TYPE_CHECKING:
    from maproom.storage.ranged import OneFile

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

    def opener(self, key: str) -> OneFile | None:
        """A rasterio opener that reads the blob by ranges, or None where `local_path` is the
        blob itself (a local folder: no copy to avoid)."""
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

    def prefix_size(self, prefix: str) -> int:
        """The bytes of every blob whose key starts with `prefix/`."""
        ...

    def listing(self, prefix: str) -> Iterator[tuple[str, int, float]]:
        """`(key, size, modified)` of every blob under a folder-like prefix (`modified` in
        seconds since the epoch)."""
        ...

    def exists(self, key: str) -> bool:
        """Whether a blob is stored under `key`."""
        ...

    def free_bytes(self) -> int | None:
        """Free space where blobs are written (`None`: no set limit, as in object storage)."""
        ...

    def ping(self) -> None:
        """Raise if the store cannot be used."""
        ...


class LocalBlobStore:
    """Blobs as files under one folder; keys are relative paths of safe segments."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def _path(self, key: str) -> Path:
        return self.root.joinpath(*check_key(key).split("/"))

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
            tempfile.NamedTemporaryFile(dir=target.parent, prefix=".", delete=False) as tmp,
            source.open("rb") as src,
        ):
            shutil.copyfileobj(src, tmp, CHUNK)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp.name, target)

    def put_bytes(self, key: str, data: bytes) -> int:
        """Write bytes to a temporary file, then rename it into place."""
        with tempfile.NamedTemporaryFile(dir=scratch.folder(), delete=False) as tmp:
            tmp.write(data)
        return self.put_file(key, Path(tmp.name))

    def local_path(self, key: str) -> Path:
        """The blob's own file."""
        return self._path(key)

    def opener(self, key: str) -> None:
        """None: GDAL reads the blob's own file (`local_path`)."""
        return None

    def size(self, key: str) -> int:
        """The blob's size in bytes."""
        return self._path(key).stat().st_size

    def exists(self, key: str) -> bool:
        """Whether the blob's file is there."""
        return self._path(key).is_file()

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
            os.utime(dst)  # a new blob by its age (`domain/orphans.py` spares young ones)
        except OSError:
            self._copy_into_place(src, dst)

    def delete(self, key: str) -> None:
        """Remove a blob (and its folders, when that leaves them empty)."""
        path = self._path(key)
        path.unlink(missing_ok=True)
        for folder in path.parents:
            if folder == self.root or not folder.is_relative_to(self.root):
                break
            try:
                folder.rmdir()
            except OSError:  # not empty (or gone)
                break

    def delete_prefix(self, prefix: str) -> None:
        """Remove every blob under a folder-like prefix."""
        shutil.rmtree(self._path(prefix), ignore_errors=True)

    def prefix_size(self, prefix: str) -> int:
        """The bytes of the files under a folder-like prefix."""
        folder = self._path(prefix)
        if not folder.is_dir():
            return 0
        return sum(
            p.stat().st_size
            for p in folder.rglob("*")
            if p.is_file() and not p.name.startswith(".")
        )

    def listing(self, prefix: str) -> Iterator[tuple[str, int, float]]:
        """`(key, size, modified)` of every blob under a folder-like prefix."""
        folder = self._path(prefix)
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.name.startswith("."):  # a file on its way into place
                continue
            try:
                info = path.stat()
            except FileNotFoundError:
                continue
            if path.is_file():
                yield path.relative_to(self.root).as_posix(), info.st_size, info.st_mtime

    def ping(self) -> None:
        """The folder exists and is writable."""
        self.root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=self.root, prefix="."):
            pass

    def free_bytes(self) -> int:
        """Free space on the store's file system."""
        self.root.mkdir(parents=True, exist_ok=True)
        return shutil.disk_usage(self.root).free


def check_key(key: str) -> str:
    """A blob key: relative, of `/`-separated segments none of which is empty, `.`, `..` or
    starts with a dot (dot names are the stores' own, such as partial files)."""
    parts = key.split("/")
    if not key or any(p in ("", ".", "..") or p.startswith(".") for p in parts):
        raise ValueError(f"invalid blob key {key!r}")
    return key


def open_store(url: str, cache_bytes: int = 1 << 30) -> BlobStore:
    """The blob store a `MAPROOM_STORAGE_URL` names: `file://` or `s3://bucket/prefix` (whose
    local copies, for readers that need a file, are kept to `cache_bytes`)."""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return LocalBlobStore(Path(parsed.path))
    if parsed.scheme == "s3":
        from maproom.storage.s3 import S3BlobStore

        return S3BlobStore(parsed.netloc, parsed.path.strip("/"), cache_bytes=cache_bytes)
    raise ValueError(f"unsupported storage URL {url!r} (file:// or s3://)")
