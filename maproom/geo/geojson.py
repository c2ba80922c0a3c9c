"""GeoJSON (.geojson, .json): validate against RFC 7946 and rewrite one feature per line.

Accepted top levels: a FeatureCollection, a single Feature, or a bare geometry (each of the last
two becomes a one-feature collection). The whole document is checked before anything is kept:

- every feature is an object of type "Feature" with a `geometry` member (an object or null);
  `properties` is an object or null, and a missing one becomes `{}`; an `id` is a string or number;
- geometries are the seven RFC 7946 types; positions are arrays of 2 or 3 numbers with longitude
  in [-180, 180] and latitude in [-90, 90] (WGS84: a file in another CRS fails the range check);
  a LineString has at least 2 positions; a polygon ring has at least 4 and is closed;
  an empty `coordinates` array is an empty geometry (allowed, adds nothing to the bbox);
- winding order is not checked (RFC 7946 tells parsers not to reject on it).

The first problem found raises `GeoError` with a path to it, for example
`features[3].geometry.coordinates[0][2]: latitude 91.5 is outside [-90, 90]`.

The output is the normalised FeatureCollection in the layout `base.feature_writer` documents.

A FeatureCollection is read as a stream (ijson's C parser): its top level first, up to the
`features` array, then one feature at a time, each checked and written before the next is
read, so memory does not grow with the file. A single Feature or a bare geometry is one object
and is parsed whole (orjson). A failure after some features were written removes the partial
output: as before, nothing is kept unless the whole document passed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import ijson
import numpy as np
import orjson

from maproom.geo.base import (
    FC_HEAD,
    FC_TAIL,
    GEOJSON_NAME,
    Conversion,
    GeoError,
    Limits,
    feature_writer,
    geometry_label,
)
from maproom.geo.fields import FieldProfiler, write_profile
from maproom.geo.filters import matches
from maproom.limits import MAX_JSON_DEPTH

SINGLE_FORM = {
    "Point": "Point",
    "MultiPoint": "Point",
    "LineString": "LineString",
    "MultiLineString": "LineString",
    "Polygon": "Polygon",
    "MultiPolygon": "Polygon",
}
GEOMETRY_TYPES = frozenset([*SINGLE_FORM, "GeometryCollection"])

_ARRAY = (list, tuple)
_NUMBER = (int, float)
_UTF8_BOM = b"\xef\xbb\xbf"
_WGS84 = "(GeoJSON positions are WGS84 longitude, latitude)"


class Extent:
    """Running bounding box and the single geometry forms seen so far."""

    __slots__ = ("kinds", "max_x", "max_y", "min_x", "min_y")

    def __init__(self) -> None:
        self.min_x = self.min_y = float("inf")
        self.max_x = self.max_y = float("-inf")
        self.kinds: set[str] = set()

    def add_box(self, min_x: float, min_y: float, max_x: float, max_y: float) -> None:
        """Grow the box to cover another one."""
        self.min_x = min(self.min_x, min_x)
        self.min_y = min(self.min_y, min_y)
        self.max_x = max(self.max_x, max_x)
        self.max_y = max(self.max_y, max_y)

    def merge(self, other: Extent) -> None:
        """Grow this extent to cover another one."""
        if other.min_x <= other.max_x:
            self.add_box(other.min_x, other.min_y, other.max_x, other.max_y)
        self.kinds |= other.kinds

    def label(self) -> str | None:
        """The contract's geometry type of what was seen (see `base.geometry_label`)."""
        return geometry_label(self.kinds)

    def bbox(self) -> tuple[float, float, float, float] | None:
        """`(minLng, minLat, maxLng, maxLat)`, or None when no position was seen."""
        if self.min_x > self.max_x:
            return None
        return (float(self.min_x), float(self.min_y), float(self.max_x), float(self.max_y))


