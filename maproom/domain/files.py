"""Project files: uploads turned into layers, listing, content, deletion, assets and reports.

An upload arrives as a complete temporary file. `accept_upload` converts it (api-decisions.md) in a
scratch folder, moves the original and any converted output into the blob store, and records
file and layer in one transaction. If anything fails, the blobs written so far are removed, so a
rejected upload leaves neither a row nor a file behind. Blob keys live under `p/<project id>/`,
which goes as a whole when the project does.
"""

from __future__ import annotations

import mimetypes
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import and_, bindparam, delete, or_, select

from maproom import geo, logs
from maproom.domain import history, layers
from maproom.domain.common import (
    EPOCH,
    decode_cursor,
    encode_cursor,
    iso,
    new_id,
    parse_moment,
    require_uuid,
    utcnow,
)
from maproom.domain.gate import EDIT, get_or_raise, touch
from maproom.domain.keys import Principal
from maproom.errors import BadRequest, NotFound, PayloadTooLarge, UnsupportedMediaType
from maproom.storage import scratch
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import files, view_links
from maproom.storage.models import layers as layer_table

CONTENT_TYPES = {
    "geojson": "application/geo+json",
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "tif": "image/tiff",
    "tiff": "image/tiff",
}
# A file asset's `source`: uploaded by a user, or made by the AI / a map action.
FILE_SOURCES = {"upload": "upload", "report": "ai", "inline": "ai"}
_OLDEST_FIRST = (files.c.created_at, files.c.id)
PROJECT_FILES = Prepared(
    select(files).where(files.c.project_id == bindparam("project_id")).order_by(*_OLDEST_FIRST)
)
_CREATED_AT = bindparam("created_at", type_=files.c.created_at.type)
FILES_PAGE = Prepared(
    select(files)
    .where(
        files.c.project_id == bindparam("project_id"),
        or_(
            files.c.created_at > _CREATED_AT,
            and_(files.c.created_at == _CREATED_AT, files.c.id > bindparam("after_id")),
        ),
    )
    .order_by(*_OLDEST_FIRST)
    .limit(bindparam("limit"))
)
FILE = Prepared(
    select(files).where(
        files.c.id == bindparam("id"), files.c.project_id == bindparam("project_id")
    )
)
FILE_LAYERS = Prepared(
    select(layer_table.c.id, layer_table.c.file_id).where(
        layer_table.c.project_id == bindparam("project_id")
    )
)


@dataclass(frozen=True, slots=True)
class Content:
    """Where a file's bytes are and how to send them."""

    blob_key: str
    size: int
    content_type: str
    file_name: str
    file_type: str


def extension_of(file_name: str) -> str:
    """The lower-case extension without the dot, or UnsupportedMediaType when not accepted."""
    extension = geo.normalize_extension(Path(file_name).suffix)
    if extension not in geo.SUPPORTED:
        accepted = ", ".join(f".{name}" for name in geo.SUPPORTED)
        raise UnsupportedMediaType(
            f"Files of type .{extension or '?'} are not accepted ({accepted})"
        )
    return extension


def served_types() -> list[str]:
    """Every media type a stored file may be served with (for the API's description)."""
    from maproom.geo import SUPPORTED

    kinds = {content_type(extension).split(";")[0] for extension in [*SUPPORTED, "html"]}
    return sorted(kinds | {"application/octet-stream"})


def content_type(file_type: str) -> str:
    """The Content-Type to send a stored file with."""
    guessed = mimetypes.types_map.get(f".{file_type}")
    return CONTENT_TYPES.get(file_type) or guessed or "application/octet-stream"


def record(row: Any, layer_ids: list[str]) -> dict[str, Any]:
    """A file list item (docs/api-decisions.md)."""
    return {
        "id": row.id,
        "fileName": row.file_name,
        "fileType": row.file_type,
        "fileSize": row.file_size,
        "createdAt": iso(row.created_at),
        "layerIds": layer_ids,
    }


