"""Projects: create, read, list, patch (docs/api-decisions.md), delete, fork, and the map view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import and_, bindparam, delete, func, or_, select

from maproom.domain import files, history, layers, mapstate, shares
from maproom.domain.chat import store
from maproom.domain.common import (
    decode_cursor,
    encode_cursor,
    iso,
    new_id,
    parse_moment,
    utcnow,
)
from maproom.domain.gate import OWN, PROJECT_BY_ID, Versioned, get_or_raise
from maproom.domain.heard import HeardCache
from maproom.domain.keys import Principal
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import accounts, messages, projects
from maproom.storage.models import layers as layer_table
from maproom.storage.models import shares as share_table

DEFAULT_TITLE = "Untitled map"

MESSAGES = Prepared(
    select(messages)
    .where(messages.c.project_id == bindparam("id"))
    .order_by(messages.c.created_at, messages.c.id)
)
_LIST_COLUMNS = (
    projects.c.id,
    projects.c.title,
    projects.c.created_at,
    projects.c.updated_at,
    projects.c.forked_from_id,
    select(func.count())
    .where(layer_table.c.project_id == projects.c.id)
    .scalar_subquery()
    .label("layer_count"),
)
_NEWEST_FIRST = (projects.c.updated_at.desc(), projects.c.id.desc())
LIST_FIRST = Prepared(
    select(*_LIST_COLUMNS)
    .where(projects.c.account_id == bindparam("account_id"))
    .order_by(*_NEWEST_FIRST)
    .limit(bindparam("limit"))
)
_UPDATED_AT = bindparam("updated_at", type_=projects.c.updated_at.type)
_AFTER_CURSOR = or_(
    projects.c.updated_at < _UPDATED_AT,
    and_(projects.c.updated_at == _UPDATED_AT, projects.c.id < bindparam("after_id")),
)
LIST_AFTER = Prepared(
    select(*_LIST_COLUMNS)
    .where(projects.c.account_id == bindparam("account_id"), _AFTER_CURSOR)
    .order_by(*_NEWEST_FIRST)
    .limit(bindparam("limit"))
)
# Projects shared with the caller's email (maproom.domain.shares), with their owner.
_SHARED = (
    select(*_LIST_COLUMNS, projects.c.account_id, accounts.c.name, accounts.c.email)
    .select_from(
        share_table.join(projects, projects.c.id == share_table.c.project_id).join(
            accounts, accounts.c.id == projects.c.account_id
        )
    )
    .where(share_table.c.email == bindparam("email"))
)
SHARED_FIRST = Prepared(_SHARED.order_by(*_NEWEST_FIRST).limit(bindparam("limit")))
SHARED_AFTER = Prepared(
    _SHARED.where(_AFTER_CURSOR).order_by(*_NEWEST_FIRST).limit(bindparam("limit"))
)


def _messages(tx: Tx, project_id: str) -> list[dict[str, Any]]:
    return [store.record(m) for m in tx.all(MESSAGES, id=project_id)]


def _full(tx: Tx, row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "title": row.title,
        "mapState": row.map_state,
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
        "forkedFromSessionId": row.forked_from_id,
        "isFork": row.forked_from_id is not None,
        "sharedByUser": None,
        "layers": layers.items(tx, row.id),
        "messages": _messages(tx, row.id),
    }


def patched(row: Any) -> dict[str, Any]:
    """The answer of a project PATCH (docs/api-decisions.md)."""
    return {
        "id": row.id,
        "title": row.title,
        "mapState": row.map_state,
        "updatedAt": iso(row.updated_at),
    }


def _insert(
    tx: Writer,
    *,
    account_id: str,
    title: str,
    map_state: dict[str, Any],
    forked_from: str | None = None,
    forked_title: str | None = None,
) -> Any:
    now = utcnow()
    project_id = new_id()
    tx.execute(
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
    summary = f"Forked from {forked_title}" if forked_title else "Created the project"
    history.record_created(tx, project_id, 1, now, summary)
    return tx.one(PROJECT_BY_ID, id=project_id)


def create(
    db: Database, *, principal: Principal, title: str | None, map_state: dict[str, Any]
) -> Versioned:
    """A new project: the default map state with the given changes merged in."""
    state = mapstate.merge(mapstate.default_map_state(), map_state)
    with db.write() as tx:
        row = _insert(
            tx, account_id=principal.account_id, title=title or DEFAULT_TITLE, map_state=state
        )
        return Versioned(_full(tx, row), row.version)


def read(db: Database, *, principal: Principal, project_id: str) -> Versioned:
    """The whole project (api-decisions.md); `sharedByUser` names its owner when it is shared with
    the caller."""
    with db.reader() as tx:
        row = get_or_raise(tx, principal=principal, project_id=project_id)
        body = _full(tx, row)
        body["sharedByUser"] = shares.owner_of(tx, row, principal)
        return Versioned(body, row.version)


@dataclass(frozen=True, slots=True)
class Encoded:
    """A project's body as JSON, the version its ETag names, and whose it is."""

    account_id: str
    json: bytes
    version: int


