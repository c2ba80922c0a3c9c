"""Vector tiles in bounded memory, at every zoom: a spatial index over a layer's GeoJSON file.

A layer's GeoJSON (one feature per line, `base.feature_writer`) stays the layer's data; beside
it, `layer.tiles` indexes its features so that a tile reads only what it shows:

    build(records, count, out)       at conversion: from each feature's line and box
    TileStore(index, data).tile(z, x, y)   one Mapbox Vector Tile, reading by ranges

**What a tile holds (thinning).** Each feature gets a *first zoom* `mz`: the zoom from which
tiles show it. A tile is cut in cells of 8 by 8 pixels (64 by 64 cells of a 512-pixel tile);
at zoom z a feature shows if it is its cell's representative at some zoom <= z (the feature of
the cell with the smallest pseudo-random rank, so who stands for a crowd is spread evenly, not
the first in file order), or if it is big enough to be seen (a line or polygon at least one cell
across). From `FULL_ZOOM` + 1 on, every feature shows. So below that zoom a tile holds at most
about 5,500 features whatever the layer's size, evenly spread; at and above it a tile holds what
is there, thinned by stride over the spatially sorted records (even again) past
`MAX_CANDIDATES`, then one point per screen pixel and `MAX_TILE_FEATURES` at most. This is
tippecanoe's "drop densest as needed", decided once at ingest instead of per tile.

**Where a feature is filed.** Each feature is filed under a quadtree node: the smallest tile
(zoom <= 20) that contains its box (a point: its zoom-20 cell). Records are sorted by
`(mz, node)` with nodes in Z-order (Morton code of the node's top-left zoom-20 cell, then its
zoom), so for a tile and a first zoom, the features filed under the tile's own subtree are one
contiguous run of records, and those filed above it are one exact key per ancestor zoom: a
handful of binary searches. The 8 neighbouring tiles' runs are read too, for what reaches into
the tile's 64-pixel buffer.

**Heavy features.** A feature whose line passes `HEAVY_BYTES` (a polygon of thousands of
vertices) is not read from the GeoJSON file: at index time its geometry is projected once and
simplified for each even zoom up to `FULL_ZOOM` (half a pixel at that zoom, topology kept),
and the versions are stored in the index with its properties. A tile reads the version made
for its zoom, clips it and encodes it, so a polygon of a million vertices costs a tile about
what its outline at that zoom costs (a few thousand vertices), in time and in memory; from
`FULL_ZOOM` + 1 on, the whole geometry, clipped to the tile.

**The file.** `MRTILES1` magic, the record count, where each first zoom's records start, then
four columns: sort keys (u64), boxes in the Web Mercator unit square (4 x f32), the features'
byte offsets (u64) and lengths (u32) in the GeoJSON file (an offset with its top bit set points
into the heavy features' section instead, which follows the columns). The columns are
memory-mapped, so a tile touches a few pages of the index; feature bodies are read by offset
from the GeoJSON file (`os.pread`). Both files are local (an object store's are copied to
local disk first).

Why not FlatGeobuf (GDAL, via pyogrio): it indexes boxes but knows nothing of thinning, so a
zoom-0 tile of 2.7 M points would read all of them; and writing 1 M points took 3.5 s here,
against about 1 s for this index, beside the GeoJSON maproom writes anyway.
"""

from __future__ import annotations

import array
import math
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import shapely
import shapely.affinity
from numpy.typing import NDArray

from maproom.geo import mvt
from maproom.geo.tiles import check_tile

MAGIC = b"MRTILES1"
MAX_NODE_ZOOM = 20
CELL_BITS = 6  # 64 x 64 cells per tile: 8 x 8 pixels each at 512 pixels
FULL_ZOOM = MAX_NODE_ZOOM - CELL_BITS  # cells exist up to zoom 14; from 15 on, everything
LEVELS = FULL_ZOOM + 2  # first zooms 0..15
EXTENT = 4096
BUFFER = 64
POINT_CELL = 8  # tile units: one screen pixel of a 512-pixel tile
MAX_TILE_FEATURES = 50_000
MAX_CANDIDATES = 200_000  # records one tile considers at most (then thinned by stride)
MAX_LAT = 85.0511287798066
CHUNK = 1 << 16
FILTER_DEPTH = 4  # a filtered tile takes the features of cells this many zooms finer
HEAVY_BYTES = 64 * 1024  # a feature line longer than this is a heavy feature (docstring)
HEAVY_ZOOMS = tuple(range(0, FULL_ZOOM + 1, 2))
HEAVY_BIT = 1 << 63  # an offset with this bit set points into the heavy section
HEAVY_FLAG = np.uint64(HEAVY_BIT)


