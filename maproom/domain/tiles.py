"""Serving layer tiles: which layers have which tiles, and the caches that make a second ask cheap.

Vector tiles (`.pbf`) are cut from a layer's GeoJSON through its tile index
(`maproom.geo.tilestore`, built beside the GeoJSON), which reads only what a tile shows, so
serving a tile costs memory bounded whatever the layer's size. An upload's index is built in
the background right after the upload answers (`index_later`); any other layer's (inline
GeoJSON, layers stored before indexes, a crash mid-build) on its first tile; a tile asked
while its index is being built waits for it. `on_built` counts the index's bytes. Open stores
are kept in a small LRU (a few open file maps, no data). Raster tiles (`.png`, `.webp`) are
read from a COG layer with rio-tiler. Every tile made is kept in a byte-bounded LRU keyed by
the layer's data file, which never changes once written (a new upload is a new file), so a
cached tile cannot go stale. The cache is per process: tiles are cheap
to remake, and the same from every worker (they are cut from the same files, with no state).

`TileCache.get` is a dictionary look-up, safe to call on the event loop; `make_vector` and
`make_raster` block (disk and CPU) and run in a worker thread.
"""

from __future__ import annotations

import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from maproom import logs
from maproom.domain.layers import filter_tag
from maproom.errors import BadGateway, MaproomError, NotFound
from maproom.geo.base import TILES_NAME
from maproom.geo.filters import predicate
from maproom.geo.tiles import check_tile
from maproom.storage import scratch
from maproom.storage.blobs import BlobStore

FORMATS = {"pbf": "geojson", "png": "cog", "webp": "cog"}
MEDIA_TYPES = {
    "pbf": "application/vnd.mapbox-vector-tile",
    "png": "image/png",
    "webp": "image/webp",
}

TileKey = tuple[str, int, int, int, str]


class RemoteOpener(Protocol):
    """How rasterio reads a remote COG (`adapters.remote.RemoteOpener`): what went wrong is
    kept in `failure`."""

    failure: MaproomError | None

    def close(self) -> None: ...


RemoteOpeners = Callable[[str, tuple[str, ...], float], RemoteOpener]
"""Makes the opener of a remote COG: (its URL, the fetch allow-list, the timeout)."""


