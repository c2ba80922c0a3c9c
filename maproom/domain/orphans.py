"""Blobs no row refers to, removed at start (docs/api-decisions.md, files and uploads).

An upload or an action batch writes its blobs first and its rows after, in one transaction;
deleting a file or a project removes the rows first and the blobs after. A process killed
between the two leaves blobs behind that nothing refers to and nothing would ever remove: they
are found at start, by listing the store, and removed. A blob younger than the grace period
(`MAPROOM_ORPHAN_GRACE_S`, an hour by default) is spared: it may belong to an upload another
worker is finishing right now, whose rows are not committed yet.

Blobs live under `p/{project}/{file}/...`; a file's folder is kept while its `files` row exists.
Storage use (`/usage`) is summed from the rows, so an orphan never counted there.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from collections.abc import Iterator

from sqlalchemy import bindparam, select

from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database, Prepared
from maproom.storage.models import files

log = logging.getLogger("maproom")

FILES_OF_PROJECT = Prepared(select(files.c.id).where(files.c.project_id == bindparam("project_id")))


def _folders(blobs: BlobStore) -> Iterator[tuple[str, str, float]]:
    """`(project id, file id, newest modification)` of every file folder in the store."""
    newest: dict[tuple[str, str], float] = defaultdict(float)
    for key, _, modified in blobs.listing("p"):
        parts = key.split("/")
        if len(parts) >= 4:
            folder = (parts[1], parts[2])
            newest[folder] = max(newest[folder], modified)
    for (project_id, file_id), modified in newest.items():
        yield project_id, file_id, modified


def sweep(
    db: Database,
    blobs: BlobStore,
    *,
    grace_seconds: float,
    stop: threading.Event | None = None,
    now: float | None = None,
) -> int:
    """Remove the file folders no row refers to and untouched for `grace_seconds`; returns how
    many were removed. Safe to run while serving."""
    cutoff = (time.time() if now is None else now) - grace_seconds
    by_project: dict[str, list[str]] = defaultdict(list)
    for project_id, file_id, modified in _folders(blobs):
        if modified <= cutoff:
            by_project[project_id].append(file_id)
    removed = 0
    for project_id, folders in by_project.items():
        if stop is not None and stop.is_set():
            break
        with db.reader() as tx:
            known = {row.id for row in tx.all(FILES_OF_PROJECT, project_id=project_id)}
        for file_id in folders:
            if file_id not in known:
                blobs.delete_prefix(f"p/{project_id}/{file_id}")
                removed += 1
    return removed
