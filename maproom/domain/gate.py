"""The caller's project rows: finding one (or 404), deciding what the caller may do with it,
and recording a change as a new version.

Every domain module that acts inside a project goes through `get_or_raise`, the one place that
decides access (docs/sharing.md): the owner may do anything; an account the project is shared
with as `editor` may read and change it, as `viewer` only read it (a change is 403); neither
may delete it or manage its shares; anyone else gets 404, as for a missing project, so nothing
says it exists. Every change goes through `touch`, so anything a project shows (its fields,
layers, files) moves its version and ETag on, appends what changed to the project's event log
(the live stream's source) and becomes a version of its history (`maproom.domain.history`),
in the same transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import and_, bindparam, select, text, update
from sqlalchemy.dialects.postgresql import JSONB

from maproom.domain import history
from maproom.domain.common import require_uuid, utcnow
from maproom.domain.keys import Principal
from maproom.errors import Forbidden, NotFound, PreconditionFailed
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import events, projects, shares, versions

Need = Literal["read", "edit", "own"]
READ: Need = "read"
EDIT: Need = "edit"
OWN: Need = "own"

PROJECT_BY_ID = Prepared(select(projects).where(projects.c.id == bindparam("id")))
PROJECT_FOR_UPDATE = Prepared(
    select(projects).where(projects.c.id == bindparam("id")).with_for_update()
)
ROLE = Prepared(
    select(shares.c.role).where(
        and_(shares.c.project_id == bindparam("id"), shares.c.email == bindparam("email"))
    )
)
TOUCH = Prepared(
    update(projects)
    .where(projects.c.id == bindparam("id"), projects.c.version == bindparam("old"))
    .values(
        title=bindparam("title"),
        map_state=bindparam("map_state"),
        version=bindparam("version"),
        updated_at=bindparam("updated_at"),
    )
)
LOG = Prepared(
    events.insert().values(
        project_id=bindparam("project_id"),
        type=bindparam("type"),
        payload=bindparam("payload"),
        created_at=bindparam("created_at"),
    )
)

# PostgreSQL: the version bump and the events it logs in one statement; as many rows inserted
# as events given when the version matched, none when another change won the race.
TOUCH_AND_LOG = Prepared(
    text(
        "WITH bumped AS (UPDATE projects SET title = :title, map_state = :map_state, "
        "version = :version, updated_at = :updated_at WHERE id = :id AND version = :old "
        "RETURNING id) "
        "INSERT INTO events (project_id, type, payload, created_at) "
        "SELECT bumped.id, e.type, e.payload, e.created_at FROM bumped, "
        "ROWS FROM (jsonb_to_recordset(:events) "
        "AS (type text, payload jsonb, created_at timestamptz)) WITH ORDINALITY AS e "
        "ORDER BY e.ordinality"
    ).bindparams(
        bindparam("title", type_=projects.c.title.type),
        bindparam("map_state", type_=projects.c.map_state.type),
        bindparam("version", type_=projects.c.version.type),
        bindparam("updated_at", type_=projects.c.updated_at.type),
        bindparam("id", type_=projects.c.id.type),
        bindparam("old", type_=projects.c.version.type),
        bindparam("events", type_=JSONB()),
    )
)


def _touch_postgresql(
    tx: Writer,
    row: Any,
    changed: dict[str, Any],
    logged: list[tuple[str, dict[str, Any]]],
    pending: history.Pending | None,
) -> None:
    """The version bump, its events and its history row in one statement (`TOUCH_LOG_KEEP`):
    nothing written when another change won the race (then 412)."""
    moment = changed["updated_at"]
    rows = [{"type": k, "payload": p, "created_at": moment} for k, p in logged]
    if pending is None:
        done = tx.run(TOUCH_AND_LOG, id=row.id, old=row.version, events=rows, **changed)
        expected = len(rows)
    else:
        kept = {f"v_{name}": value for name, value in pending.row.items()}
        done = tx.run(TOUCH_LOG_KEEP, id=row.id, old=row.version, events=rows, **changed, **kept)
        expected = 1
    if done != expected:
        raise PreconditionFailed("The project changed while this request ran; try again")


# ... and the history's version row too (`maproom.domain.history`): one row when the version
# matched (the INSERTs of a WITH run whether or not the main statement reads them).
_VERSION_PARAMS = [bindparam(f"v_{c}", type_=versions.c[c].type) for c in history.VERSION_COLUMNS]
TOUCH_LOG_KEEP = Prepared(
    text(
        "WITH bumped AS (UPDATE projects SET title = :title, map_state = :map_state, "
        "version = :version, updated_at = :updated_at WHERE id = :id AND version = :old "
        "RETURNING id), "
        "logged AS (INSERT INTO events (project_id, type, payload, created_at) "
        "SELECT bumped.id, e.type, e.payload, e.created_at FROM bumped, "
        "ROWS FROM (jsonb_to_recordset(:events) "
        "AS (type text, payload jsonb, created_at timestamptz)) WITH ORDINALITY AS e "
        "ORDER BY e.ordinality RETURNING 1) "
        f"INSERT INTO versions ({', '.join(history.VERSION_COLUMNS)}) "
        f"SELECT {', '.join(':v_' + c for c in history.VERSION_COLUMNS)} FROM bumped"
    ).bindparams(
        bindparam("title", type_=projects.c.title.type),
        bindparam("map_state", type_=projects.c.map_state.type),
        bindparam("version", type_=projects.c.version.type),
        bindparam("updated_at", type_=projects.c.updated_at.type),
        bindparam("id", type_=projects.c.id.type),
        bindparam("old", type_=projects.c.version.type),
        bindparam("events", type_=JSONB()),
        *_VERSION_PARAMS,
    )
)


@dataclass(frozen=True, slots=True)
class Versioned:
    """A representation and the version its ETag names."""

    body: dict[str, Any]
    version: int


def get_or_raise(
    tx: Tx, *, principal: Principal, project_id: str, lock: bool = False, need: Need | None = None
) -> Any:
    """The project row if the caller may do what `need` says with it (module docstring; by
    default `edit` when the row is locked to change it, else `read`): NotFound when it is not
    theirs nor shared with them, Forbidden when their role falls short."""
    need = need or (EDIT if lock else READ)
    query = PROJECT_FOR_UPDATE if lock else PROJECT_BY_ID
    row = tx.one(query, id=require_uuid(project_id, "Project"))
    if row is None:
        raise NotFound("Project not found")
    if row.account_id == principal.account_id:
        return row
    role = tx.one(ROLE, id=row.id, email=principal.email) if principal.email else None
    if role is None:
        raise NotFound("Project not found")
    if need == OWN:
        raise Forbidden("Only the project's owner can do this")
    if need == EDIT and role.role != "editor":
        raise Forbidden(
            "This project is shared with you as a viewer: you can read it, not change it"
        )
    return row


@contextmanager
def locked(
    db: Database, *, principal: Principal, project_id: str, need: Need = EDIT
) -> Iterator[tuple[Writer, Any]]:
    """A write transaction holding the caller's project locked (NotFound if they may not see
    it, Forbidden if they may not change it): the opening every change to a project shares.
    Committed when the block ends."""
    with db.write() as tx:
        yield tx, get_or_raise(tx, principal=principal, project_id=project_id, lock=True, need=need)


def log_event(tx: Writer, project_id: str, kind: str, payload: dict[str, Any]) -> None:
    """Append an entry to the project's event log, in the caller's transaction; live streams
    hear of it once the transaction commits (`Writer.notify`)."""
    tx.run(LOG, project_id=project_id, type=kind, payload=payload, created_at=utcnow())
    tx.notify(f"project:{project_id}")


def touch(
    tx: Writer,
    row: Any,
    *,
    event: tuple[str, dict[str, Any]] | None = None,
    events: list[tuple[str, dict[str, Any]]] | None = None,
    **values: Any,
) -> Any:
    """Write changes to a project (or none) as a new version, with the events that say what
    changed (`event`, or several in order); guards against a lost race.

    Every change to what a project's body shows (its layers, its messages) must call this in
    the same transaction: its `project:` topic drops the cached body (`projects.read_json`).
    On PostgreSQL the new version, the events and the history's version row are one
    statement (one round trip).
    """
    changed = {
        "title": values.pop("title", row.title),
        "map_state": values.pop("map_state", row.map_state),
        "version": row.version + 1,
        "updated_at": utcnow(),
    }
    if values:
        raise TypeError(f"touch() cannot change {', '.join(values)}")
    logged = [*(events or ()), *([event] if event is not None else [])]
    actions = [payload for kind, payload in logged if kind == "action"]
    messages_only = all(kind == "message" for kind, _ in logged)
    pending = history.version_of(tx, row, changed, actions, messages_only=messages_only)
    if tx.dialect.name == "postgresql" and (logged or pending):
        _touch_postgresql(tx, row, changed, logged, pending)
    else:
        if not tx.run(TOUCH, id=row.id, old=row.version, **changed):
            raise PreconditionFailed("The project changed while this request ran; try again")
        for kind, payload in logged:
            tx.run(LOG, project_id=row.id, type=kind, payload=payload,
                   created_at=changed["updated_at"])  # fmt: skip
        if pending is not None:
            history.write(tx, pending)
    tx.notify(f"project:{row.id}")  # even with no event: cached bodies are dropped by it
    if pending is not None:
        history.finish(tx, pending)
    return row._replace(**changed)
