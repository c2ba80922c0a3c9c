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

from sqlalchemy import and_, bindparam, select, update

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
    tx: Writer, row: Any, *, event: tuple[str, dict[str, Any]] | None = None, **values: Any
) -> Any:
    """Write changes to a project (or none) as a new version; guards against a lost race.

    Every change to what a project's body shows (its layers, its messages) must call this in
    the same transaction: reads cache those parts per version (`projects._committed_parts`).
    """
    changed = {
        "title": values.pop("title", row.title),
        "map_state": values.pop("map_state", row.map_state),
        "version": row.version + 1,
        "updated_at": utcnow(),
    }
    if values:
        raise TypeError(f"touch() cannot change {', '.join(values)}")
    if not tx.run(TOUCH, id=row.id, old=row.version, **changed):
        raise PreconditionFailed("The project changed while this request ran; try again")
    if event is not None:
        log_event(tx, row.id, *event)
    return row._replace(**changed)
