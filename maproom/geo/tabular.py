"""Tables (.csv, .xlsx, .xls) to GeoJSON: find the coordinate columns, stream rows to features.

Coordinate columns (docs/api-decisions.md; names compared without case or surrounding spaces):
a latitude column `lat`, `latitude` or `y` with a longitude column `lon`, `lng`, `long`,
`longitude` or `x` makes Point features (earlier names in each list win); failing that, a geometry
column `geometry`, `geom`, `wkt` or `the_geom` holds per row WKT (an EWKT `SRID=...;` prefix is
dropped), a GeoJSON geometry object, or hex WKB as PostGIS exports it. A table with neither raises
`GeoError` naming the columns looked for and the columns found.

The coordinate columns are left out of the properties; every other column becomes one, typed:
integers and decimals become JSON numbers, the rest stay strings, an empty cell is null. Numbers
that would not survive the trip stay strings: leading zeros (`"007"`, postcodes), integers beyond
2^53, NaN and infinities. Spreadsheet cells keep their own type (integral floats become integers,
dates ISO strings, booleans booleans); text cells are typed like CSV fields.

A row whose coordinates are empty, not numbers (a decimal comma is tolerated), out of range
(latitude [-90, 90], longitude [-180, 180]) or whose geometry cannot be read is skipped and
counted in `skipped_rows`; a blank row is ignored. A table whose every row was skipped raises.

CSV is streamed: the encoding is sniffed in one pass (a UTF-8 or UTF-16 byte-order mark, else
UTF-8 if the whole file decodes, else Windows-1252, else Latin-1), the delimiter from the first
64 KB (comma, semicolon, tab or pipe: the one giving most rows the header's width, and more than
one column), then rows are read by `csv.reader` and written one feature at a time, so memory
stays flat whatever the row count (the field size limit of the `csv` module is raised to 64 MB
for large WKT cells). Workbooks: first sheet, first non-blank row as header. They are read
with python-calamine (format sniffed from the content, so an .xls holding XLSX still opens),
which holds the sheet in memory; so an XLSX is measured first, from its archive's directory:
if it would expand past the conversion limits (`Limits`: a small zip can hold gigabytes of
XML) it is refused at once, and if its worksheets' XML passes `CALAMINE_MAX_XML` it is read as a
stream with openpyxl's read-only mode instead (slower, memory flat but for the shared strings,
capped at `SHARED_STRINGS_MAX`). An .xls (no compression, at most 65,536 rows) is bounded by
the upload ceiling itself.
"""

from __future__ import annotations

import codecs
import csv
import re
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, time
from pathlib import Path
from typing import IO, Any

import orjson

from maproom.geo import geojson
from maproom.geo.base import (
    GEOJSON_NAME,
    Conversion,
    FeatureSink,
    GeoError,
    Limits,
    TooLarge,
    feature_writer,
)
from maproom.geo.fields import FieldProfiler, write_profile

LAT_NAMES = ("lat", "latitude", "y")
LON_NAMES = ("lon", "lng", "long", "longitude", "x")
GEOMETRY_NAMES = ("geometry", "geom", "wkt", "the_geom")
DELIMITERS = (",", ";", "\t", "|")

MAX_SAFE_INTEGER = 2**53
_SAMPLE_CHARS = 65_536
_FIELD_LIMIT = 64 * 1_048_576
_INTEGER = re.compile(r"[-+]?(?:0|[1-9][0-9]*)").fullmatch
_DECIMAL = re.compile(
    r"[-+]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
).fullmatch
_NUMBER_START = frozenset("0123456789+-.")
_HEX = re.compile(r"[0-9A-Fa-f]+").fullmatch
_EWKT_SRID = re.compile(r"SRID=\d+;", re.IGNORECASE)

Typer = Callable[[Any], Any]
CALAMINE_MAX_XML = 32 * 1_048_576  # worksheet XML above this is streamed (openpyxl)
SHARED_STRINGS_MAX = 128 * 1_048_576


@dataclass(frozen=True)
class Columns:
    """Where the coordinates are in a table, and which columns become which properties."""

    lat: int | None
    lon: int | None
    geometry: int | None
    properties: tuple[tuple[str, int], ...]
    width: int


