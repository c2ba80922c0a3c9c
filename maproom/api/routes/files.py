"""`/sessions/{id}/files`, `/assets` and `/reports` (docs/api-decisions.md)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse

from maproom.api import API_PREFIX
from maproom.api.deps import Caller, ScopedRoute, project_url, public_origin, requires
from maproom.api.responses import OK, json_response
from maproom.api.schemas.common import Ok
from maproom.api.schemas.data import (
    AssetList,
    FileList,
    ReportCreate,
    ReportMeta,
    ReportSaved,
    UploadForm,
    UploadResult,
)
from maproom.api.uploads import receive_upload
from maproom.domain import files, reports
from maproom.errors import RangeNotSatisfiable
from maproom.runtime import conversion_limits
from maproom.storage import scratch

router = APIRouter(prefix=f"{API_PREFIX}/sessions/{{id}}", tags=["files"], route_class=ScopedRoute)
UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {"multipart/form-data": {"schema": UploadForm.model_json_schema()}},
    }
}


@router.get("/files", response_model=FileList, summary="List project files")
@requires("files")
async def list_files(
    id: str,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    cursor: Annotated[str | None, Query()] = None,
) -> Response:
    """The project's files, oldest first; follow `meta.nextCursor` for more."""
    caller = Caller.of(request)
    items, next_cursor = await caller.read(
        files.list_for_project, project_id=id, limit=limit, cursor=cursor
    )
    meta: dict[str, object] = {"count": len(items)}
    if next_cursor:
        meta["nextCursor"] = next_cursor
    return json_response({"data": items, "meta": meta})


@router.post(
    "/files",
    status_code=201,
    response_model=UploadResult,
    summary="Upload a file",
    openapi_extra=UPLOAD_BODY,
)
@requires("files")
async def upload_file(id: str, request: Request) -> Response:
    """Store a file (docs/api-decisions.md); GeoJSON, CSV, Excel and GeoTIFF files become layers."""
    caller = Caller.of(request)
    services = caller.services
    project_id = await caller.read(files.check_project, project_id=id)
    upload = await receive_upload(
        request,
        scratch=scratch.folder(),
        max_bytes=services.settings.upload_max_bytes,
        accept=files.extension_of,
    )
    body = await caller.write(
        files.accept_upload,
        blobs=services.blobs,
        project_id=project_id,
        upload=upload.path,
        file_name=upload.file_name,
        layer_name=upload.fields.get("name") or None,
        base=project_url(request, project_id),
        limits=conversion_limits(services.settings),
        index_later=services.prepare_later,
    )
    return json_response(body, status=201)


@router.get(
    "/files/{fileId}/content",
    summary="Get raw file bytes",
    response_class=Response,
    responses={
        200: {"content": {kind: {} for kind in files.served_types()}},
        206: {"description": "Range", "content": {kind: {} for kind in files.served_types()}},
        416: {"description": "The Range cannot be satisfied (`range_not_satisfiable`)"},
    },
)
@requires("files")
async def file_content(id: str, fileId: str, request: Request) -> Response:
    """The stored bytes, with HTTP Range support; HTML is sandboxed."""
    caller = Caller.of(request)
    found = await caller.read(files.content, project_id=id, file_id=fileId)
    span = _range(request.headers.get("range"), found.size)
    start, end = span or (0, found.size - 1)
    headers = {
        "Accept-Ranges": "bytes",
        "Content-Length": str(max(0, end - start + 1)),
        "Content-Disposition": f"inline; filename*=UTF-8''{quote(found.file_name)}",
        "X-Content-Type-Options": "nosniff",
    }
    if found.file_type in ("html", "htm"):
        headers["Content-Security-Policy"] = "sandbox"
    status = 200
    if span is not None:
        status = 206
        headers["Content-Range"] = f"bytes {start}-{end}/{found.size}"
    chunks = (
        caller.services.blobs.read_range(found.blob_key, start, end) if found.size else iter(())
    )
    return StreamingResponse(chunks, status, headers=headers, media_type=found.content_type)


def _range(header: str | None, size: int) -> tuple[int, int] | None:
    """One `bytes=` range as (start, end) inclusive; None to send everything."""
    if not header or not header.startswith("bytes=") or "," in header:
        return None
    first, _, last = header[6:].strip().partition("-")
    try:
        if first:
            start, end = int(first), int(last) if last else size - 1
        else:
            start, end = max(0, size - int(last)), size - 1
    except ValueError:
        return None
    if start >= size or start > end:
        raise RangeNotSatisfiable(headers={"Content-Range": f"bytes */{size}"})
    return start, min(end, size - 1)


@router.delete("/files/{fileId}", response_model=Ok, summary="Delete a file")
@requires("files")
async def delete_file(id: str, fileId: str, request: Request) -> Response:
    """Delete the file and every layer made from it; an unknown id is fine."""
    caller = Caller.of(request)
    await caller.write(files.remove, blobs=caller.services.blobs, project_id=id, file_id=fileId)
    return json_response(OK)


@router.get("/assets", response_model=AssetList, summary="List all data assets")
@requires("files", "layers")
async def list_assets(id: str, request: Request) -> Response:
    """Layers (top first, with their file folded in), then the files that back no layer."""
    caller = Caller.of(request)
    found = await caller.read(files.assets, project_id=id)
    return json_response({"data": found, "meta": {"count": len(found)}})


@router.post("/reports", status_code=201, response_model=ReportSaved, summary="Save an HTML report")
@requires("reports")
async def save_report(id: str, body: ReportCreate, request: Request) -> Response:
    """Store the HTML (at most 2 MB of UTF-8) as a project file."""
    caller = Caller.of(request)
    saved = await caller.write(
        reports.save,
        blobs=caller.services.blobs,
        project_id=id,
        title=body.title,
        html=body.html,
        origin=public_origin(request),
    )
    return json_response(saved, status=201)


@router.get("/reports/{fileId}", response_model=ReportMeta, summary="Get report metadata")
@requires("reports")
async def report_metadata(id: str, fileId: str, request: Request) -> Response:
    """The report's file record."""
    caller = Caller.of(request)
    return json_response(await caller.read(reports.metadata, project_id=id, file_id=fileId))