def convert(source: Path, workdir: Path, limits: Limits) -> Conversion:
    """Validate a GeoJSON file and write it as a one-feature-per-line FeatureCollection."""
    extent = Extent()
    profiler = FieldProfiler()
    target = workdir / GEOJSON_NAME
    with feature_writer(target, limits) as sink:
        for feature in _features(source, extent):
            props = feature.get("properties")
            profiler.add(props if isinstance(props, dict) else None)
            sink.write(orjson.dumps(feature))
    return Conversion(
        layer_type="geojson",
        output=target,
        feature_count=sink.count,
        geometry_type=extent.label(),
        bbox=extent.bbox(),
        output_bytes=target.stat().st_size,
        **write_profile(profiler.profile(), workdir),
    )


def _features(source: Path, extent: Extent) -> Iterator[Any]:
    """The checked features of a file (see the module docstring), one at a time."""
    with source.open("rb") as stream:
        if deeper_than(stream, MAX_JSON_DEPTH):
            raise GeoError(f"the document is nested deeper than {MAX_JSON_DEPTH} levels")
        stream.seek(0)
        start = stream.read(len(_UTF8_BOM))
        offset = len(start) if start == _UTF8_BOM else 0
        stream.seek(offset)
        head = _top_level(stream)
        if head.kind != "stream":
            yield from _checked_features(_load(source), extent)
            return
        stream.seek(offset)
        try:
            for index, feature in enumerate(ijson.items(stream, "features.item", use_float=True)):
                _check_feature(feature, f"features[{index}]", extent)
                yield feature
            if head.type is None:  # "type" came after "features": read it now
                stream.seek(offset)
                head.type = next(ijson.items(stream, "type"), None)
        except ijson.JSONError as exc:
            raise GeoError(f"not valid JSON: {_json_error(exc)}") from None
    if head.type != "FeatureCollection":
        raise GeoError(
            f"type: expected 'FeatureCollection' beside a features array, got {_named(head.type)}"
        )


@dataclass
class _Head:
    """What the start of a document says: `stream` (a FeatureCollection's features array is
    coming), or `whole` (anything else: parse it whole); the top-level type if seen."""

    kind: str
    type: Any = None


_ESCAPE = re.compile(rb"\\.", re.S)
_STRING = re.compile(rb'"[^"]*"')
_NOT_STRUCTURE = bytes(range(256)).translate(None, b'"[]{}')
_STEP = np.zeros(256, dtype=np.int32)
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1


def deeper_than(stream: IO[bytes], limit: int, chunk: int = 1 << 20) -> bool:
    """Whether a JSON document is nested deeper than `limit`, read in chunks at C speed (a
    parser, ijson's included, spends memory out of proportion to such a document's size).
    Escapes are dropped, then everything but quotes and brackets, then whole strings; the
    brackets left give the depth."""
    depth, in_string, carry = 0, False, b""
    while data := stream.read(chunk):
        data = _ESCAPE.sub(b"", carry + data)
        carry = b""
        if data.endswith(b"\\"):  # an escape cut by the chunk's end
            carry, data = b"\\", data[:-1]
        data = data.translate(None, _NOT_STRUCTURE)
        if in_string:
            end = data.find(b'"')
            if end < 0:
                continue
            data, in_string = data[end + 1 :], False
        data = _STRING.sub(b"", data)
        start = data.find(b'"')
        if start >= 0:
            data, in_string = data[:start], True
        if data:
            levels = np.cumsum(_STEP[np.frombuffer(data, dtype=np.uint8)]) + depth
            if int(levels.max()) > limit:
                return True
            depth = int(levels[-1])
    return False


def _top_level(stream: IO[bytes]) -> _Head:
    """Read the top level until it is clear whether `features` is an array to stream."""
    seen_type: Any = None
    try:
        for prefix, event, value in ijson.parse(stream, use_float=True):
            if prefix == "" and event not in ("start_map", "map_key", "end_map"):
                return _Head("whole")  # not an object: the whole-document check says so
            if prefix == "type" and event in ("string", "number", "null", "boolean"):
                seen_type = value
                if value != "FeatureCollection":
                    return _Head("whole", value)
            elif prefix == "features":
                if event == "start_array" and seen_type in ("FeatureCollection", None):
                    return _Head("stream", seen_type)
                return _Head("whole", seen_type)
    except ijson.JSONError:
        return _Head("whole")  # orjson gives the clearer message
    return _Head("whole", seen_type)


