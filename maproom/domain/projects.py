"""Projects: create, read, list, patch (spec 4.2 rules), delete, fork, and the map view."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, and_, delete, func, or_, select, update

from maproom.domain import mapstate
from maproom.domain.common import (
    check_version,
    decode_cursor,
    encode_cursor,
    iso,
    new_id,
    require_uuid,
    utcnow,
)
from maproom.domain.keys import Principal
from maproom.errors import BadRequest, NotFound, PreconditionFailed
from maproom.storage.db import Database
from maproom.storage.models import messages, projects

DEFAULT_TITLE = "Untitled map"


@dataclass(frozen=True, slots=True)
class Versioned:
    """A representation and the version its ETag names."""

    body: dict[str, Any]
    version: int


def get_or_raise(
    conn: Connection, *, principal: Principal, project_id: str, lock: bool = False
) -> Row[Any]:
    """The caller's project row, or NotFound (also for another account's project)."""
    query = select(projects).where(
        projects.c.id == require_uuid(project_id, "Project"),
        projects.c.account_id == principal.account_id,
    )
    if lock and conn.dialect.name == "postgresql":
        query = query.with_for_update()
    row = conn.execute(query).first()
    if row is None:
        raise NotFound("Project not found")
    return row


def _layer_items(conn: Connection, project_id: str) -> list[dict[str, Any]]:
    """Layer list items, top first. Layers arrive with file uploads; none exist before them."""
    return []


def _messages(conn: Connection, project_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        select(messages)
        .where(messages.c.project_id == project_id)
        .order_by(messages.c.created_at, messages.c.id)
    ).all()
    return [
        {
            "id": m.id,
            "role": m.role,
            "content": m.content,
            "actions": m.actions,
            "createdAt": iso(m.created_at),
        }
        for m in rows
    ]


def _full(conn: Connection, row: Row[Any]) -> dict[str, Any]:
    return {
        "id": row.id,
        "title": row.title,
        "mapState": row.map_state,
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
        "forkedFromSessionId": row.forked_from_id,
        "isFork": row.forked_from_id is not None,
        "sharedByUser": row.shared_by,
        "layers": _layer_items(conn, row.id),
        "messages": _messages(conn, row.id),
    }


def _patched(row: Row[Any]) -> dict[str, Any]:
    return {
        "id": row.id,
        "title": row.title,
        "mapState": row.map_state,
        "updatedAt": iso(row.updated_at),
    }


def _insert(
    conn: Connection,
    *,
    account_id: str,
    title: str,
    map_state: dict[str, Any],
    forked_from: str | None = None,
) -> Row[Any]:
    now = utcnow()
    project_id = new_id()
    conn.execute(
        projects.insert().values(
            id=project_id,
            account_id=account_id,
            title=title,
            map_state=map_state,
            forked_from_id=forked_from,
            shared_by=None,
            version=1,
            created_at=now,
            updated_at=now,
        )
    )
    return conn.execute(select(projects).where(projects.c.id == project_id)).one()


def create(
    db: Database, *, principal: Principal, title: str | None, map_state: dict[str, Any]
) -> Versioned:
    """A new project: the default map state with the given changes merged in."""
    state = mapstate.merge(mapstate.default_map_state(), map_state)
    with db.write() as conn:
        row = _insert(
            conn, account_id=principal.account_id, title=title or DEFAULT_TITLE, map_state=state
        )
        return Versioned(_full(conn, row), row.version)


def read(db: Database, *, principal: Principal, project_id: str) -> Versioned:
    """The whole project (spec 2.1)."""
    with db.read() as conn:
        row = get_or_raise(conn, principal=principal, project_id=project_id)
        return Versioned(_full(conn, row), row.version)


def list_for_account(
    db: Database, *, principal: Principal, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """The caller's projects, newest `updatedAt` first, a page at a time."""
    query = (
        select(projects.c.id, projects.c.title, projects.c.created_at, projects.c.updated_at,
               projects.c.forked_from_id)
        .where(projects.c.account_id == principal.account_id)
        .order_by(projects.c.updated_at.desc(), projects.c.id.desc())
        .limit(limit + 1)
    )
    if cursor:
        updated, last_id = decode_cursor(cursor, 2)
        try:
            moment = _parse_time(updated)
        except (TypeError, ValueError):
            raise BadRequest("Invalid cursor") from None
        query = query.where(
            or_(
                projects.c.updated_at < moment,
                and_(projects.c.updated_at == moment, projects.c.id < str(last_id)),
            )
        )
    with db.read() as conn:
        rows = conn.execute(query).all()
        page = rows[:limit]
        counts = _layer_counts(conn, [r.id for r in page])
    items = [
        {
            "id": r.id,
            "title": r.title,
            "createdAt": iso(r.created_at),
            "updatedAt": iso(r.updated_at),
            "isFork": r.forked_from_id is not None,
            "layerCount": counts.get(r.id, 0),
        }
        for r in page
    ]
    next_cursor = None
    if len(rows) > limit:
        last = page[-1]
        next_cursor = encode_cursor([last.updated_at.isoformat(), last.id])
    return items, next_cursor


