"""The caller's project rows: finding one (or 404), and recording a change as a new version.

Every domain module that acts inside a project goes through `get_or_raise`, so another
account's project is indistinguishable from a missing one, and through `touch`, so every change
to anything a project shows (its fields, layers, files) moves its version and ETag on, and
appends what changed to the project's event log (the live stream's source), in the same
transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, select, text, update
from sqlalchemy.dialects.postgresql import JSONB

from maproom.domain.common import require_uuid, utcnow
from maproom.domain.keys import Principal
from maproom.errors import NotFound, PreconditionFailed
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import events, projects

_OWNED = and_(projects.c.id == bindparam("id"), projects.c.account_id == bindparam("account_id"))
PROJECT = Prepared(select(projects).where(_OWNED))
PROJECT_FOR_UPDATE = Prepared(select(projects).where(_OWNED).with_for_update())
PROJECT_BY_ID = Prepared(select(projects).where(projects.c.id == bindparam("id")))
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


@dataclass(frozen=True, slots=True)
class Versioned:
    """A representation and the version its ETag names."""

    body: dict[str, Any]
    version: int


def get_or_raise(tx: Tx, *, principal: Principal, project_id: str, lock: bool = False) -> Any:
    """The caller's project row, or NotFound (also for another account's project)."""
    query = PROJECT_FOR_UPDATE if lock else PROJECT
    row = tx.one(query, id=require_uuid(project_id, "Project"), account_id=principal.account_id)
    if row is None:
        raise NotFound("Project not found")
    return row


@contextmanager
def locked(db: Database, *, principal: Principal, project_id: str) -> Iterator[tuple[Writer, Any]]:
    """A write transaction holding the caller's project locked (NotFound if it is not theirs):
    the opening every change to a project shares. Committed when the block ends."""
    with db.write() as tx:
        yield tx, get_or_raise(tx, principal=principal, project_id=project_id, lock=True)


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
    On PostgreSQL the new version and the events are one statement (one round trip).
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
    if logged and tx.dialect.name == "postgresql":
        rows = [{"type": k, "payload": p, "created_at": changed["updated_at"]} for k, p in logged]
        if tx.run(TOUCH_AND_LOG, id=row.id, old=row.version, events=rows, **changed) != len(rows):
            raise PreconditionFailed("The project changed while this request ran; try again")
        tx.notify(f"project:{row.id}")
        return row._replace(**changed)
    if not tx.run(TOUCH, id=row.id, old=row.version, **changed):
        raise PreconditionFailed("The project changed while this request ran; try again")
    tx.notify(f"project:{row.id}")  # even with no event: cached bodies are dropped by it
    for kind, payload in logged:
        log_event(tx, row.id, kind, payload)
    return row._replace(**changed)