def body_cache(*, enabled: bool, bound_bytes: int) -> HeardCache[Encoded]:
    """Bodies of recently read projects, kept right by `project:` and `gone:` topics
    (`forget`): every change to what a body shows bumps the project's version and names its
    topic (`gate.touch`), and a delete names `gone:`."""
    return HeardCache(enabled=enabled, bound=bound_bytes, weigh=lambda e: len(e.json))


def read_json(
    db: Database, *, principal: Principal, project_id: str, bodies: HeardCache[Encoded]
) -> Encoded:
    """`read`, encoded, from `bodies` when it holds the project: a hot project costs no query.
    Another account's project is NotFound, cached or not."""
    hit = bodies.get(project_id)
    if hit is not None and hit.account_id == principal.account_id:
        return hit
    generation = bodies.generation
    found = read(db, principal=principal, project_id=project_id)
    encoded = Encoded(principal.account_id, orjson.dumps(found.body), found.version)
    if found.body["sharedByUser"] is None:  # the owner's: a sharee's access is checked each time
        bodies.put(found.body["id"], encoded, generation)
    return encoded


def forget(bodies: HeardCache[Encoded], topics: frozenset[str]) -> None:
    """Commit listener: drop the bodies of the projects a commit changed or deleted."""
    changed = [t.partition(":")[2] for t in topics if t.startswith(("project:", "gone:"))]
    if changed:
        bodies.drop(changed)


def list_for_account(
    db: Database, *, principal: Principal, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """The caller's projects, newest `updatedAt` first, a page at a time."""
    params: dict[str, Any] = {"account_id": principal.account_id, "limit": limit + 1}
    owned, shared = LIST_FIRST, SHARED_FIRST
    if cursor:
        updated, after_id = decode_cursor(cursor, 2)
        params |= {"updated_at": parse_moment(updated), "after_id": str(after_id)}
        owned, shared = LIST_AFTER, SHARED_AFTER
    with db.reader() as tx:
        rows = tx.all(owned, **params)
        if principal.email:
            rows += tx.all(shared, email=principal.email, **params)
    rows.sort(key=lambda r: (r.updated_at, r.id), reverse=True)
    page = rows[:limit]
    items = [
        {
            "id": r.id,
            "title": r.title,
            "createdAt": iso(r.created_at),
            "updatedAt": iso(r.updated_at),
            "isFork": r.forked_from_id is not None,
            "layerCount": r.layer_count,
            "sharedByUser": (
                {"id": r.account_id, "name": r.name, "email": r.email}
                if hasattr(r, "email")
                else None
            ),
        }
        for r in page
    ]
    next_cursor = None
    if len(rows) > limit:
        last = page[-1]
        next_cursor = encode_cursor([last.updated_at.isoformat(), last.id])
    return items, next_cursor


def delete_project(
    db: Database, *, principal: Principal, blobs: BlobStore, project_id: str
) -> None:
    """Delete a project and, through the database's cascades, everything it owns."""
    with db.write() as tx:
        row = get_or_raise(tx, principal=principal, project_id=project_id, need=OWN)
        tx.execute(delete(projects).where(projects.c.id == row.id))
        tx.notify(f"gone:{row.id}")  # its live streams close (maproom.events.hub)
    blobs.delete_prefix(f"p/{row.id}")


def fork(
    db: Database, *, principal: Principal, blobs: BlobStore, project_id: str, title: str | None
) -> Versioned:
    """A copy of the project (map state, layers, styles, files) in the caller's account."""
    copied: list[str] = []
    try:
        with db.write() as tx:
            source = get_or_raise(tx, principal=principal, project_id=project_id)
            row = _insert(
                tx,
                account_id=principal.account_id,
                title=title or f"{source.title} (fork)"[:200],
                map_state=source.map_state,
                forked_from=source.id,
                forked_title=source.title,
            )
            copied = files.copy_project(tx, blobs, source.id, row.id)
            return Versioned(_full(tx, row), row.version)
    except BaseException:
        for prefix in copied:
            blobs.delete_prefix(prefix)
        raise


def drawing(db: Database, *, principal: Principal, project_id: str, base: str) -> dict[str, Any]:
    """The project as a map draws it: its id, title and map state, and every layer's detail
    with its drawing options, top first (`maproom.domain.mapstyle` compiles it)."""
    with db.reader() as tx:
        row = get_or_raise(tx, principal=principal, project_id=project_id)
        project = {"id": row.id, "title": row.title, "mapState": row.map_state}
        return {"project": project, "layers": layers.drawn(tx, row.id, base)}


def map_view(db: Database, *, principal: Principal, project_id: str, base: str) -> dict[str, Any]:
    """Everything a client needs to draw the map: map state and layer details, top first.

    `base` is the project's URL for the viewer asking; layer data URLs hang off it.
    """
    with db.reader() as tx:
        row = get_or_raise(tx, principal=principal, project_id=project_id)
        return {"mapState": row.map_state, "layers": layers.details(tx, row.id, base)}