def _no_remote(url: str, allowlist: tuple[str, ...], timeout: float) -> RemoteOpener:
    raise BadGateway("This server reads no remote files")


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

    def __init__(
        self,
        blobs: BlobStore,
        *,
        remote: RemoteOpeners | None = None,
        max_bytes: int = 64 << 20,
        max_indexes: int = 16,
        on_built: Callable[[str, int], bool] | None = None,
    ):
        self.blobs = blobs
        self.remote = remote or _no_remote
        self.max_bytes = max_bytes
        self.max_indexes = max_indexes
        # (data key, bytes) once a tile index is stored: counts its bytes, and answers False
        # when the layer's file was deleted meanwhile (the index is then removed).
        self.on_built = on_built
        self._tiles: OrderedDict[TileKey, bytes | None] = OrderedDict()
        self._size = 0
        self._indexes: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}  # per layer: one index build at a time
        self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tile-index")

    def index_later(self, data_key: str) -> None:
        """Build a GeoJSON layer's tile index in the background (after its upload answered);
        a tile asked before it is done waits for it."""
        self._background.submit(self._safely_indexed, data_key)

    def settle(self) -> None:
        """Wait until the background builds asked for so far are done."""
        self._background.submit(lambda: None).result()

    def close(self) -> None:
        """Stop building indexes in the background (pending ones are built on demand later)."""
        self._background.shutdown(wait=False, cancel_futures=True)

    def get(self, key: TileKey) -> tuple[bool, bytes | None]:
        """`(True, tile)` when cached (a tile may be `None`: empty); `(False, None)` otherwise."""
        with self._lock:
            if key not in self._tiles:
                return False, None
            self._tiles.move_to_end(key)
            return True, self._tiles[key]

    def make_vector(
        self, data_key: str, z: int, x: int, y: int, where: dict[str, Any] | None = None
    ) -> bytes:
        """Cut (and cache) one vector tile of a GeoJSON layer: the features `where` (a style's
        filter) keeps."""
        keep = predicate(where)
        tile: bytes = self._index(data_key).tile(z, x, y, layer_name="layer", keep=keep)
        self._put((data_key, z, x, y, "pbf" + filter_tag(where)), tile)
        return tile

    def make_raster(
        self,
        data_key: str,
        z: int,
        x: int,
        y: int,
        fmt: str,
        *,
        allowlist: tuple[str, ...] = (),
        timeout: float = 10.0,
    ) -> bytes | None:
        """Render (and cache) one raster tile of a COG layer; `None` outside the raster.

        `data_key` is a blob key, or the http(s) URL of a remote COG, read by ranges through
        `remote` (`adapters.remote`: pinned to checked addresses, redirects checked, `timeout` per
        request): a remote source that fails or cannot be read is 502, one that does not
        answer in time 504, never a 500 (docs/actions.md)."""
        from maproom.geo import tiles

        if not data_key.startswith(("http://", "https://")):
            stored = self.blobs.opener(data_key)  # by ranges from object storage
            if stored is None:
                tile = tiles.raster_tile(self._path(data_key), z, x, y, fmt=fmt)
            else:
                try:
                    tile = tiles.raster_tile(data_key, z, x, y, fmt=fmt, opener=stored)
                except Exception:
                    if stored.error is not None:  # what made GDAL give up (storage.ranged)
                        raise stored.error from None
                    raise
                finally:
                    stored.close()
        else:
            from rasterio.errors import RasterioError

            opener = self.remote(data_key, allowlist, timeout)
            try:
                tile = tiles.raster_tile(data_key, z, x, y, fmt=fmt, opener=opener)
            except (RasterioError, MaproomError, OSError, ValueError) as exc:
                if opener.failure is not None:
                    raise opener.failure from None
                logs.detail("remote COG %s unreadable: %s", data_key, exc)
                raise BadGateway("The remote COG could not be read as a GeoTIFF") from None
            finally:
                opener.close()
        self._put((data_key, z, x, y, fmt), tile)
        return tile

    def _path(self, data_key: str) -> Path:
        return self.blobs.local_path(data_key)

    def _safely_indexed(self, data_key: str) -> None:
        try:
            self._tile_index(data_key)
        except Exception:  # the first tile tries again, and says what is wrong
            logs.log.exception("could not build the tile index of %s", data_key)

    def _tile_index(self, data_key: str) -> Path:
        """The layer's tile index file, built now unless it exists (or another thread is
        building it: then when it is done)."""
        from maproom.geo import tilestore

        key = f"{data_key.rsplit('/', 1)[0]}/{TILES_NAME}"
        with self._lock:
            building = self._building.setdefault(data_key, threading.Lock())
        with building:
            if not self.blobs.exists(key):
                with tempfile.TemporaryDirectory(dir=scratch.folder()) as work:
                    folder = Path(work)
                    records, count = tilestore.records_of(self._path(data_key), folder)
                    index = tilestore.build(records, count, folder / "index")
                    size = self.blobs.put_file(key, index)
                if self.on_built is not None and not self.on_built(data_key, size):
                    self.blobs.delete(key)  # the layer's file was deleted meanwhile
                    raise NotFound("This layer was deleted")
        return self.blobs.local_path(key)

    def _index(self, data_key: str) -> Any:
        from maproom.geo import tilestore

        with self._lock:
            index = self._indexes.get(data_key)
            if index is not None:
                self._indexes.move_to_end(data_key)
                return index
        index = tilestore.TileStore(self._tile_index(data_key), self._path(data_key))
        with self._lock:
            self._indexes[data_key] = index
            while len(self._indexes) > self.max_indexes:
                self._indexes.popitem(last=False)
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