# --- at conversion: what each feature is and where ------------------------------------------


class Recorder:
    """Collects each written feature's WGS84 box and byte range, as six columns of float64
    (x0, y0, x1, y1, offset, length) in scratch files, spilled every `CHUNK` features (memory
    stays flat; an `array` append costs a fraction of a numpy row assignment)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(tempfile.mkdtemp(dir=folder, prefix=".records-"))
        self._files = [(self.folder / str(i)).open("wb") for i in range(6)]
        self._heavy = (self.folder / "heavy").open("wb")
        self._values = array.array("d")
        self.count = 0

    def add_heavy(self, box: tuple[float, float, float, float], entry: bytes) -> None:
        """A heavy feature: its entry goes to the heavy section; its offset is stored as
        `-1 - position` in that section (told apart from line offsets in `build`)."""
        position = self._heavy.tell()
        self._heavy.write(entry)
        self.add_box(box, -1 - position, len(entry))

    def add(self, offset: int, length: int, box: tuple[float, float, float, float] | None) -> None:
        """One feature: its line's offset and length; `box` None for a null geometry."""
        if box is not None:
            self.add_box(box, offset, length)

    def add_box(self, box: tuple[float, float, float, float], offset: int, length: int) -> None:
        """One feature with a geometry (the conversions' hot path)."""
        values = self._values
        values.extend(box)
        values.append(offset)
        values.append(length)
        self.count += 1
        if self.count % CHUNK == 0:
            self._flush()

    def finish(self) -> Path:
        """Write what is pending; the folder of the six column files."""
        self._flush()
        for file in (*self._files, self._heavy):
            file.close()
        return self.folder

    def discard(self) -> None:
        """Drop the records (once the index is built, or the conversion failed)."""
        for file in (*self._files, self._heavy):
            file.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _flush(self) -> None:
        if self._values:
            rows = np.frombuffer(self._values, dtype="<f8").reshape(-1, 6)
            for i, file in enumerate(self._files):
                file.write(np.ascontiguousarray(rows[:, i]).tobytes())
            self._values = array.array("d")


POINT_HEAD = b'{"type":"Feature","geometry":{"type":"Point","coordinates":['


def records_of(data: Path, folder: Path) -> tuple[Path, int]:
    """The records (a `Recorder`'s folder) of a GeoJSON layer file, read line by line; and
    their count. Points as maproom writes them are read without a JSON parser."""
    recorder = Recorder(folder)
    add, head = recorder.add_box, len(POINT_HEAD)
    try:
        with data.open("rb") as stream:
            offset = 0
            for line in stream:
                start, text = offset, line.rstrip(b"\r\n").rstrip(b",")
                offset += len(line)
                if text.startswith(POINT_HEAD):
                    x, _, rest = text[head : text.index(b"]", head)].partition(b",")
                    lng, lat = float(x), float(rest.partition(b",")[0])
                    add((lng, lat, lng, lat), start, len(text))
                elif text.startswith(b'{"type":"Feature"'):
                    feature = orjson.loads(text)
                    box = box_of(feature.get("geometry"))
                    if box is None:
                        continue
                    if len(text) > HEAVY_BYTES:
                        recorder.add_heavy(box, heavy_entry(feature))
                    else:
                        add(box, start, len(text))
    except BaseException:
        recorder.discard()
        raise
    return recorder.finish(), recorder.count


def box_of(geometry: Any) -> tuple[float, float, float, float] | None:
    """A GeoJSON geometry's WGS84 box, or None when it has no position."""
    if not isinstance(geometry, dict):
        return None
    xs: list[float] = []
    ys: list[float] = []

    def walk(coordinates: Any) -> None:
        if coordinates and isinstance(coordinates[0], int | float):
            xs.append(coordinates[0])
            ys.append(coordinates[1])
        else:
            for item in coordinates or ():
                walk(item)

    if geometry.get("type") == "GeometryCollection":
        for member in geometry.get("geometries") or ():
            walk(member.get("coordinates"))
    else:
        walk(geometry.get("coordinates"))
    if not xs:
        return None
    return (min(xs), min(ys), max(xs), max(ys))