def _json_error(exc: Exception) -> str:
    """ijson's account of a syntax error, without its internals."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else "malformed"
    return text[:200]


def check_geometry(geometry: Any, path: str, extent: Extent) -> None:
    """Check one geometry object (RFC 7946) and add it to `extent`; raise GeoError at `path`."""
    if not isinstance(geometry, dict):
        got = _describe(geometry)
        raise GeoError(f"{path or 'geometry'}: expected a geometry object, got {got}")
    kind = geometry.get("type")
    if kind == "GeometryCollection":
        where = _at(path, "geometries")
        for index, member in enumerate(_array(geometry.get("geometries"), where)):
            check_geometry(member, f"{where}[{index}]", extent)
        return
    if kind not in SINGLE_FORM:
        raise GeoError(f"{_at(path, 'type')}: {_named(kind)} is not a GeoJSON geometry type")
    if "coordinates" not in geometry:
        raise GeoError(f"{_at(path, 'coordinates')}: missing")
    coordinates = geometry["coordinates"]
    where = _at(path, "coordinates")
    if isinstance(coordinates, _ARRAY) and not coordinates:
        return
    _CHECKS[kind](coordinates, where, extent)
    extent.kinds.add(SINGLE_FORM[kind])


def _load(source: Path) -> Any:
    """Parse the file as JSON (UTF-8, a leading byte-order mark tolerated)."""
    data = source.read_bytes()
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    if not data.strip():
        raise GeoError("the file is empty; expected a GeoJSON object")
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise GeoError(f"not valid JSON: {exc}") from None


def _checked_features(document: Any, extent: Extent) -> list[Any]:
    """Check the document and return its features (a bare geometry wrapped into one)."""
    if not isinstance(document, dict):
        raise GeoError(f"expected a GeoJSON object at the top level, got {_describe(document)}")
    kind = document.get("type")
    if kind == "FeatureCollection":
        features = document.get("features")
        if not isinstance(features, list):
            raise GeoError(f"features: expected an array of features, got {_describe(features)}")
        for index, feature in enumerate(features):
            _check_feature(feature, f"features[{index}]", extent)
        return features
    if kind == "Feature":
        _check_feature(document, "", extent)
        return [document]
    if kind in GEOMETRY_TYPES:
        check_geometry(document, "", extent)
        return [{"type": "Feature", "geometry": document, "properties": {}}]
    raise GeoError(
        f"type: expected 'FeatureCollection', 'Feature' or a geometry type, got {_named(kind)}"
    )


def _check_feature(feature: Any, path: str, extent: Extent) -> None:
    """Check one feature; a missing `properties` member becomes `{}`."""
    if not isinstance(feature, dict):
        raise GeoError(f"{path or 'feature'}: expected a Feature object, got {_describe(feature)}")
    if feature.get("type") != "Feature":
        raise GeoError(
            f"{_at(path, 'type')}: expected 'Feature', got {_named(feature.get('type'))}"
        )
    if "geometry" not in feature:
        raise GeoError(f"{_at(path, 'geometry')}: missing (null is allowed, absence is not)")
    geometry = feature["geometry"]
    if geometry is not None:
        check_geometry(geometry, _at(path, "geometry"), extent)
    properties = feature.setdefault("properties", {})
    if properties is not None and not isinstance(properties, dict):
        raise GeoError(
            f"{_at(path, 'properties')}: expected an object or null, got {_describe(properties)}"
        )
    if "id" in feature and type(feature["id"]) not in (str, int, float):
        raise GeoError(f"{_at(path, 'id')}: expected a string or a number")


def _point(coordinates: Any, path: str, extent: Extent) -> None:
    _positions((coordinates,), path, extent, single=True)


def _multi_point(coordinates: Any, path: str, extent: Extent) -> None:
    _positions(coordinates, path, extent)


def _line(coordinates: Any, path: str, extent: Extent) -> None:
    _positions(coordinates, path, extent, min_length=2, shape="a LineString")


def _multi_line(coordinates: Any, path: str, extent: Extent) -> None:
    for index, line in enumerate(_array(coordinates, path)):
        _line(line, f"{path}[{index}]", extent)


def _polygon(coordinates: Any, path: str, extent: Extent) -> None:
    rings = _array(coordinates, path)
    if not rings:
        raise GeoError(f"{path}: a polygon needs at least one ring")
    for index, ring in enumerate(rings):
        where = f"{path}[{index}]"
        _positions(ring, where, extent, min_length=4, shape="a polygon ring")
        if list(ring[0]) != list(ring[-1]):
            raise GeoError(f"{where}: the polygon ring is not closed (first position != last)")


def _multi_polygon(coordinates: Any, path: str, extent: Extent) -> None:
    for index, polygon in enumerate(_array(coordinates, path)):
        _polygon(polygon, f"{path}[{index}]", extent)


_CHECKS: dict[str, Callable[[Any, str, Extent], None]] = {
    "Point": _point,
    "MultiPoint": _multi_point,
    "LineString": _line,
    "MultiLineString": _multi_line,
    "Polygon": _polygon,
    "MultiPolygon": _multi_polygon,
}


def _positions(
    positions: Any,
    path: str,
    extent: Extent,
    *,
    min_length: int = 1,
    shape: str = "",
    single: bool = False,
) -> None:
    """Check an array of positions (types first, then ranges) and add it to `extent`."""
    positions = _array(positions, path)
    if len(positions) < min_length:
        count = len(positions)
        raise GeoError(f"{path}: {shape} needs at least {min_length} positions, got {count}")
    for index, position in enumerate(positions):
        size = len(position) if type(position) in _ARRAY else 0
        if (
            not 2 <= size <= 3
            or type(position[0]) not in _NUMBER
            or type(position[1]) not in _NUMBER
            or (size == 3 and type(position[2]) not in _NUMBER)
        ):
            where = path if single else f"{path}[{index}]"
            raise GeoError(f"{where}: a position is 2 or 3 numbers, got {position!r:.80}")
    xs = [position[0] for position in positions]
    ys = [position[1] for position in positions]
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    if min_x < -180 or max_x > 180 or min_y < -90 or max_y > 90:
        _raise_out_of_range(xs, ys, path, single)
    extent.add_box(min_x, min_y, max_x, max_y)


def _raise_out_of_range(xs: list[Any], ys: list[Any], path: str, single: bool) -> None:
    """Name the first position whose longitude or latitude is out of range."""
    for index, (x, y) in enumerate(zip(xs, ys, strict=True)):
        where = path if single else f"{path}[{index}]"
        if not -180 <= x <= 180:
            raise GeoError(f"{where}: longitude {x} is outside [-180, 180] {_WGS84}")
        if not -90 <= y <= 90:
            raise GeoError(f"{where}: latitude {y} is outside [-90, 90] {_WGS84}")


def _array(value: Any, path: str) -> Any:
    """`value` if it is an array, else GeoError at `path`."""
    if type(value) not in _ARRAY:
        raise GeoError(f"{path}: expected an array, got {_describe(value)}")
    return value


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _named(kind: Any) -> str:
    """A `type` member for messages: its repr, or "no type" when it is missing."""
    return "no type" if kind is None else repr(kind)


def _describe(value: Any) -> str:
    """The JSON type name of a parsed value, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, _NUMBER):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, _ARRAY):
        return "an array"
    return "an object"


def kept_lines(path: Path, where: dict[str, Any] | None) -> Iterator[bytes]:
    """A layer file (maproom's one-feature-per-line layout) as a FeatureCollection of the
    features a filter keeps (`maproom.geo.filters`), a line at a time."""
    yield FC_HEAD
    separator = b"\n"
    with path.open("rb") as stream:
        for line in stream:
            text = line.rstrip(b"\r\n").rstrip(b",")
            if not text.startswith(b'{"type":"Feature"'):
                continue
            if matches(where, orjson.loads(text).get("properties")):
                yield separator + text
                separator = b",\n"
    yield FC_TAIL
