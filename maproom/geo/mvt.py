"""Mapbox Vector Tile encoding (version 2 of the specification), written by hand.

    layer = Layer("layer", extent=4096)
    layer.add_point(x, y, properties)         tile pixels, y down
    layer.add_shape(shape, properties)        a shapely geometry already in tile pixels
    tile = encode([layer])

Why by hand: a tile of a dense layer holds thousands of features, and `mapbox-vector-tile`
spends about 30 us on each (a WKT or WKB parse by shapely, a Python protobuf message, its
checks): two thirds of a cold tile's time (docs/tiles.md, "Cold tiles"). Here a point costs
a few microseconds: its three geometry integers and its tags are written straight into the
layer's bytes, keys and values are interned as they come.

The wire format: a tile is a list of layers (field 3); a layer has its version (15), name (1),
features (2), keys (3), values (4) and extent (5); a feature has its tags (2, packed pairs of
key and value indexes), type (3: 1 point, 2 line, 3 polygon) and geometry (4, packed commands:
MoveTo, LineTo, ClosePath with zigzag-encoded deltas). Polygons' exterior rings are clockwise
on screen (positive area with y down) and holes anticlockwise, as version 2 requires.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import shapely

POINT, LINE, POLYGON = 1, 2, 3
MOVE_TO, LINE_TO, CLOSE_PATH = 1, 2, 7


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_SMALL = [_varint(i) for i in range(1 << 14)]  # most varints of a tile are small


def varint(value: int) -> bytes:
    """A non-negative integer as a protobuf varint."""
    return _SMALL[value] if value < 16384 else _varint(value)


def zigzag(value: int) -> int:
    return (value << 1) ^ (value >> 63)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def _value(value: Any) -> bytes:
    """A Value message: string, double, signed or unsigned integer, or bool."""
    if isinstance(value, bool):
        return b"\x38" + (b"\x01" if value else b"\x00")
    if isinstance(value, int):
        if value >= 0:
            return b"\x28" + varint(value)  # uint_value
        return b"\x30" + varint(zigzag(value))  # sint_value
    if isinstance(value, float):
        return b"\x19" + struct.pack("<d", value)  # double_value
    return _field(1, str(value).encode())  # string_value


class Layer:
    """One layer of a tile, its features added one by one."""

    def __init__(self, name: str, extent: int = 4096) -> None:
        self.name = name
        self.extent = extent
        self._features: list[bytes] = []
        self._keys: dict[str, int] = {}
        self._values: dict[tuple[type, Any], int] = {}

    def __len__(self) -> int:
        return len(self._features)

    def _tags(self, properties: dict[str, Any]) -> bytes:
        keys, values = self._keys, self._values
        out = bytearray()
        for key, value in properties.items():
            k = keys.get(key)
            if k is None:
                k = keys[key] = len(keys)
            typed = (type(value), value)
            v = values.get(typed)
            if v is None:
                v = values[typed] = len(values)
            out += varint(k)
            out += varint(v)
        return bytes(out)

    def _add(self, kind: int, geometry: bytes, properties: dict[str, Any]) -> None:
        tags = self._tags(properties)
        body = (
            (b"\x12" + varint(len(tags)) + tags if tags else b"")
            + b"\x18" + varint(kind)
            + b"\x22" + varint(len(geometry)) + geometry
        )  # fmt: skip
        self._features.append(b"\x12" + varint(len(body)) + body)

    def add_point(self, x: int, y: int, properties: dict[str, Any]) -> None:
        """A point at tile pixel (x, y)."""
        self._add(POINT, b"\x09" + varint(zigzag(x)) + varint(zigzag(y)), properties)

    def add_shape(self, shape: Any, properties: dict[str, Any]) -> None:
        """A shapely geometry in tile pixels (any type; rounded to whole pixels; nothing is
        added when rounding leaves nothing to draw)."""
        points: list[tuple[int, int]] = []
        lines: list[np.ndarray] = []
        polygons: list[np.ndarray] = []  # rings, exterior first, one polygon after another
        for part in shapely.get_parts(shape):
            kind = shapely.get_type_id(part)
            if kind == 0:  # Point
                x, y = shapely.get_coordinates(part)[0]
                points.append((round(x), round(y)))
            elif kind in (1, 2):  # LineString, LinearRing
                line = _whole(shapely.get_coordinates(part))
                if len(line) >= 2:
                    lines.append(line)
            elif kind == 3:  # Polygon
                rings = _rings(part)
                if rings:
                    polygons.extend(rings)
            else:  # a collection inside a collection
                self.add_shape(part, properties)
        if points:
            self._add(POINT, _points(points), properties)
        if lines:
            self._add(LINE, _paths(lines, closed=False), properties)
        if polygons:
            self._add(POLYGON, _paths(polygons, closed=True), properties)

    def encode(self) -> bytes:
        """The layer message."""
        parts = [b"\x78\x02", _field(1, self.name.encode()), *self._features]  # version 2
        parts += [_field(3, key.encode()) for key in self._keys]
        parts += [_field(4, _value(value)) for _, value in self._values]
        parts.append(b"\x28" + varint(self.extent))
        return b"".join(parts)


def encode(layers: list[Layer]) -> bytes:
    """A tile of these layers (empty ones left out)."""
    return b"".join(_field(3, layer.encode()) for layer in layers if len(layer))


def _whole(coordinates: np.ndarray) -> np.ndarray:
    """Coordinates rounded to whole pixels, without repeated points."""
    whole: np.ndarray = np.rint(coordinates[:, :2]).astype(np.int64)
    if len(whole) < 2:
        return whole
    moved = np.any(whole[1:] != whole[:-1], axis=1)
    kept: np.ndarray = whole[np.concatenate(([True], moved))]
    return kept


def _rings(polygon: Any) -> list[np.ndarray]:
    """A polygon's rings in whole pixels, exterior clockwise on screen and holes anticlockwise
    (y down), open (the closing point is ClosePath); [] when the exterior vanishes."""
    out: list[np.ndarray] = []
    for i, ring in enumerate(shapely.get_rings(polygon)):
        whole = _whole(shapely.get_coordinates(ring))
        if len(whole) > 1 and (whole[0] == whole[-1]).all():
            whole = whole[:-1]
        if len(whole) < 3:
            if i == 0:
                return []
            continue
        area = _area(whole)
        if area == 0:
            if i == 0:
                return []
            continue
        if (area > 0) != (i == 0):  # exterior: positive with y down; holes: negative
            whole = whole[::-1]
        out.append(whole)
    return out


def _area(ring: np.ndarray) -> int:
    x, y = ring[:, 0], ring[:, 1]
    return int(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def _points(points: list[tuple[int, int]]) -> bytes:
    out = bytearray(varint(MOVE_TO | len(points) << 3))
    px = py = 0
    for x, y in points:
        out += varint(zigzag(x - px))
        out += varint(zigzag(y - py))
        px, py = x, y
    return bytes(out)


def _paths(paths: list[np.ndarray], closed: bool) -> bytes:
    """Lines, or polygon rings (then each ends with ClosePath), as geometry commands."""
    out = bytearray()
    px = py = 0
    for path in paths:
        deltas = np.diff(path, axis=0, prepend=np.array([[px, py]], dtype=np.int64))
        zz = ((deltas << 1) ^ (deltas >> 63)).ravel().tolist()
        out += varint(MOVE_TO | 1 << 3)
        out += varint(zz[0])
        out += varint(zz[1])
        out += varint(LINE_TO | (len(path) - 1) << 3)
        for value in zz[2:]:
            out += varint(value)
        if closed:
            out += varint(CLOSE_PATH | 1 << 3)
        px, py = int(path[-1, 0]), int(path[-1, 1])
    return bytes(out)
