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

    def prefix_size(self, prefix: str) -> int:
        """The bytes of every blob whose key starts with `prefix/`."""
        ...

    def exists(self, key: str) -> bool:
        """Whether a blob is stored under `key`."""
        ...

    def scratch_dir(self) -> Path:
        """This process's folder for temporary files, on the same filesystem as the blobs."""
        ...

    def sweep_scratch(self) -> int:
        """Remove scratch files of processes that no longer run; how many entries went."""
        ...

    def free_bytes(self) -> int:
        """Free space where blobs are written."""
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
        """This process's folder for temporary files (`.tmp/<pid>`), on the blobs' filesystem
        so renames are atomic."""
        mine = self._tmp / str(os.getpid())
        mine.mkdir(parents=True, exist_ok=True)
        return mine

    def sweep_scratch(self) -> int:
        """Remove what processes that no longer run left in `.tmp` (a crash mid-upload);
        returns how many entries went. Live processes' folders are kept."""
        if not self._tmp.is_dir():
            return 0
        swept = 0
        for entry in self._tmp.iterdir():
            if entry.name.isdigit() and _alive(int(entry.name)):
                continue
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            swept += 1
        return swept

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
        return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())

    def ping(self) -> None:
        """The folder exists and is writable."""
        with tempfile.NamedTemporaryFile(dir=self.scratch_dir()):
            pass

    def free_bytes(self) -> int:
        """Free space on the store's file system."""
        self.root.mkdir(parents=True, exist_ok=True)
        return shutil.disk_usage(self.root).free


def _alive(pid: int) -> bool:
    """Whether a process of this id runs (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def open_store(url: str) -> LocalBlobStore:
    """The blob store a `MAPROOM_STORAGE_URL` names."""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return LocalBlobStore(Path(parsed.path))
    raise ValueError(f"unsupported storage URL {url!r} (only file:// in this release)")