def convert_csv(source: Path, workdir: Path, limits: Limits) -> Conversion:
    """Convert a delimited text file to a GeoJSON layer, streaming (see module doc)."""
    encoding = sniff_encoding(source)
    with open(source, encoding=encoding, newline="") as text:
        delimiter = sniff_delimiter(text.read(_SAMPLE_CHARS))
    # process-wide, and only ever raised: a WKT polygon cell easily passes the 128 KB default
    csv.field_size_limit(max(csv.field_size_limit(), _FIELD_LIMIT))
    with open(source, encoding=encoding, newline="") as text:
        reader = csv.reader(text, delimiter=delimiter, skipinitialspace=True)
        try:
            return _convert_rows(reader, workdir, typed_text, limits)
        except csv.Error as exc:
            raise GeoError(f"not a readable CSV file (line {reader.line_num}): {exc}") from None


def convert_sheet(source: Path, workdir: Path, limits: Limits) -> Conversion:
    """Convert the first sheet of an Excel workbook (.xlsx or .xls) to a GeoJSON layer (see
    the module docstring for how memory is kept bounded)."""
    from python_calamine import CalamineError, CalamineWorkbook

    if zipfile.is_zipfile(source) and _expanded_sheets(source, limits) > CALAMINE_MAX_XML:
        return _convert_rows(_streamed_rows(source), workdir, typed_cell, limits)
    try:
        with open(source, "rb") as file:
            workbook = CalamineWorkbook.from_filelike(file)
        if not workbook.sheet_names:
            raise GeoError("the workbook has no sheet")
        rows = iter(workbook.get_sheet_by_index(0).iter_rows())
        return _convert_rows(rows, workdir, typed_cell, limits)
    except CalamineError as exc:
        raise GeoError(
            "not a readable Excel workbook (damaged, encrypted, or not a workbook)", str(exc)
        ) from None


def _expanded_sheets(source: Path, limits: Limits) -> int:
    """The uncompressed size of an XLSX's worksheets; TooLarge when the whole archive would
    expand past `limits` or its shared strings (held in memory) past `SHARED_STRINGS_MAX`."""
    try:
        with zipfile.ZipFile(source) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise GeoError("not a readable Excel workbook (a damaged archive)", str(exc)) from None
    limits.check(0, sum(entry.file_size for entry in entries))
    shared = sum(e.file_size for e in entries if e.filename.lower() == "xl/sharedstrings.xml")
    if shared > SHARED_STRINGS_MAX:
        raise TooLarge(
            f"the workbook holds more than {SHARED_STRINGS_MAX // 1_048_576} MB of distinct "
            "texts, the most an upload may hold"
        )
    return sum(
        entry.file_size
        for entry in entries
        if entry.filename.lower().startswith("xl/worksheets/") and entry.filename.endswith(".xml")
    )


