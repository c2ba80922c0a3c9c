"""`GET .../layers/{layerId}/export`: a layer's data as a GIS file (docs/exports.md).

A vector layer exports what it draws (the features its style's filter keeps), narrowed by the
request's `filter`, as GeoJSON, GeoPackage, FlatGeobuf, CSV (WKT geometry) or GeoParquet; a
raster layer exports its stored Cloud Optimized GeoTIFF. Files other than GeoJSON are written
by the analysis engine into this process's scratch folder and unlinked as soon as they are
opened, so a client that leaves mid-download leaves no file behind.
"""

from __future__ import annotations

import re
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from maproom.domain import filters, layers
from maproom.domain.analysis import Analysis
from maproom.domain.gate import get_or_raise
from maproom.domain.keys import Principal
from maproom.errors import BadRequest
from maproom.geo import export as writers
from maproom.geo.geojson import kept_lines
from maproom.storage import scratch
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database

CHUNK = 1 << 20
MEDIA_TYPES = [f.media_type for f in (*writers.FORMATS.values(), writers.RASTER)]
_UNSAFE = re.compile(r"[^\w.-]+")


@dataclass(frozen=True)
class Download:
    """An export on its way out: its name, media type, bytes (a chunk at a time) and size
    when known before the first byte."""

    filename: str
    media_type: str
    chunks: Iterator[bytes]
    size: int | None = None

    @property
    def disposition(self) -> str:
        """`Content-Disposition`: an attachment, named in ASCII and in UTF-8."""
        plain = self.filename.encode("ascii", "replace").decode().replace('"', "_")
        return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(self.filename)}"


def _fail(path: str, message: str) -> BadRequest:
    return BadRequest(f"{path}: {message}", details=[{"path": path, "message": message}])


def filename(name: str, extension: str) -> str:
    """A file name from a layer's name (letters, digits, `.`, `-`, `_`)."""
    stem = _UNSAFE.sub("_", name).strip("._") or "layer"
    return f"{stem[:100]}.{extension}"


def export(
    db: Database,
    *,
    principal: Principal,
    analysis: Analysis,
    blobs: BlobStore,
    project_id: str,
    layer_id: str,
    fmt: str | None,
    where: str | None,
    cancelled: threading.Event | None = None,
) -> Download:
    """The layer's export in `fmt` (module docstring; None: GeoJSON, or a raster's COG); 400
    for a format the layer has not."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        row = layers.row_of(tx, project.id, layer_id)
    if row.data_key is None:
        raise BadRequest(
            "This layer's data is read from its URL and not stored by maproom: fetch it from there"
        )
    if row.layer_type == "cog":
        if fmt not in (None, writers.RASTER.name):
            raise _fail("format", "a raster layer exports as tif (its Cloud Optimized GeoTIFF)")
        size = blobs.size(row.data_key)
        chunks = blobs.read_range(row.data_key, 0, size - 1)
        return Download(filename(row.name, "tif"), writers.RASTER.media_type, chunks, size)
    chosen = writers.FORMATS.get(fmt or "geojson")
    if chosen is None:
        raise _fail("format", f"expected one of {', '.join(writers.FORMATS)} for a vector layer")
    kept = _both(layers.filter_of(row), filters.from_query(where, row.fields))
    name = filename(row.name, chosen.extension)
    if chosen.name == "geojson":
        path = blobs.local_path(row.data_key)
        return Download(name, chosen.media_type, kept_lines(path, kept))
    table = analysis.table(row.data_key, row.fields)
    with tempfile.TemporaryDirectory(dir=scratch.folder()) as work:
        out = Path(work) / name
        analysis.run(
            lambda job: writers.write(job.cursor, table, kept, chosen, out, row.name), cancelled
        )
        size = out.stat().st_size
        stream = out.open("rb")  # the folder goes now; the open file stays readable
    return Download(name, chosen.media_type, _read(stream), size)


def _both(first: dict[str, Any] | None, second: dict[str, Any] | None) -> dict[str, Any] | None:
    if first is None or second is None:
        return first or second
    return {"all": [first, second]}


def _read(stream: Any) -> Iterator[bytes]:
    with stream:
        while chunk := stream.read(CHUNK):
            yield chunk
