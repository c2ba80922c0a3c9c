"""View links: read-only live and static pages of one project behind an unguessable token.

A link is created by `POST .../live-view-url` or `.../static-view-url` (docs/live.md), lives
until it is revoked, expires, or its project is deleted (the row goes with it), and is the
only key its pages need: `resolve(token)` answers NotFound for anything else, so a dead link
is a 404 at once. Revoking a link, and deleting a project, tell the live streams through the
commit topics `link-gone:{id}` and `gone:{project id}` (`maproom.events.hub`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, select

from maproom.domain import layers
from maproom.domain.common import iso, new_id, require_uuid, utcnow
from maproom.domain.gate import EDIT, PROJECT_BY_ID, get_or_raise
from maproom.domain.keys import Principal
from maproom.errors import NotFound
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import events, view_links

KINDS = {"live": "/live", "static": "/embed", "report": "/r"}
BY_TOKEN = Prepared(select(view_links).where(view_links.c.token == bindparam("token")))
OF_PROJECT = Prepared(
    select(view_links)
    .where(view_links.c.project_id == bindparam("project_id"))
    .order_by(view_links.c.created_at, view_links.c.id)
)
LAST_EVENT = Prepared(
    select(events.c.id)
    .where(events.c.project_id == bindparam("project_id"))
    .order_by(events.c.id.desc())
    .limit(1)
)


@dataclass(frozen=True, slots=True)
class Link:
    """A live view link, as its pages and stream need it."""

    id: str
    project_id: str
    kind: str
    token: str
    allowed_origins: tuple[str, ...] | None
    expires_at: datetime | None

    file_id: str | None = None  # a report link's report

    @property
    def path(self) -> str:
        """The page's path: `/live/{token}`, `/embed/{token}` or `/r/{token}`."""
        return f"{KINDS[self.kind]}/{self.token}"

    def frame_ancestors(self) -> str:
        """The page's CSP `frame-ancestors` source list: the allowed origins, else any."""
        return " ".join(self.allowed_origins) if self.allowed_origins else "*"


def _link(row: Any) -> Link:
    origins = tuple(row.allowed_origins) if row.allowed_origins else None
    return Link(row.id, row.project_id, row.kind, row.token, origins, row.expires_at, row.file_id)


def record(row: Any, origin: str) -> dict[str, Any]:
    """A link as `GET .../view-links` lists it."""
    link = _link(row)
    return {
        "id": link.id,
        "kind": link.kind,
        "url": f"{origin}{link.path}",
        "createdAt": iso(row.created_at),
        "expiresAt": iso(row.expires_at),
        "allowedOrigins": list(link.allowed_origins) if link.allowed_origins else None,
    }


def create(
    db: Database,
    *,
    principal: Principal,
    project_id: str,
    kind: str,
    expires_in_seconds: int | None,
    allowed_origins: list[str] | None,
) -> Link:
    """A new link to the caller's project (each call makes a new one)."""
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, need=EDIT)
        return insert(tx, project.id, kind, expires_in_seconds, allowed_origins)


def insert(
    tx: Writer,
    project_id: str,
    kind: str,
    expires_in_seconds: int | None = None,
    allowed_origins: list[str] | None = None,
    file_id: str | None = None,
) -> Link:
    """A new link row, in the caller's transaction (the project already checked)."""
    now = utcnow()
    link = Link(
        new_id(),
        project_id,
        kind,
        secrets.token_urlsafe(24),
        tuple(allowed_origins) if allowed_origins else None,
        now + timedelta(seconds=expires_in_seconds) if expires_in_seconds else None,
        file_id,
    )
    tx.execute(
        view_links.insert().values(
            id=link.id,
            project_id=project_id,
            kind=kind,
            token=link.token,
            allowed_origins=allowed_origins or None,
            created_at=now,
            expires_at=link.expires_at,
            file_id=file_id,
        )
    )
    return link


def list_for_project(db: Database, *, principal: Principal, project_id: str) -> list[Any]:
    """The project's links, oldest first (expired ones included, with their `expiresAt`)."""
    with db.reader() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id)
        return tx.all(OF_PROJECT, project_id=project.id)