def _parse_time(value: Any) -> datetime:
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _layer_counts(conn: Connection, project_ids: list[str]) -> dict[str, int]:
    """Layers per project (none exist before file uploads)."""
    return {}


def update(
    db: Database,
    *,
    principal: Principal,
    project_id: str,
    changes: dict[str, Any],
    if_match: frozenset[str] | None,
) -> Versioned:
    """Apply spec 4.2: present fields only, map state shallow-merged, nested objects whole."""
    with db.write() as conn:
        row = get_or_raise(conn, principal=principal, project_id=project_id, lock=True)
        check_version(row.version, if_match)
        values: dict[str, Any] = {}
        if "title" in changes and changes["title"] != row.title:
            values["title"] = changes["title"]
        if "mapState" in changes:
            state = mapstate.merge(row.map_state, changes["mapState"])
            if state != row.map_state:
                values["map_state"] = state
        if not values:
            return Versioned(_patched(row), row.version)
        row = touch(conn, row, **values)
        return Versioned(_patched(row), row.version)


def touch(conn: Connection, row: Row[Any], **values: Any) -> Row[Any]:
    """Write changes to a project (or none) as a new version; guards against a lost race."""
    done = conn.execute(
        update(projects)
        .where(projects.c.id == row.id, projects.c.version == row.version)
        .values(**values, version=row.version + 1, updated_at=utcnow())
    ).rowcount
    if not done:
        raise PreconditionFailed("The project changed while this request ran; try again")
    return conn.execute(select(projects).where(projects.c.id == row.id)).one()


def delete_project(db: Database, *, principal: Principal, project_id: str) -> None:
    """Delete a project and, through the database's cascades, everything it owns."""
    with db.write() as conn:
        row = get_or_raise(conn, principal=principal, project_id=project_id)
        conn.execute(delete(projects).where(projects.c.id == row.id))


def fork(db: Database, *, principal: Principal, project_id: str, title: str | None) -> Versioned:
    """A copy of the project (map state, layers, styles, files) in the caller's account."""
    with db.write() as conn:
        source = get_or_raise(conn, principal=principal, project_id=project_id)
        row = _insert(
            conn,
            account_id=principal.account_id,
            title=title or f"{source.title} (fork)"[:200],
            map_state=source.map_state,
            forked_from=source.id,
        )
        return Versioned(_full(conn, row), row.version)


def map_view(db: Database, *, principal: Principal, project_id: str) -> dict[str, Any]:
    """Everything a client needs to draw the map: map state and layer details, top first."""
    with db.read() as conn:
        row = get_or_raise(conn, principal=principal, project_id=project_id)
        return {"mapState": row.map_state, "layers": []}


def count_for_account(conn: Connection, account_id: str) -> int:
    """How many projects an account has."""
    return int(
        conn.execute(
            select(func.count()).select_from(projects).where(projects.c.account_id == account_id)
        ).scalar_one()
    )