def _streamed_rows(source: Path) -> Iterator[Sequence[Any]]:
    """The first sheet's rows, read as a stream (openpyxl's read-only mode)."""
    import openpyxl

    with open(source, "rb") as file:  # a file, not a path: openpyxl wants .xlsx names
        try:
            workbook = openpyxl.load_workbook(file, read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many kinds for a damaged workbook
            raise GeoError(
                "not a readable Excel workbook (damaged, encrypted, or not a workbook)", str(exc)
            ) from None
        try:
            if not workbook.worksheets:
                raise GeoError("the workbook has no sheet")
            for row in workbook.worksheets[0].iter_rows(values_only=True):
                yield ["" if cell is None else cell for cell in row]
        finally:
            workbook.close()


def find_columns(header: Sequence[Any]) -> Columns:
    """Locate the coordinate columns in a header row, or raise GeoError naming what was sought."""
    names = [str(cell if cell is not None else "").strip() for cell in header]
    lowered = [name.lower() for name in names]
    lat, lon = _first(lowered, LAT_NAMES), _first(lowered, LON_NAMES)
    geometry = None
    if lat is None or lon is None:
        lat = lon = None
        geometry = _first(lowered, GEOMETRY_NAMES)
        if geometry is None:
            raise GeoError(_no_columns_message(names))
    used = {lat, lon, geometry}
    properties = tuple(
        (name or f"column_{index + 1}", index)
        for index, name in enumerate(names)
        if index not in used
    )
    return Columns(lat, lon, geometry, properties, len(names))


def typed_text(value: str) -> Any:
    """A text field as JSON wants it: an int, a float, the string itself, or None when empty."""
    if not value:
        return None
    if value[0] not in _NUMBER_START:
        return value
    if value.isdigit() and value.isascii():  # the common case, without a regular expression
        if value[0] == "0" and len(value) > 1:
            return value  # a leading zero: an identifier or a postcode
        number = int(value)
        return number if number <= MAX_SAFE_INTEGER else value
    head, dot, tail = value.partition(".")
    if dot and tail.isdigit() and tail.isascii():  # a plain decimal, the next common case
        digits = head[1:] if head[:1] in ("-", "+") else head
        if (
            not digits
            or digits == "0"
            or (digits.isdigit() and digits.isascii() and digits[0] != "0")
        ):
            return float(value)
    if _INTEGER(value):
        number = int(value)
        return number if -MAX_SAFE_INTEGER <= number <= MAX_SAFE_INTEGER else value
    if _DECIMAL(value):
        decimal = float(value)
        return decimal if decimal - decimal == 0 else value
    return value


def typed_cell(value: Any) -> Any:
    """A spreadsheet cell as JSON wants it (text cells typed as by `typed_text`)."""
    if isinstance(value, str):
        return typed_text(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else str(value)
    if isinstance(value, float):
        if value - value != 0:
            return None
        if value.is_integer() and abs(value) <= MAX_SAFE_INTEGER:
            return int(value)
        return value
    if isinstance(value, date | time):
        return value.isoformat()
    return None if value is None else str(value)


def sniff_encoding(source: Path) -> str:
    """The text encoding of a file: by byte-order mark, else the first that decodes it whole."""
    with open(source, "rb") as file:
        head = file.read(4)
        if head.startswith(codecs.BOM_UTF8):
            return "utf-8-sig"
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return "utf-16"
        for encoding in ("utf-8", "cp1252"):
            file.seek(0)
            if _decodes(file, encoding):
                return encoding
    return "latin-1"


def sniff_delimiter(sample: str) -> str:
    """The delimiter that splits most sample rows into the header's width (of two or more)."""
    lines = sample.splitlines()
    if len(sample) >= _SAMPLE_CHARS and len(lines) > 1:
        lines.pop()  # cut off mid-line
    best, best_score = DELIMITERS[0], (0, 0)
    for delimiter in DELIMITERS:
        rows = [row for row in csv.reader(lines[:100], delimiter=delimiter) if row]
        if not rows or len(rows[0]) < 2:
            continue
        width = len(rows[0])
        score = (sum(len(row) == width for row in rows), width)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _convert_rows(
    rows: Iterator[Sequence[Any]], workdir: Path, typed: Typer, limits: Limits
) -> Conversion:
    """Find the columns in the first non-blank row, then write every later row as a feature."""
    header = next((row for row in rows if not _blank(row)), None)
    if header is None:
        raise GeoError("the table is empty; expected a header row naming coordinate columns")
    columns = find_columns(header)
    target = workdir / GEOJSON_NAME
    profiler = FieldProfiler()
    with feature_writer(target, limits) as sink:
        if columns.geometry is None:
            skipped, extent = _write_points(rows, columns, sink, typed, profiler)
        else:
            skipped, extent = _write_geometries(rows, columns, sink, typed, profiler)
        if skipped and not sink.count:
            raise GeoError(_all_skipped_message(columns, skipped))
    return Conversion(
        layer_type="geojson",
        output=target,
        feature_count=sink.count,
        geometry_type=extent.label(),
        bbox=extent.bbox(),
        skipped_rows=skipped,
        output_bytes=target.stat().st_size,
        **write_profile(profiler.profile(), workdir),
    )


def _write_points(
    rows: Iterator[Sequence[Any]],
    columns: Columns,
    sink: FeatureSink,
    typed: Typer,
    profiler: FieldProfiler,
) -> tuple[int, geojson.Extent]:
    """The lat/lon fast path: one Point feature per row, no geometry library involved."""
    assert columns.lat is not None and columns.lon is not None
    ilat, ilon, width, properties = columns.lat, columns.lon, columns.width, columns.properties
    dumps, write, profile = orjson.dumps, sink.write, profiler.add
    min_x = min_y = float("inf")
    max_x = max_y = float("-inf")
    skipped = 0
    for row in rows:
        if len(row) != width:
            row = _fit(row, width)
        try:
            lat, lon = float(row[ilat]), float(row[ilon])
        except (ValueError, TypeError):
            point = _loose_point(row[ilat], row[ilon])
            if point is None:
                skipped += 0 if _blank(row) else 1
                continue
            lat, lon = point
        if not (-90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0):
            skipped += 1
            continue
        if lon < min_x:
            min_x = lon
        if lon > max_x:
            max_x = lon
        if lat < min_y:
            min_y = lat
        if lat > max_y:
            max_y = lat
        geometry = {"type": "Point", "coordinates": [lon, lat]}
        props = {name: typed(row[index]) for name, index in properties}
        profile(props)
        write(dumps({"type": "Feature", "geometry": geometry, "properties": props}))
    extent = geojson.Extent()
    if sink.count:
        extent.add_box(min_x, min_y, max_x, max_y)
        extent.kinds.add("Point")
    return skipped, extent


def _write_geometries(
    rows: Iterator[Sequence[Any]],
    columns: Columns,
    sink: FeatureSink,
    typed: Typer,
    profiler: FieldProfiler,
) -> tuple[int, geojson.Extent]:
    """The geometry-column path: parse and check each row's WKT, GeoJSON or hex WKB."""
    assert columns.geometry is not None
    igeom, width, properties = columns.geometry, columns.width, columns.properties
    extent = geojson.Extent()
    skipped = 0
    for row in rows:
        if len(row) != width:
            row = _fit(row, width)
        geometry = _parse_geometry(row[igeom], extent)
        if geometry is None:
            skipped += 0 if _blank(row) else 1
            continue
        props = {name: typed(row[index]) for name, index in properties}
        profiler.add(props)
        sink.write(orjson.dumps({"type": "Feature", "geometry": geometry, "properties": props}))
    return skipped, extent


def _parse_geometry(value: Any, extent: geojson.Extent) -> Any:
    """A checked GeoJSON geometry from one cell (added to `extent`), or None if unusable."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    try:
        geometry = orjson.loads(text) if text.startswith("{") else _parse_shape(text)
        if geometry is None:
            return None
        row_extent = geojson.Extent()
        geojson.check_geometry(geometry, "", row_extent)
    except (GeoError, ValueError):
        return None
    extent.merge(row_extent)
    return geometry


def _parse_shape(text: str) -> Any:
    """A GeoJSON-like mapping from WKT, EWKT or hex WKB, or None for an empty geometry."""
    import shapely  # only tables with a geometry column pay for the import
    from shapely.geometry import mapping

    try:
        if _HEX(text):
            shape = shapely.from_wkb(text)
        else:
            shape = shapely.from_wkt(_EWKT_SRID.sub("", text, count=1))
    except shapely.errors.ShapelyError as exc:
        raise ValueError(str(exc)) from None
    if shape is None or shape.is_empty:
        return None
    return mapping(shape)


def _loose_point(lat: Any, lon: Any) -> tuple[float, float] | None:
    """Coordinates written with a decimal comma (`52,5`), or None when they are not numbers."""
    try:
        return float(str(lat).strip().replace(",", ".", 1)), float(
            str(lon).strip().replace(",", ".", 1)
        )
    except ValueError:
        return None


def _fit(row: Sequence[Any], width: int) -> list[Any]:
    """A short row padded with empty cells, a long one cut to the header's width."""
    return [*row[:width], *([""] * (width - len(row)))]


def _blank(row: Sequence[Any]) -> bool:
    return all(cell is None or cell == "" for cell in row)


def _first(names: list[str], wanted: Sequence[str]) -> int | None:
    """Index of the first of `wanted` (in its order of preference) present in `names`."""
    for name in wanted:
        if name in names:
            return names.index(name)
    return None


def _decodes(file: IO[bytes], encoding: str) -> bool:
    """Whether the rest of `file` decodes in `encoding`, read in 1 MB chunks."""
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        while chunk := file.read(1_048_576):
            decoder.decode(chunk)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _no_columns_message(found: list[str]) -> str:
    shown = ", ".join(repr(name) for name in found[:20]) + (", ..." if len(found) > 20 else "")
    return (
        "no coordinate columns: looked for a latitude column ("
        + ", ".join(LAT_NAMES)
        + ") with a longitude column ("
        + ", ".join(LON_NAMES)
        + "), or a geometry column ("
        + ", ".join(GEOMETRY_NAMES)
        + f") holding WKT or GeoJSON; found columns: {shown or 'none'}"
    )


def _all_skipped_message(columns: Columns, skipped: int) -> str:
    if columns.geometry is None:
        return (
            f"none of the {skipped} rows has usable coordinates: latitude must be a number in "
            "[-90, 90] and longitude in [-180, 180] (WGS84 degrees)"
        )
    return f"none of the {skipped} rows has a readable WKT or GeoJSON geometry in WGS84 degrees"