def _layer_ids_by_file(tx: Tx, project_id: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for row in tx.all(FILE_LAYERS, project_id=project_id):
        if row.file_id:
            found.setdefault(row.file_id, []).append(row.id)
    return found


def list_for_project(
    db: Database, *, principal: Principal, project_id: str, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """`GET .../files`: the project's files, oldest first, a page at a time."""
    after = (EPOCH, "")
    if cursor:
        moment, after_id = decode_cursor(cursor, 2)
        after = (parse_moment(moment), str(after_id))
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        rows = tx.all(
            FILES_PAGE,
            project_id=project.id,
            created_at=after[0],
            after_id=after[1],
            limit=limit + 1,
        )
        by_file = _layer_ids_by_file(tx, project.id)
    page = rows[:limit]
    next_cursor = None
    if len(rows) > limit:
        next_cursor = encode_cursor([page[-1].created_at.isoformat(), page[-1].id])
    return [record(r, by_file.get(r.id, [])) for r in page], next_cursor


def check_project(db: Database, *, principal: Principal, project_id: str) -> str:
    """The project's canonical id, or NotFound (before an upload's body is read)."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, need=EDIT)
        return str(project.id)


def accept_upload(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    upload: Path,
    file_name: str,
    layer_name: str | None,
    base: str,
    limits: geo.Limits,
    index_later: Callable[[str, list[dict[str, Any]] | None], None] | None = None,
) -> dict[str, Any]:
    """Convert and store an uploaded file, adding its layer; the upload file is consumed. A
    layer that would pass `limits` is 413, with nothing stored. A GeoJSON layer's data key
    goes to `index_later` once stored (its tile index is built after this answers)."""
    extension = extension_of(file_name)
    file_id = new_id()
    prefix = f"p/{project_id}/{file_id}"
    written: list[str] = []
    workdir = Path(tempfile.mkdtemp(dir=scratch.folder()))
    try:
        try:
            conversion = geo.convert(upload, extension, workdir, limits)
        except geo.TooLarge as exc:
            raise PayloadTooLarge(f"{file_name}: {exc.message}") from None
        except geo.GeoError as exc:
            if exc.detail:
                logs.detail("upload %r refused: %s", file_name, exc.detail)
            raise BadRequest(f"{file_name}: {exc.message}") from None
        size = blobs.put_file(f"{prefix}/original", upload)
        written.append(f"{prefix}/original")
        stored = size
        data_key = stats_key = None
        if conversion.output is not None:
            data_key = f"{prefix}/{conversion.output.name}"
            stored += blobs.put_file(data_key, conversion.output)
            written.append(data_key)
        if conversion.stats is not None:
            stats_key = f"{prefix}/{conversion.stats.name}"
            stored += blobs.put_file(stats_key, conversion.stats)
            written.append(stats_key)
        with db.write() as tx:
            project = get_or_raise(tx, principal=principal, project_id=project_id, lock=True)
            row = insert_file(
                tx, project.id, file_id, file_name, extension, size, prefix, stored_bytes=stored
            )
            layer = None
            if conversion.layer_type is not None:
                layer_row = layers.insert(
                    tx,
                    project,
                    file_id=file_id,
                    name=(layer_name or Path(file_name).stem)[:200] or "Layer",
                    layer_type=conversion.layer_type,
                    geometry_type=conversion.geometry_type,
                    visible=True,
                    feature_count=conversion.feature_count,
                    streaming=streaming_of(conversion),
                    source="upload",
                    bbox=list(conversion.bbox) if conversion.bbox else None,
                    data_key=data_key,
                    fields=conversion.fields,
                    stats_key=stats_key,
                )
                layer = layers.detail(layer_row, 0, base)
            else:
                history.say(tx, project.id, f"uploaded {file_name}")
                touch(tx, project, event=("file", {"op": "added", "file_id": file_id}))
        body = record(row, [layer["layer_id"]] if layer else [])
        if index_later is not None and data_key and conversion.layer_type == "geojson":
            index_later(data_key, conversion.fields)
        return {**body, "layer": layer, "skippedRows": conversion.skipped_rows}
    except BaseException:
        for key in written:
            blobs.delete(key)
        raise
    finally:
        upload.unlink(missing_ok=True)
        shutil.rmtree(workdir, ignore_errors=True)


def streaming_of(conversion: geo.Conversion) -> bool:
    """Whether a converted layer is too large for one GeoJSON document (docs/api-decisions.md)."""
    if conversion.layer_type != "geojson":
        return False
    from maproom.geo.tiles import is_streaming  # numpy, shapely, protobuf: imported on demand

    return is_streaming(conversion.feature_count or 0, conversion.output_bytes or 0)


def insert_file(
    tx: Writer,
    project_id: str,
    file_id: str,
    file_name: str,
    file_type: str,
    size: int,
    prefix: str,
    *,
    stored_bytes: int,
    origin: str = "upload",
    title: str | None = None,
) -> Any:
    """Record a stored file (its blob under `prefix/original`; `stored_bytes` all its blobs
    take, derived ones included); returns the row."""
    tx.execute(
        files.insert().values(
            id=file_id,
            project_id=project_id,
            file_name=file_name[:255],
            file_type=file_type,
            file_size=size,
            stored_bytes=stored_bytes,
            content_type=content_type(file_type),
            origin=origin,
            blob_key=f"{prefix}/original",
            title=title,
            created_at=utcnow(),
        )
    )
    return tx.one(FILE, id=file_id, project_id=project_id)


def content(db: Database, *, principal: Principal, project_id: str, file_id: str) -> Content:
    """Where a file's bytes are, for streaming them out."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        row = tx.one(FILE, id=require_uuid(file_id, "File"), project_id=project.id)
    if row is None:
        raise NotFound("File not found")
    return content_of(row)


def content_of(row: Any) -> Content:
    """Where a file row's bytes are and how to send them."""
    return Content(row.blob_key, row.file_size, row.content_type, row.file_name, row.file_type)


def remove(
    db: Database, *, principal: Principal, blobs: BlobStore, project_id: str, file_id: str
) -> None:
    """Delete a file and every layer made from it; an unknown file id is not an error."""
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, lock=True)
        row = tx.one(FILE, id=file_id, project_id=project.id)
        if row is None:
            return
        gone = _layer_ids_by_file(tx, project.id).get(row.id, [])
        layers.delete_rows(tx, project.id, gone)
        tx.execute(delete(files).where(files.c.id == row.id))
        history.say(tx, project.id, f"deleted file {row.file_name}")
        tx.execute(delete(view_links).where(view_links.c.file_id == row.id))  # report links
        touch(tx, project, event=("file", {"op": "removed", "file_id": row.id, "layer_ids": gone}))
    blobs.delete_prefix(f"p/{project.id}/{row.id}")


def assets(db: Database, *, principal: Principal, project_id: str) -> list[dict[str, Any]]:
    """`GET .../assets`: layers (top first, with their file folded in), then other files."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        layer_rows = layers.rows_top_first(tx, project.id)
        file_rows = tx.all(PROJECT_FILES, project_id=project.id)
    backing = {row.file_id for row in layer_rows if row.file_id}
    found = [
        {
            "assetType": "layer",
            **layers.list_item(row),
            "order": order,
            "source": row.source,
            "file_type": row.file_type,
            "file_size": row.file_size,
        }
        for order, row in enumerate(layer_rows)
    ]
    found += [
        {
            "assetType": "file",
            "file_id": row.id,
            "name": row.file_name,
            "file_type": row.file_type,
            "file_size": row.file_size,
            "source": FILE_SOURCES.get(row.origin, row.origin),
            "createdAt": iso(row.created_at),
        }
        for row in file_rows
        if row.id not in backing
    ]
    return found


def copy_project(tx: Writer, blobs: BlobStore, source_id: str, target_id: str) -> list[str]:
    """Copy every file (blobs too) and layer of one project into another; returns new prefixes."""
    new_ids: dict[str, str] = {}
    prefixes: list[str] = []
    for row in tx.all(PROJECT_FILES, project_id=source_id):
        new_ids[row.id] = file_id = new_id()
        prefix = f"p/{target_id}/{file_id}"
        prefixes.append(prefix)
        values = row._asdict() | {"id": file_id, "project_id": target_id}
        values["blob_key"] = f"{prefix}/original"
        blobs.copy(row.blob_key, values["blob_key"])
        tx.execute(files.insert().values(**values))
    for row in tx.execute(select(layer_table).where(layer_table.c.project_id == source_id)):
        values = row._asdict() | {"id": new_id(), "project_id": target_id, "version": 1}
        if row.file_id:
            values["file_id"] = new_ids[row.file_id]
        for column in ("data_key", "stats_key"):
            key = getattr(row, column)
            if key:
                values[column] = key.replace(
                    f"p/{source_id}/{row.file_id}", f"p/{target_id}/{values['file_id']}"
                )
                blobs.copy(key, values[column])
        if row.layer_type == "geojson" and row.data_key:  # its tile index, when it has one
            index = tiles_key(row.data_key)
            if blobs.exists(index):
                blobs.copy(index, tiles_key(values["data_key"]))
        tx.execute(layer_table.insert().values(**values))
    return prefixes


def tiles_key(data_key: str) -> str:
    """Where a GeoJSON layer's tile index is kept: beside its data."""
    return f"{data_key.rsplit('/', 1)[0]}/{geo.TILES_NAME}"
