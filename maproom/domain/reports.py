"""Reports: HTML documents saved as project files, announced by `file_generated`."""

from __future__ import annotations

import re
from typing import Any

from maproom.domain import files, history, links
from maproom.domain.common import iso, new_id, require_uuid
from maproom.domain.gate import get_or_raise, touch
from maproom.domain.keys import Principal
from maproom.errors import NotFound, PayloadTooLarge
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database

MAX_HTML_BYTES = 2 * 1_048_576


def _file_name(title: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", title).strip("-.")[:80]
    return f"{slug or 'report'}.html"


def save(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    title: str,
    html: str,
    origin: str,
) -> dict[str, Any]:
    """Store the HTML as a project file, make its report link (`/r/{token}`, opened without a
    key) and record a `file_generated` event with that link."""
    project_id = require_uuid(project_id, "Project")
    data = html.encode("utf-8")
    if len(data) > MAX_HTML_BYTES:
        raise PayloadTooLarge(f"Report HTML is {len(data)} bytes; at most {MAX_HTML_BYTES}")
    file_id = new_id()
    prefix = f"p/{project_id}/{file_id}"
    blobs.put_bytes(f"{prefix}/original", data)
    try:
        with db.write() as tx:
            project = get_or_raise(tx, principal=principal, project_id=project_id, lock=True)
            row = files.insert_file(
                tx,
                project.id,
                file_id,
                _file_name(title),
                "html",
                len(data),
                prefix,
                stored_bytes=len(data),
                origin="report",
                title=title,
            )
            link = links.insert(tx, project.id, "report", file_id=file_id)
            url = f"{origin}{link.path}"
            event = {
                "file_id": file_id,
                "file_name": row.file_name,
                "description": title,
                "url": url,
            }
            history.say(tx, project.id, f"saved report {title}")
            touch(tx, project, event=("file_generated", event))
    except BaseException:
        blobs.delete_prefix(prefix)
        raise
    return {"ok": True, "file_id": file_id, "url": url}


def metadata(db: Database, *, principal: Principal, project_id: str, file_id: str) -> Any:
    """`GET .../reports/{fileId}`: the report's file record in a `data` envelope."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        row = tx.one(files.FILE, id=require_uuid(file_id, "Report"), project_id=project.id)
    if row is None or row.origin != "report":
        raise NotFound("Report not found")
    return {
        "data": {
            "id": row.id,
            "fileName": row.file_name,
            "fileType": row.file_type,
            "fileSize": row.file_size,
            "createdAt": iso(row.created_at),
        }
    }


def opened(db: Database, token: str) -> files.Content:
    """The report behind a report link (`/r/{token}`); NotFound once the link is revoked or
    expired, or the report or its project is deleted."""
    link = links.resolve(db, token, "report")
    with db.reader() as tx:
        row = tx.one(files.FILE, id=link.file_id, project_id=link.project_id)
    if row is None:
        raise NotFound("This report does not exist")
    return files.content_of(row)