def revoke(db: Database, *, principal: Principal, project_id: str, link_id: str) -> None:
    """Delete a link: its pages answer 404 and its open streams close at once."""
    link_id = require_uuid(link_id, "View link")
    with db.write() as tx:
        project = get_or_raise(tx, principal=principal, project_id=project_id, need=EDIT)
        gone = tx.execute(
            delete(view_links).where(
                view_links.c.id == link_id, view_links.c.project_id == project.id
            )
        ).rowcount
        if not gone:
            raise NotFound("View link not found")
        tx.notify(f"link-gone:{link_id}")


def resolve(db: Database, token: str, kind: str | None = None) -> Link:
    """The live link behind a token; NotFound when unknown, expired, or of another kind."""
    if not token or len(token) > 64:
        raise NotFound("This view link does not exist")
    with db.reader() as tx:
        row = tx.one(BY_TOKEN, token=token)
    if row is None or (kind is not None and row.kind != kind):
        raise NotFound("This view link does not exist")
    if row.expires_at is not None and row.expires_at <= utcnow():
        raise NotFound("This view link has expired")
    return _link(row)


def state(db: Database, link: Link, base: str) -> dict[str, Any]:
    """What a page draws: the project's map state and its layers (URLs under `base`)."""
    with db.reader() as tx:
        project = tx.one(PROJECT_BY_ID, id=link.project_id)
        if project is None:
            raise NotFound("This view link does not exist")
        return _state(tx, project, base)


def _state(tx: Tx, project: Any, base: str) -> dict[str, Any]:
    last = tx.one(LAST_EVENT, project_id=project.id)
    return {
        "project": {"id": project.id, "title": project.title, "mapState": project.map_state},
        "layers": layers.drawn(tx, project.id, base),
        "lastEventId": last.id if last else 0,
    }


def tilejson(db: Database, link: Link, layer_id: str, base: str) -> dict[str, Any]:
    """TileJSON of a layer of the link's project, its tiles under `base`."""
    return layers.tilejson(layer_row(db, link, layer_id), base)


def title(db: Database, link: Link) -> str:
    """The title of the link's project (the page's title)."""
    with db.reader() as tx:
        project = tx.one(PROJECT_BY_ID, id=link.project_id)
    if project is None:
        raise NotFound("This view link does not exist")
    return str(project.title)


def layer_row(db: Database, link: Link, layer_id: str) -> Any:
    """A layer of the link's project whose stored data a page asks for."""
    with db.reader() as tx:
        row = tx.one(layers.LAYER, id=require_uuid(layer_id, "Layer"), project_id=link.project_id)
    if row is None or (row.data_key is None and not (row.layer_type == "cog" and row.remote_url)):
        raise NotFound("Layer not found")
    return row


HISTORY = 1000
"""How far back a stream resumes from the log; an older `Last-Event-ID` gets a snapshot."""

SINCE = Prepared(
    select(events.c.id, events.c.type, events.c.payload)
    .where(events.c.project_id == bindparam("project_id"), events.c.id > bindparam("after"))
    .order_by(events.c.id)
    .limit(bindparam("limit"))
)


def _since(tx: Tx, project_id: str, after: int, limit: int) -> list[tuple[int, str, Any]]:
    rows = tx.all(SINCE, project_id=project_id, after=after, limit=limit)
    return [(row.id, row.type, row.payload) for row in rows]


def log_since(db: Database, project_id: str, after: int, limit: int) -> list[tuple[int, str, Any]]:
    """Up to `limit` entries of a project's event log with ids above `after`, oldest first."""
    with db.reader() as tx:
        return _since(tx, project_id, after, limit)


def resume(db: Database, link: Link, after: int) -> list[tuple[int, str, Any]] | None:
    """What a stream resuming after event `after` missed, or None when that is too far back
    (or ahead: an id the log never had) and the client needs a fresh snapshot. (A link that
    resolved has its project: links go with their project.)"""
    with db.reader() as tx:
        last = tx.one(LAST_EVENT, project_id=link.project_id)
        if after > (last.id if last else 0):
            return None
        missed = _since(tx, link.project_id, after, HISTORY + 1)
    return None if len(missed) > HISTORY else missed
