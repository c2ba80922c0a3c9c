"""Blobs as objects in S3-compatible storage (`MAPROOM_STORAGE_URL=s3://bucket/prefix`).

The endpoint, region and credentials come from the usual `AWS_*` variables (boto3 reads
`AWS_ENDPOINT_URL`, `AWS_DEFAULT_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`).

- Writes stream from a file: boto3's managed transfer sends a large file as a multipart upload
  of 16 MB parts, never whole in memory. An object is visible only once its upload completed,
  so no half-written blob is ever served.
- File content is served by ranged GETs, a chunk at a time.
- COG tiles read the object by ranges too (`opener`: GDAL reads through maproom's ranged file),
  in blocks of 64 KB kept in a bounded cache shared by the process (`CACHED_BLOCKS`: 32 MB):
  a tile costs a few small reads, and the header of a COG being viewed is read once.
- Readers that need a file (the vector tile index, field statistics) get a local
  copy from `local_path`: downloaded once (to a partial name, renamed when whole) into a cache
  folder under this process's scratch space, bounded to `cache_bytes` (least recently used
  copies go first; a copy used in the last minute is kept). Blobs never change once written, so
  a copy cannot go stale; it is only ever a copy: the scratch space of a process that stopped
  is swept at start.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from maproom.storage import scratch
from maproom.storage.blobs import CHUNK, check_key
from maproom.storage.ranged import BLOCK, OneFile, RangedFile

PART = 16 << 20
KEEP_SECONDS = 60.0
CACHED_BLOCKS = 512  # of BLOCK bytes: 32 MB
CACHED_SIZES = 4096


class S3BlobStore:
    """Blobs under `prefix/` in one bucket."""

    def __init__(
        self, bucket: str, prefix: str, *, cache_bytes: int = 1 << 30, client: Any = None
    ) -> None:
        import boto3
        from boto3.s3.transfer import TransferConfig
        from botocore.config import Config

        if not bucket:
            raise ValueError("MAPROOM_STORAGE_URL must name a bucket: s3://bucket/prefix")
        self.bucket = bucket
        self.prefix = f"{prefix}/" if prefix else ""
        self.client = client or boto3.client(
            "s3", config=Config(retries={"max_attempts": 3, "mode": "standard"})
        )
        self.transfer = TransferConfig(
            multipart_threshold=PART, multipart_chunksize=PART, max_concurrency=4
        )
        self.cache_bytes = cache_bytes
        self._cached: dict[str, tuple[Path, int, float]] = {}  # key -> (copy, size, last use)
        self._lock = threading.Lock()
        # Blocks read by ranges (blobs never change), and object sizes: bounded, shared by
        # every reader of this process.
        self._blocks: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._sizes: OrderedDict[str, int] = OrderedDict()

    def _name(self, key: str) -> str:
        return self.prefix + check_key(key)

    def put_file(self, key: str, source: Path) -> int:
        """Upload the file (multipart when large), then keep it as the local copy."""
        size = source.stat().st_size
        self.client.upload_file(str(source), self.bucket, self._name(key), Config=self.transfer)
        self._keep(key, source, size)
        return size

    def put_bytes(self, key: str, data: bytes) -> int:
        """One PUT."""
        self.client.put_object(Bucket=self.bucket, Key=self._name(key), Body=data)
        return len(data)

    def local_path(self, key: str) -> Path:
        """A local copy of the blob, downloaded on first use."""
        with self._lock:
            hit = self._cached.get(key)
            if hit is not None and hit[0].exists():
                self._cached[key] = (hit[0], hit[1], time.monotonic())
                return hit[0]
        folder = self._cache_dir()
        partial = folder / f".{os.urandom(8).hex()}"
        try:
            self.client.download_file(
                self.bucket, self._name(key), str(partial), Config=self.transfer
            )
        except Exception as exc:
            partial.unlink(missing_ok=True)
            if _missing(exc):
                raise FileNotFoundError(key) from None
            raise
        return self._keep(key, partial, partial.stat().st_size)

    def opener(self, key: str) -> OneFile:
        """A rasterio opener reading the blob by ranges (a COG's tile costs a few reads of
        `BLOCK`s, never a copy of the object); blocks are kept in `CACHED_BLOCKS`."""

        def fetch(first: int, last: int) -> bytes:
            return self.blocks(key, first // BLOCK, last // BLOCK)

        return OneFile(key, lambda: RangedFile(self._size_of(key), fetch))

    def blocks(self, key: str, first: int, last: int) -> bytes:
        """Blocks `first..last` of the blob (each `BLOCK` bytes, the last maybe fewer)."""
        with self._lock:
            kept = [self._blocks.get((key, n)) for n in range(first, last + 1)]
            for n in range(first, last + 1):
                if (key, n) in self._blocks:
                    self._blocks.move_to_end((key, n))
        if all(block is not None for block in kept):
            return b"".join(kept)  # type: ignore[arg-type]
        end = min((last + 1) * BLOCK, self._size_of(key)) - 1
        body = b"".join(self.read_range(key, first * BLOCK, end))
        with self._lock:
            for n in range(first, last + 1):
                start = (n - first) * BLOCK
                self._blocks[(key, n)] = body[start : start + BLOCK]
            while len(self._blocks) > CACHED_BLOCKS:
                self._blocks.popitem(last=False)
        return body

    def _size_of(self, key: str) -> int:
        with self._lock:
            size = self._sizes.get(key)
        if size is None:
            size = self.size(key)
            with self._lock:
                self._sizes[key] = size
                while len(self._sizes) > CACHED_SIZES:
                    self._sizes.popitem(last=False)
        return size

    def _cache_dir(self) -> Path:
        folder = scratch.folder() / "s3-cache"
        folder.mkdir(exist_ok=True)
        return folder

    def _keep(self, key: str, source: Path, size: int) -> Path:
        """Move a whole file into the cache as the copy of `key`, then trim the cache."""
        copy = self._cache_dir() / key.replace("/", "~")
        os.replace(source, copy)
        with self._lock:
            self._cached[key] = (copy, size, time.monotonic())
            self._trim()
        return copy

    def _trim(self) -> None:
        total = sum(size for _, size, _ in self._cached.values())
        now = time.monotonic()
        for key, (copy, size, used) in sorted(self._cached.items(), key=lambda kv: kv[1][2]):
            if total <= self.cache_bytes:
                break
            if now - used < KEEP_SECONDS:  # may be open in a reader right now
                continue
            copy.unlink(missing_ok=True)
            del self._cached[key]
            total -= size

    def size(self, key: str) -> int:
        """The object's size (a HEAD)."""
        try:
            head = self.client.head_object(Bucket=self.bucket, Key=self._name(key))
        except Exception as exc:
            if _missing(exc):
                raise FileNotFoundError(key) from None
            raise
        return int(head["ContentLength"])

    def exists(self, key: str) -> bool:
        """Whether the object is there."""
        try:
            self.size(key)
        except FileNotFoundError:
            return False
        return True

    def read_range(self, key: str, start: int, end: int) -> Iterator[bytes]:
        """Bytes `start..end` inclusive, by one ranged GET read a chunk at a time."""
        answer = self.client.get_object(
            Bucket=self.bucket, Key=self._name(key), Range=f"bytes={start}-{end}"
        )
        body = answer["Body"]
        try:
            yield from body.iter_chunks(CHUNK)
        finally:
            body.close()

    def copy(self, source: str, target: str) -> None:
        """A server-side copy (multipart for large objects)."""
        self.client.copy(
            {"Bucket": self.bucket, "Key": self._name(source)},
            self.bucket,
            self._name(target),
            Config=self.transfer,
        )

    def delete(self, key: str) -> None:
        """Remove the object (and its local copy)."""
        self.client.delete_object(Bucket=self.bucket, Key=self._name(key))
        self._forget([key])

    def delete_prefix(self, prefix: str) -> None:
        """Remove every object under `prefix/`, a thousand per request."""
        keys = [key for key, _ in self._listing(prefix)]
        for start in range(0, len(keys), 1000):
            batch = [{"Key": self._name(key)} for key in keys[start : start + 1000]]
            self.client.delete_objects(Bucket=self.bucket, Delete={"Objects": batch, "Quiet": True})
        self._forget(keys)

    def prefix_size(self, prefix: str) -> int:
        """The bytes of every object under `prefix/`."""
        return sum(size for _, size in self._listing(prefix))

    def listing(self, prefix: str) -> Iterator[tuple[str, int, float]]:
        """`(key, size, modified)` of every object under `prefix/`."""
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self._name(prefix) + "/"
        )
        for page in pages:
            for item in page.get("Contents", ()):
                modified = item["LastModified"].timestamp()
                yield item["Key"][len(self.prefix) :], int(item["Size"]), modified

    def _listing(self, prefix: str) -> Iterator[tuple[str, int]]:
        for key, size, _ in self.listing(prefix):
            yield key, size

    def _forget(self, keys: list[str]) -> None:
        with self._lock:
            for key in keys:
                hit = self._cached.pop(key, None)
                if hit is not None:
                    hit[0].unlink(missing_ok=True)

    def free_bytes(self) -> int | None:
        """Object storage sets no limit here."""
        return None

    def ping(self) -> None:
        """The bucket answers (a HEAD); raises OSError when it does not."""
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except Exception as exc:
            raise OSError(f"bucket {self.bucket} unreachable: {exc}") from None


def _missing(exc: Exception) -> bool:
    """Whether a boto3 error means the object does not exist."""
    response = getattr(exc, "response", None) or {}
    code = str(response.get("Error", {}).get("Code", ""))
    return code in ("404", "NoSuchKey", "NotFound")
