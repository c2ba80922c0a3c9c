"""What every format module shares: the error, the result, and writing outputs atomically.

An output is written under a hidden temporary name beside its final name and renamed into place
only when the conversion succeeded, so a failed conversion leaves nothing in the work folder and
an existing file of the final name survives a failure untouched.

`feature_writer` writes the one GeoJSON layout every vector conversion produces: a
FeatureCollection with one feature per line, so later tools can stream it line by line:

    {"type":"FeatureCollection","features":[
    {"type":"Feature",...},
    {"type":"Feature",...}
    ]}

The first line and the last line (`]}`, then a final newline) are fixed; every line between
them is one complete feature object followed by a comma, except the last feature, which has
none. An empty collection is the first line followed by the last one. The whole file is also
one ordinary JSON document.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson

from maproom.limits import has_control_in_json, json_problem

GEOJSON_NAME = "layer.geojson"
COG_NAME = "layer.tif"
TILES_NAME = "layer.tiles"  # a GeoJSON layer's tile index (`geo.tilestore`), beside it

FC_HEAD = b'{"type":"FeatureCollection","features":['
FC_TAIL = b"\n]}\n"


class GeoError(Exception):
    """A file that cannot become what its extension promises; `message` says why in words fit
    for the uploader (no paths, no library internals); `detail`, if any, is the library's own
    account, for the server's log."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        self.message = message
        self.detail = detail
        super().__init__(message)


class TooLarge(GeoError):
    """The converted layer would pass a `Limits` bound: nothing is kept (the service: 413)."""


@dataclass(frozen=True)
class Limits:
    """How big a converted layer may get (api-decisions.md): features, and bytes of output (for a
    raster, of its pixels uncompressed), so a small compressed upload cannot expand without
    end."""

    max_features: int = 10_000_000
    max_bytes: int = 500 * 1_048_576

    def check(self, features: int, size: int) -> None:
        """Raise TooLarge when either bound is passed."""
        if features > self.max_features:
            raise TooLarge(
                f"the layer would have more than {self.max_features:,} features, the most "
                "one upload may make"
            )
        if size > self.max_bytes:
            raise TooLarge(
                f"the converted layer would take more than {self.max_bytes // 1_048_576:,} MB "
                "(10 times the upload ceiling), the most one upload may make"
            )


UNLIMITED = Limits(max_features=2**62, max_bytes=2**62)


@dataclass(frozen=True)
class Conversion:
    """What a conversion produced: the layer kind, the output file and its summary."""

    layer_type: str | None  # "geojson", "cog", or None for a stored-only file
    output: Path | None  # the file written into workdir; None for a stored-only file
    feature_count: int | None  # None for rasters and stored-only files
    geometry_type: str | None  # "Point", "LineString", "Polygon", "mixed"; None if no geometry
    bbox: tuple[float, float, float, float] | None  # WGS84 (minLng, minLat, maxLng, maxLat)
    skipped_rows: int = 0  # table rows left out for unusable coordinates
    output_bytes: int | None = None
    fields: list[dict[str, Any]] | None = None  # the properties' summary (`geo.fields`)
    stats: Path | None = None  # the properties' statistics file, beside `output`


STORED = Conversion(layer_type=None, output=None, feature_count=None, geometry_type=None, bbox=None)


def geometry_label(kinds: set[str]) -> str | None:
    """The contract's geometry type for a set of single forms seen: one form, "mixed" or None."""
    if not kinds:
        return None
    if len(kinds) == 1:
        return next(iter(kinds))
    return "mixed"


@contextlib.contextmanager
def partial_output(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside `target`; rename it to `target` on success, else delete it."""
    temp = target.with_name(f".{target.stem}.{uuid.uuid4().hex}.partial{target.suffix}")
    try:
        yield temp
        os.replace(temp, target)
    finally:
        _remove_with_siblings(temp)


def _remove_with_siblings(temp: Path) -> None:
    """Delete `temp` and any sidecar a library made from its name (`.aux.xml`, `.ovr`, ...)."""
    for path in temp.parent.glob(f"{temp.name}*"):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


class FeatureSink:
    """Appends serialised features to an open FeatureCollection file, counts them, and stops
    the conversion (TooLarge) once the layer passes its limits."""

    def __init__(self, file: IO[bytes], limits: Limits) -> None:
        self._file = file
        self._sep = b"\n"
        self.count = 0
        self.size = len(FC_HEAD)
        self._limits = limits

    def write(self, feature: bytes) -> None:
        """Append one serialised feature (a JSON object without a trailing newline); GeoError
        if one of its strings holds a control character (`maproom.limits`)."""
        if has_control_in_json(feature):
            path, message = json_problem(orjson.loads(feature)) or ("", "")
            raise GeoError(
                f"feature {self.count + 1}: {path.removeprefix('properties.')}: {message}"
            )
        self._file.write(self._sep + feature)
        self._sep = b",\n"
        self.count += 1
        self.size += len(feature) + 2
        if self.count > self._limits.max_features or self.size > self._limits.max_bytes:
            self._limits.check(self.count, self.size)


@contextlib.contextmanager
def feature_writer(target: Path, limits: Limits = UNLIMITED) -> Iterator[FeatureSink]:
    """Write a one-feature-per-line FeatureCollection to `target` atomically (see module doc)."""
    with partial_output(target) as temp, open(temp, "wb", buffering=1 << 20) as file:
        file.write(FC_HEAD)
        yield FeatureSink(file, limits)
        file.write(FC_TAIL)