def heavy_entry(feature: dict[str, Any]) -> bytes:
    """A heavy feature as the index keeps it: a u32 header length, the header (JSON: its
    properties and `levels`, `[zoom, offset, length]` of each version), then each version's
    WKB, in Web Mercator unit coordinates (see the module docstring)."""
    geometry = shapely.from_geojson(orjson.dumps(feature["geometry"]))
    version = shapely.transform(geometry, lambda c: to_unit_square(c[:, 0], c[:, 1]))
    blobs = [(LEVELS - 1, shapely.to_wkb(version))]  # the whole, from FULL_ZOOM + 1
    for zoom in reversed(HEAVY_ZOOMS):  # each simplified from the finer one
        half_pixel = 0.5 * POINT_CELL / (float(2**zoom) * EXTENT)
        version = shapely.simplify(version, half_pixel, preserve_topology=True)
        blobs.append((zoom, shapely.to_wkb(version)))
    levels, at = [], 0
    for zoom, wkb in blobs:
        levels.append([zoom, at, len(wkb)])
        at += len(wkb)
    header = orjson.dumps({"properties": feature.get("properties"), "levels": levels})
    return len(header).to_bytes(4, "little") + header + b"".join(wkb for _, wkb in blobs)


# --- building the index ---------------------------------------------------------------------


def build(records: Path, count: int, out: Path) -> Path:
    """Write the tile index of `count` records (a `Recorder`'s folder; see the module
    docstring) to `out`.

    Memory: about 60 bytes a feature at the peak (sort keys, Morton codes, first zooms, a
    permutation and the thinning's working arrays); the records are read in chunks, or one
    column at a time, never mapped whole."""
    keys = np.zeros(count, dtype=np.uint64)
    first = np.zeros(count, dtype=np.uint8)
    rep = np.zeros(count, dtype=np.uint64)
    for start in range(0, count, CHUNK):
        box = _boxes(np.column_stack([_column(records, i, start, CHUNK) for i in range(4)]))
        end = start + len(box)
        keys[start:end] = _node_keys(box)
        rep[start:end] = _morton(
            _cell((box[:, 0] + box[:, 2]) / 2, MAX_NODE_ZOOM),
            _cell((box[:, 1] + box[:, 3]) / 2, MAX_NODE_ZOOM),
        )
        first[start:end] = _visible_from(np.maximum(box[:, 2] - box[:, 0], box[:, 3] - box[:, 1]))
    order = np.argsort(rep)
    rep = rep[order]  # the only reference: the unsorted codes go
    _first_zooms(rep, order, first)
    del rep, order
    keys |= first.astype(np.uint64) << np.uint64(45)
    del first
    order = np.argsort(keys)
    keys = keys[order]
    starts = np.searchsorted(keys >> np.uint64(45), np.arange(LEVELS + 1, dtype=np.uint64))
    with out.open("wb") as file:
        file.write(MAGIC + np.asarray([count], dtype="<u8").tobytes())
        file.write(starts.astype("<u8").tobytes())
        file.write(keys.astype("<u8").tobytes())
        del keys
        # The box in the unit square (y down: its top is the WGS84 box's north edge), then the
        # line offsets and lengths; one column in memory at a time.
        for source, convert, kind in ((0, _unit_x, "<f4"), (3, _unit_y, "<f4"),
                                      (2, _unit_x, "<f4"), (1, _unit_y, "<f4"),
                                      (4, _offsets, "<u8"), (5, None, "<u4")):  # fmt: skip
            values = _column(records, source)[order]
            file.write((convert(values) if convert else values).astype(kind).tobytes())
            del values
        heavy = records / "heavy"
        if heavy.exists():
            with heavy.open("rb") as section:
                shutil.copyfileobj(section, file, 1 << 20)
    return out


def _offsets(values: NDArray[Any]) -> NDArray[Any]:
    """Line offsets as they are; a heavy feature's (`-1 - position`) as its position in the
    heavy section with the top bit set."""
    heavy = values < 0
    out = np.where(heavy, -1 - values, values).astype(np.uint64)
    out[heavy] |= HEAVY_FLAG
    return out


