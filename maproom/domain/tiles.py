"""Serving layer tiles: which layers have which tiles, and the caches that make a second ask cheap.

Vector tiles (`.pbf`) come from a layer's GeoJSON through a `maproom.geo.tiles.VectorIndex`,
built once per layer file and kept in a small LRU; raster tiles (`.png`, `.webp`) are read from a
COG layer with rio-tiler. Every tile made is kept in a byte-bounded LRU keyed by the layer's data
file, which never changes once written (a new upload is a new file), so a cached tile cannot go
stale. The cache is per process: tiles are cheap to remake, so workers do not share it.

`TileCache.get` is a dictionary look-up, safe to call on the event loop; `make_vector` and
`make_raster` block (disk and CPU) and run in a worker thread.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from maproom.errors import NotFound
from maproom.geo.tiles import check_tile
from maproom.storage.blobs import BlobStore

FORMATS = {"pbf": "geojson", "png": "cog", "webp": "cog"}
MEDIA_TYPES = {
    "pbf": "application/vnd.mapbox-vector-tile",
    "png": "image/png",
    "webp": "image/webp",
}

TileKey = tuple[str, int, int, int, str]


def source_of(row: Any) -> str:
    """What a layer's tiles are cut from: its stored file, or a remote COG's URL."""
    return str(row.data_key or row.remote_url)


def check_request(row: Any, z: int, x: int, y: int, fmt: str) -> None:
    """NotFound unless the layer has tiles of this format and z/x/y names a tile."""
    wanted = FORMATS.get(fmt)
    if wanted is None or row.layer_type != wanted:
        kinds = "pbf" if row.layer_type == "geojson" else "png or webp"
        raise NotFound(f"This layer's tiles are .{kinds}")
    try:
        check_tile(z, x, y)
    except ValueError as exc:
        raise NotFound(f"{str(exc)[0].upper()}{str(exc)[1:]}") from None


class TileCache:
    """Recently made tiles (bounded in bytes) and vector indexes (bounded in count)."""

    def __init__(self, blobs: BlobStore, *, max_bytes: int = 64 << 20, max_indexes: int = 4):
        self.blobs = blobs
        self.max_bytes = max_bytes
        self.max_indexes = max_indexes
        self._tiles: OrderedDict[TileKey, bytes | None] = OrderedDict()
        self._size = 0
        self._indexes: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}

    def get(self, key: TileKey) -> tuple[bool, bytes | None]:
        """`(True, tile)` when cached (a tile may be `None`: empty); `(False, None)` otherwise."""
        with self._lock:
            if key not in self._tiles:
                return False, None
            self._tiles.move_to_end(key)
            return True, self._tiles[key]

    def make_vector(self, data_key: str, z: int, x: int, y: int) -> bytes:
        """Cut (and cache) one vector tile of a GeoJSON layer."""
        tile: bytes = self._index(data_key).tile(z, x, y, layer_name="layer")
        self._put((data_key, z, x, y, "pbf"), tile)
        return tile

    def make_raster(self, data_key: str, z: int, x: int, y: int, fmt: str) -> bytes | None:
        """Render (and cache) one raster tile of a COG layer; `None` outside the raster.

        `data_key` is a blob key, or the http(s) URL of a remote COG (already checked by
        `fetching.check_fetchable`), which GDAL reads by ranges."""
        from maproom.geo import tiles

        remote = data_key.startswith(("http://", "https://"))
        source = data_key if remote else self._path(data_key)
        tile = tiles.raster_tile(source, z, x, y, fmt=fmt)
        self._put((data_key, z, x, y, fmt), tile)
        return tile

    def _path(self, data_key: str) -> Path:
        return self.blobs.local_path(data_key)

    def _index(self, data_key: str) -> Any:
        from maproom.geo import tiles

        with self._lock:
            index = self._indexes.get(data_key)
            if index is not None:
                self._indexes.move_to_end(data_key)
                return index
            building = self._building.setdefault(data_key, threading.Lock())
        with building:  # one build per file, however many tiles ask at once
            with self._lock:
                index = self._indexes.get(data_key)
            if index is None:
                index = tiles.VectorIndex.build(self._path(data_key))
                with self._lock:
                    self._indexes[data_key] = index
                    while len(self._indexes) > self.max_indexes:
                        self._indexes.popitem(last=False)
                    self._building.pop(data_key, None)
            return index

    def _put(self, key: TileKey, tile: bytes | None) -> None:
        size = len(tile or b"")
        if size > self.max_bytes:
            return
        with self._lock:
            if key in self._tiles:
                return
            self._tiles[key] = tile
            self._size += size
            while self._size > self.max_bytes:
                _, dropped = self._tiles.popitem(last=False)
                self._size -= len(dropped or b"")