def _boxes(rows: NDArray[Any]) -> NDArray[Any]:
    """WGS84 boxes (n, 4: west, south, east, north) in the unit square: x0, y0, x1, y1."""
    return np.column_stack([_unit_x(rows[:, 0]), _unit_y(rows[:, 3]),
                            _unit_x(rows[:, 2]), _unit_y(rows[:, 1])])  # fmt: skip


def _column(records: Path, index: int, start: int = 0, count: int = -1) -> NDArray[Any]:
    """Records' column `index` (x0, y0, x1, y1, offset, length), from `start`, `count` of
    them (-1: all), read from its file."""
    with (records / str(index)).open("rb") as file:
        file.seek(start * 8)
        return np.fromfile(file, dtype="<f8", count=count)


def _unit(lng: NDArray[Any], lat: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Longitude/latitude to the Web Mercator unit square (x right, y down)."""
    return _unit_x(lng), _unit_y(lat)


def _unit_x(lng: NDArray[Any]) -> NDArray[Any]:
    return np.asarray(np.clip((np.asarray(lng, dtype=np.float64) + 180.0) / 360.0, 0.0, 1.0))


def _unit_y(lat: NDArray[Any]) -> NDArray[Any]:
    lat = np.clip(np.asarray(lat, dtype=np.float64), -MAX_LAT, MAX_LAT)
    y = 0.5 - np.log(np.tan(np.pi / 4 + np.radians(lat) / 2)) / (2 * np.pi)
    return np.asarray(np.clip(y, 0.0, 1.0))


def _cell(value: NDArray[Any], zoom: int) -> NDArray[Any]:
    """The column (or row) of the zoom-`zoom` tile holding a unit coordinate."""
    n = 1 << zoom
    return np.asarray(np.minimum(np.floor(value * n), n - 1).astype(np.uint64))


def _spread(v: NDArray[np.uint64]) -> NDArray[Any]:
    """Spread the low 20 bits of v over the even bits (for Morton codes)."""
    v = v & np.uint64(0xFFFFF)
    v = (v | (v << np.uint64(16))) & np.uint64(0x0000FFFF0000FFFF)
    v = (v | (v << np.uint64(8))) & np.uint64(0x00FF00FF00FF00FF)
    v = (v | (v << np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    v = (v | (v << np.uint64(2))) & np.uint64(0x3333333333333333)
    return (v | (v << np.uint64(1))) & np.uint64(0x5555555555555555)


def _morton(col: NDArray[np.uint64], row: NDArray[np.uint64]) -> NDArray[Any]:
    """The Z-order code of zoom-20 cells."""
    return np.asarray(_spread(col) | (_spread(row) << np.uint64(1)))


def _node_keys(box: NDArray[Any]) -> NDArray[Any]:
    """`(node Morton << 5) | node zoom` of boxes (n x 4, unit square): the smallest tile of
    zoom <= 20 that holds each box."""
    x0, y0, x1, y1 = box[:, 0], box[:, 1], box[:, 2], box[:, 3]
    size = np.maximum(np.maximum(x1 - x0, y1 - y0), 1e-12)
    zoom = np.clip(np.floor(-np.log2(size)), 0, MAX_NODE_ZOOM).astype(np.int64)
    col0, row0 = _cell(x0, MAX_NODE_ZOOM), _cell(y0, MAX_NODE_ZOOM)
    col1, row1 = _cell(x1, MAX_NODE_ZOOM), _cell(y1, MAX_NODE_ZOOM)
    while True:  # up while the box straddles its node's edge (at most a few steps)
        shift = (MAX_NODE_ZOOM - zoom).astype(np.uint64)
        straddles = ((col0 >> shift) != (col1 >> shift)) | ((row0 >> shift) != (row1 >> shift))
        if not straddles.any():
            break
        zoom = np.where(straddles, zoom - 1, zoom)
    shift = (MAX_NODE_ZOOM - zoom).astype(np.uint64)
    top_left = _morton((col0 >> shift) << shift, (row0 >> shift) << shift)
    return np.asarray((top_left << np.uint64(5)) | zoom.astype(np.uint64))


def _visible_from(size: NDArray[Any]) -> NDArray[Any]:
    """The zoom from which a box of `size` (unit square) is one cell across or more."""
    with np.errstate(divide="ignore"):
        zoom = np.ceil(-np.log2(np.maximum(size, 1e-12)) - CELL_BITS)
    return np.asarray(np.clip(zoom, 0, LEVELS - 1).astype(np.uint8))


def _first_zooms(rep: NDArray[np.uint64], order: NDArray[Any], first: NDArray[np.uint8]) -> None:
    """Lower `first` to each feature's first zoom as its cell's representative (module
    docstring); features that represent no cell up to `FULL_ZOOM` keep what they had (at
    most `FULL_ZOOM + 1`). `rep`: the zoom-20 Morton codes, sorted; `order`: the features
    they belong to."""
    count = len(rep)
    if not count:
        return
    golden = np.uint64(0x9E3779B97F4A7C15)  # a multiplicative hash of the feature's number
    ranks = ((order.astype(np.uint64) * golden) >> np.uint64(32)).astype(np.uint32)
    found = np.full(count, LEVELS - 1, dtype=np.uint8)
    bounds = np.empty(count, dtype=bool)
    for zoom in range(FULL_ZOOM, -1, -1):  # coarse cells hold fine ones: go from fine up
        shift = np.uint64(2 * (MAX_NODE_ZOOM - zoom - CELL_BITS))
        bounds[0] = True
        np.not_equal(rep[1:] >> shift, rep[:-1] >> shift, out=bounds[1:])
        starts = np.flatnonzero(bounds)
        least = np.minimum.reduceat(ranks, starts)
        np.equal(ranks, np.repeat(least, np.diff(np.append(starts, count))), out=bounds)
        found[bounds] = zoom
        del starts, least
    np.minimum(first[order], found, out=found)
    first[order] = found


# --- serving tiles --------------------------------------------------------------------------


@dataclass
class _Columns:
    count: int
    starts: NDArray[np.uint64]
    keys: NDArray[np.uint64]
    box: list[NDArray[np.float32]]  # x0, y0, x1, y1 in the unit square
    offsets: NDArray[np.uint64]
    lengths: NDArray[np.uint32]


class TileStore:
    """A layer's tile index and GeoJSON file, ready to cut tiles (read-only, thread-safe)."""

    def __init__(self, index: Path, data: Path) -> None:
        self.data = data
        with index.open("rb") as file:
            head = file.read(16 + 8 * (LEVELS + 1))
        if head[:8] != MAGIC:
            raise ValueError("not a maproom tile index")
        count = int(np.frombuffer(head, dtype="<u8", count=1, offset=8)[0])
        starts = np.frombuffer(head, dtype="<u8", count=LEVELS + 1, offset=16).copy()
        at = 16 + 8 * (LEVELS + 1)

        def column(dtype: str, shape: tuple[int, ...]) -> Any:
            nonlocal at
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            mapped = np.memmap(index, dtype=dtype, mode="r", offset=at, shape=shape) if size else (
                np.zeros(shape, dtype=dtype))  # fmt: skip
            at += size
            return mapped

        keys = column("<u8", (count,))
        box = [column("<f4", (count,)) for _ in range(4)]
        self._c = _Columns(count, starts, keys, box, column("<u8", (count,)),
                           column("<u4", (count,)))  # fmt: skip
        self.index = index
        self._heavy_at = at  # the heavy features' section follows the columns

    @property
    def feature_count(self) -> int:
        """How many features the index holds (null geometries are not indexed)."""
        return self._c.count

    def tile(
        self,
        z: int,
        x: int,
        y: int,
        layer_name: str = "layer",
        keep: Callable[[dict[str, Any] | None], bool] | None = None,
    ) -> bytes:
        """Tile z/x/y as an (uncompressed) Mapbox Vector Tile, of the features whose
        properties `keep` keeps (all without it); ValueError if it is no tile."""
        check_tile(z, x, y)
        # A filtered tile looks deeper: the features standing for a crowd were chosen without
        # the filter, so it takes those of finer cells too, then keeps what the filter keeps.
        depth = z if keep is None else z + FILTER_DEPTH
        picked = self._candidates(z, x, y, depth)
        scale = float(2**z) * EXTENT
        x0, y0 = x / 2**z, y / 2**z
        layer = mvt.Layer(layer_name, EXTENT)
        self._features(layer, picked, z, x0, y0, scale, keep)
        return mvt.encode([layer])

    def _candidates(self, z: int, x: int, y: int, depth: int) -> NDArray[Any]:
        """Records whose boxes reach into the buffered tile, thinned (module docstring)."""
        c = self._c
        pad = BUFFER / (float(2**z) * EXTENT)
        tx0, ty0, tx1, ty1 = (
            x / 2**z - pad,
            y / 2**z - pad,
            (x + 1) / 2**z + pad,
            (y + 1) / 2**z + pad,
        )
        node_zoom = min(z, MAX_NODE_ZOOM)
        nx, ny = x >> (z - node_zoom), y >> (z - node_zoom)
        span = 1 << (2 * (MAX_NODE_ZOOM - node_zoom))
        shift = MAX_NODE_ZOOM - node_zoom
        runs: list[tuple[int, int]] = []
        for level in range(min(depth, LEVELS - 1) + 1):
            base = level << 45
            lo_level, hi_level = int(c.starts[level]), int(c.starts[level + 1])
            if lo_level == hi_level:
                continue
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    cx, cy = nx + dx, ny + dy
                    if not (0 <= cx < 2**node_zoom and 0 <= cy < 2**node_zoom):
                        continue
                    m0 = _morton_one(cx << shift, cy << shift)
                    runs.append(self._run(base | (m0 << 5), base + ((m0 + span) << 5),
                                          lo_level, hi_level))  # fmt: skip
            for zoom in range(node_zoom):  # the nodes above the tile
                ax, ay = nx >> (node_zoom - zoom), ny >> (node_zoom - zoom)
                up = MAX_NODE_ZOOM - zoom
                key = base | (_morton_one(ax << up, ay << up) << 5) | zoom
                runs.append(self._run(key, key + 1, lo_level, hi_level))
        total = sum(hi - lo for lo, hi in runs)
        stride = max(1, math.ceil(total / MAX_CANDIDATES))
        picked = np.unique(np.concatenate(
            [np.arange(lo, hi, stride, dtype=np.int64) for lo, hi in runs if hi > lo]
            or [np.empty(0, dtype=np.int64)]
        ))  # fmt: skip
        if not picked.size:
            return picked
        b = self._boxes(picked)
        inside = (b[:, 2] >= tx0) & (b[:, 0] <= tx1) & (b[:, 3] >= ty0) & (b[:, 1] <= ty1)
        return np.asarray(picked[inside])

    def _boxes(self, picked: NDArray[Any]) -> NDArray[Any]:
        """Boxes of some records: (n, 4) float64 in the unit square."""
        return np.column_stack([np.asarray(col[picked], dtype=np.float64) for col in self._c.box])

    def _run(self, lo_key: int, hi_key: int, lo: int, hi: int) -> tuple[int, int]:
        keys = self._c.keys[lo:hi]
        first = int(np.searchsorted(keys, np.uint64(lo_key), side="left"))
        last = int(np.searchsorted(keys, np.uint64(hi_key), side="left"))
        return lo + first, lo + last

    def _features(
        self,
        layer: mvt.Layer,
        picked: NDArray[np.int64],
        z: int,
        x0: float,
        y0: float,
        scale: float,
        wanted: Callable[[dict[str, Any] | None], bool] | None = None,
    ) -> None:
        """Add the picked features to the layer: points exact, the others clipped to the
        tile's buffer."""
        c = self._c
        if not picked.size:
            return
        b = self._boxes(picked)
        points = (b[:, 0] == b[:, 2]) & (b[:, 1] == b[:, 3])
        if points.any():  # one point per screen pixel: the others draw the same
            col = np.floor((b[:, 0] - x0) * scale).astype(np.int64)
            row = np.floor((b[:, 1] - y0) * scale).astype(np.int64)
            cells = np.where(
                points, (row + BUFFER) // POINT_CELL * EXTENT + (col + BUFFER) // POINT_CELL, -1
            )
            keep = ~points
            _, first = np.unique(cells[points], return_index=True)
            keep[np.flatnonzero(points)[first]] = True
            picked = picked[keep]
        picked = picked[:MAX_TILE_FEATURES]
        offsets = np.asarray(c.offsets[picked])
        order = np.argsort(offsets)
        lengths = np.asarray(c.lengths[picked])[order].tolist()
        lngs: list[float] = []
        lats: list[float] = []
        point_properties: list[dict[str, Any]] = []
        fd = os.open(self.data, os.O_RDONLY)
        try:
            for offset, length in zip(offsets[order].tolist(), lengths, strict=True):
                if offset & HEAVY_BIT:
                    at = self._heavy_at + (offset & ~HEAVY_BIT)
                    heavy = self._heavy_feature(at, z, x0, y0, scale, wanted)
                    if heavy is not None:
                        layer.add_shape(*heavy)
                    continue
                parsed = orjson.loads(os.pread(fd, length, offset))
                properties = parsed.get("properties")
                if wanted is not None and not wanted(properties):
                    continue
                geometry = parsed.get("geometry")
                if not geometry:
                    continue
                if geometry.get("type") == "Point":  # projected together, below
                    lng, lat = geometry["coordinates"][:2]
                    lngs.append(lng)
                    lats.append(lat)
                    point_properties.append(_properties(properties))
                    continue
                shape = _in_tile_shape(geometry, x0, y0, scale)
                if shape is not None:
                    layer.add_shape(shape, _properties(properties))
        finally:
            os.close(fd)
        if lngs:
            ux, uy = _unit(np.asarray(lngs, dtype=np.float64), np.asarray(lats, dtype=np.float64))
            cols = np.trunc((ux - x0) * scale).astype(np.int64).tolist()
            rows = np.trunc((uy - y0) * scale).astype(np.int64).tolist()
            for col, row, properties in zip(cols, rows, point_properties, strict=True):
                layer.add_point(col, row, properties)

    def _heavy_feature(
        self,
        at: int,
        z: int,
        x0: float,
        y0: float,
        scale: float,
        keep: Callable[[dict[str, Any] | None], bool] | None = None,
    ) -> tuple[Any, dict[str, Any]] | None:
        """A heavy feature's version for zoom `z` (module docstring), clipped to the tile, and
        its properties."""
        with self.index.open("rb") as file:
            file.seek(at)
            size = int.from_bytes(file.read(4), "little")
            header = orjson.loads(file.read(size))
            if keep is not None and not keep(header["properties"]):
                return None
            _, offset, wkb_length = min(
                (level for level in header["levels"] if level[0] >= z),
                key=lambda level: level[0],
                default=max(header["levels"], key=lambda level: level[0]),
            )
            file.seek(at + 4 + size + offset)
            version = shapely.from_wkb(file.read(wkb_length))
        pad = BUFFER / scale
        near = shapely.clip_by_rect(version, x0 - pad, y0 - pad, x0 + EXTENT / scale + pad,
                                    y0 + EXTENT / scale + pad)  # fmt: skip
        if near.is_empty:
            return None
        clipped = in_tile(near, x0, y0, scale)
        if clipped is None:
            return None
        return clipped, _properties(header["properties"])


def _morton_one(col: int, row: int) -> int:
    return int(_morton(np.asarray([col], dtype=np.uint64), np.asarray([row], dtype=np.uint64))[0])


def _in_tile_shape(geometry: dict[str, Any], x0: float, y0: float, scale: float) -> Any:
    """A GeoJSON geometry (not a point) in tile pixels, clipped to the buffer; or None."""
    shape = shapely.geometry.shape(geometry)
    unit = shapely.transform(shape, lambda c: to_unit_square(c[:, 0], c[:, 1]))
    return in_tile(unit, x0, y0, scale)


def in_tile(unit_shape: Any, x0: float, y0: float, scale: float) -> Any:
    """A shape in Web Mercator unit coordinates as tile pixels, clipped to the tile and its
    buffer; None when nothing is left."""
    matrix = [scale, 0, 0, scale, -x0 * scale, -y0 * scale]
    local = shapely.affinity.affine_transform(unit_shape, matrix)
    clipped = shapely.clip_by_rect(local, -BUFFER, -BUFFER, EXTENT + BUFFER, EXTENT + BUFFER)
    return None if clipped.is_empty else clipped


def to_unit_square(lng: NDArray[Any], lat: NDArray[Any]) -> NDArray[np.float64]:
    """Longitude/latitude pairs as Web Mercator unit coordinates, (n, 2)."""
    return np.column_stack(_unit(lng, lat))


def _properties(raw: Any) -> dict[str, Any]:
    """Properties as MVT holds them: scalars as they are, the rest as JSON text."""
    if not isinstance(raw, dict):
        return {}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if value is None:
            continue
        if isinstance(value, str | bool | float) or (isinstance(value, int) and abs(value) < 2**63):
            out[str(key)] = value
        else:
            out[str(key)] = (
                orjson.dumps(value).decode() if not isinstance(value, int) else str(value)
            )
    return out
