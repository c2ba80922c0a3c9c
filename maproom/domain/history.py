"""A project's history: every change a version, with who made it, what it did and what it
changed (docs/history.md).

Each version row keeps `before`: the parts of the project the change touched, as they were
before it (its title, the map-state keys it changed, the layers it added, changed or removed,
the draw order when that changed). So a version costs bytes in proportion to its change, not
to the project: a camera move keeps the old view, never the layers' styles. The project as it
was after version N is the live project with the `before` of every later version applied,
newest first (`maproom.domain.restore`).

What a transaction changes is noted as it goes, in the transaction itself (`noting`): the
layer functions (`maproom.domain.layers`) note a layer's state before its first change, and
`gate.touch` writes the version row when it records the change, in the same transaction.

Retention: the newest `MAPROOM_HISTORY_VERSIONS` versions of a project, and none older than
`MAPROOM_HISTORY_DAYS`; a file that only a removed layer's state refers to (data a map action
made, not an upload) is kept while a retained version refers to it, then removed.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, delete, exists, func, or_, select, update

from maproom.domain.common import decode_cursor, encode_cursor, iso, parse_moment, utcnow
from maproom.errors import BadRequest, NotFound
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import files, layers, version_files, versions

UNDOABLE = ("change", "redo", "restore")
LAYER_COLUMNS = tuple(str(c.name) for c in layers.columns if c.name != "project_id")
_MOMENTS = ("created_at", "updated_at")


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes the changes of the running request: the account's email, the key, and the way
    in (`api`, `actions`, `chat`, `mcp`, `restore`)."""

    email: str | None = None
    key_id: str | None = None
    via: str = "api"


ACTOR: contextvars.ContextVar[Actor] = contextvars.ContextVar(
    "maproom_actor",
    default=Actor(),  # noqa: B039 (frozen: never changed in place)
)


@dataclass
class Changes:
    """What a transaction changed in one project, as it was before (module docstring)."""

    project_id: str
    layers: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    order: list[str] | None = None
    kind: str = "change"
    target: int | None = None  # the version an undo takes back, a redo or restore re-applies
    summary: list[str] = field(default_factory=list)


def noting(tx: Writer, project_id: str) -> Changes:
    """The record of what this transaction changes in the project (made on first use)."""
    found = tx.context.get("history")
    if found is None or found.project_id != project_id:
        found = tx.context["history"] = Changes(project_id)
    assert isinstance(found, Changes)
    return found


def layer_state(row: Any) -> dict[str, Any]:
    """A layer row as a version keeps it: every column but the project's, moments as text."""
    state = {name: getattr(row, name) for name in LAYER_COLUMNS}
    for name in _MOMENTS:
        state[name] = iso(state[name])
    return state


def row_values(state: dict[str, Any]) -> dict[str, Any]:
    """A kept layer state as row values (the inverse of `layer_state`)."""
    values = dict(state)
    for name in _MOMENTS:
        values[name] = parse_moment(values[name])
    return values


def note_layer(tx: Writer, project_id: str, row: Any | None, layer_id: str) -> None:
    """Before a layer changes: its state (None: it does not exist yet), once per transaction."""
    changes = noting(tx, project_id)
    if layer_id not in changes.layers:
        changes.layers[layer_id] = None if row is None else layer_state(row)


def note_order(tx: Writer, project_id: str, top_first: Callable[[], list[str]]) -> None:
    """Before the set or order of layers changes: the order (`top_first()`), once per
    transaction."""
    changes = noting(tx, project_id)
    if changes.order is None:
        changes.order = list(top_first())


def say(tx: Writer, project_id: str, summary: str) -> None:
    """Add a phrase to the summary of the change being made ("hid Cafes")."""
    noting(tx, project_id).summary.append(summary)


@dataclass
class Pending:
    """A version about to be written (`version_of`), then finished (`finish`)."""

    changes: Changes
    row: dict[str, Any]  # the `versions` row


def version_of(
    tx: Writer,
    before_row: Any,
    after: dict[str, Any],
    actions: list[dict[str, Any]],
    *,
    messages_only: bool,
) -> Pending | None:
    """The version `after["version"]` of the project whose row was `before_row`: what the
    transaction changed (module docstring), who and how (`ACTOR`). None for a change that only
    added chat messages: not a version of the map."""
    changes: Changes = tx.context.pop("history", None) or Changes(before_row.id)
    before: dict[str, Any] = {}
    if after["title"] != before_row.title:
        before["title"] = before_row.title
    old_state, new_state = before_row.map_state or {}, after["map_state"] or {}
    changed = {k: old_state.get(k) for k in {*old_state, *new_state}
               if old_state.get(k) != new_state.get(k)}  # fmt: skip
    if changed:
        before["map_state"] = changed
    if changes.layers:
        before["layers"] = changes.layers
    if changes.order is not None:
        before["order"] = changes.order
    if messages_only and not before:
        return None
    actor = ACTOR.get()
    row = {
        "project_id": before_row.id, "version": after["version"],
        "created_at": after["updated_at"], "account_email": actor.email,
        "key_id": actor.key_id, "via": actor.via, "kind": changes.kind, "target": changes.target,
        "summary": summarize(changes.summary, actions, before), "actions": actions,
        "before": before,
    }  # fmt: skip
    return Pending(changes, row)


def write(tx: Writer, pending: Pending) -> None:
    """Insert the version row (where the project's own statement did not)."""
    tx.run(INSERT, **pending.row)


def finish(tx: Writer, pending: Pending) -> None:
    """What follows a version row: the files it keeps, the marks of an undo or redo, and
    letting go of versions past the retention (`tx.context["retention"]`, `prune`)."""
    changes, project_id, version = (
        pending.changes,
        pending.row["project_id"],
        pending.row["version"],
    )
    kept_files = {s["file_id"] for s in changes.layers.values() if s and s.get("file_id")}
    for file_id in sorted(kept_files):
        tx.run(KEEP_FILE, project_id=project_id, version=version, file_id=file_id)
    if changes.kind == "undo" and changes.target is not None:
        _mark(tx, project_id, changes.target, undone_by=version)
    if changes.kind == "redo" and changes.target is not None:
        _mark(tx, project_id, changes.target, redone_by=version)
    retention = tx.context.get("retention")
    if (
        isinstance(retention, Retention)
        and version > retention.versions
        and version % prune_every(retention.versions) == 0
    ):
        prune(tx, project_id, newest=version, retention=retention)


VERSION_COLUMNS = ("project_id", "version", "created_at", "account_email", "key_id", "via",
                   "kind", "target", "summary", "actions", "before")  # fmt: skip
INSERT = Prepared(versions.insert().values({name: bindparam(name) for name in VERSION_COLUMNS}))
KEEP_FILE = Prepared(
    version_files.insert().values(
        project_id=bindparam("project_id"), version=bindparam("version"),
        file_id=bindparam("file_id"),
    )
)  # fmt: skip
PAST_COUNT = Prepared(
    delete(versions).where(
        versions.c.project_id == bindparam("project_id"),
        versions.c.version <= bindparam("cutoff"),
    )
)


# A file row of a version let go (the version row is gone, its `version_files` row not yet).
UNKEPT_FILE = Prepared(
    select(version_files.c.version)
    .where(
        version_files.c.project_id == bindparam("project_id"),
        ~exists().where(
            versions.c.project_id == version_files.c.project_id,
            versions.c.version == version_files.c.version,
        ),
    )
    .limit(1)
)


def _mark(tx: Writer, project_id: str, version: int, **values: int) -> None:
    tx.execute(
        update(versions)
        .where(versions.c.project_id == project_id, versions.c.version == version)
        .values(**values)
    )


def record_created(
    tx: Writer, project_id: str, version: int, moment: datetime, summary: str
) -> None:
    """The first version of a new project (nothing before it)."""
    actor = ACTOR.get()
    tx.execute(
        versions.insert().values(
            project_id=project_id, version=version, created_at=moment,
            account_email=actor.email, key_id=actor.key_id, via=actor.via, kind="create",
            summary=summary, actions=[], before={},
        )
    )  # fmt: skip


def summarize(phrases: list[str], actions: list[dict[str, Any]], before: dict[str, Any]) -> str:
    """A readable line for a version: the phrases its changes said, joined ("Flew to ...;
    hid Cafes"), else a plain account of what it touched."""
    if phrases:
        text = "; ".join(dict.fromkeys(phrases))  # each phrase once, in order
        return text[:1].upper() + text[1:]
    if actions:
        return "; ".join(dict.fromkeys(a.get("type", "change") for a in actions)).capitalize()
    parts = [name for name in ("title", "map_state", "layers") if name in before]
    return "Changed " + ", ".join(parts).replace("map_state", "the map") if parts else "Changed"


# --- reading ----------------------------------------------------------------------------------

_ENTRY = (versions.c.version, versions.c.created_at, versions.c.account_email,
          versions.c.key_id, versions.c.via, versions.c.summary, versions.c.actions,
          versions.c.kind, versions.c.target)  # fmt: skip
PAGE_FIRST = Prepared(
    select(*_ENTRY)
    .where(versions.c.project_id == bindparam("project_id"))
    .order_by(versions.c.version.desc())
    .limit(bindparam("limit"))
)
PAGE_AFTER = Prepared(
    select(*_ENTRY)
    .where(
        versions.c.project_id == bindparam("project_id"),
        versions.c.version < bindparam("before_version"),
    )
    .order_by(versions.c.version.desc())
    .limit(bindparam("limit"))
)
ONE = Prepared(
    select(*_ENTRY).where(
        versions.c.project_id == bindparam("project_id"), versions.c.version == bindparam("version")
    )
)
LATER = Prepared(
    select(versions.c.version, versions.c.before)
    .where(
        versions.c.project_id == bindparam("project_id"), versions.c.version > bindparam("version")
    )
    .order_by(versions.c.version.desc())
)


def entry(row: Any) -> dict[str, Any]:
    """A version as `GET .../history` lists it."""
    return {
        "version": row.version,
        "createdAt": iso(row.created_at),
        "actor": {"accountEmail": row.account_email, "keyId": row.key_id, "via": row.via},
        "summary": row.summary,
        "actions": row.actions,
        "kind": row.kind,
        "target": row.target,
    }


def page(
    tx: Tx, project_id: str, *, limit: int, cursor: str | None, kept_after: int
) -> tuple[list[dict[str, Any]], str | None]:
    """Versions newest first, a page at a time (`nextCursor` while older ones remain); none
    at or below `kept_after` (`floor`)."""
    if cursor:
        (before_version,) = decode_cursor(cursor, 1)
        if not isinstance(before_version, int):
            raise BadRequest(
                "Malformed cursor", details=[{"path": "cursor", "message": "malformed"}]
            )
        rows = tx.all(PAGE_AFTER, project_id=project_id, before_version=before_version,
                      limit=limit + 1)  # fmt: skip
    else:
        rows = tx.all(PAGE_FIRST, project_id=project_id, limit=limit + 1)
    rows = [row for row in rows if row.version > kept_after]
    shown = rows[:limit]
    more = encode_cursor([shown[-1].version]) if len(rows) > limit else None
    return [entry(row) for row in shown], more


def one(tx: Tx, project_id: str, version: int, kept_after: int) -> Any:
    """A retained version's row (above `kept_after`: `floor`), or NotFound."""
    row = tx.one(ONE, project_id=project_id, version=version) if version > kept_after else None
    if row is None:
        raise NotFound(f"Version {version} is not in this project's history")
    return row


def later(tx: Tx, project_id: str, version: int) -> list[Any]:
    """`(version, before)` of every version after `version`, newest first."""
    return tx.all(LATER, project_id=project_id, version=version)


# --- retention --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Retention:
    """How much history is kept: versions per project, and days."""

    versions: int = 1000
    days: float = 30.0


# Versions past the count are deleted every this many versions (a delete per write cost a
# seventh of the write throughput), at most a sixteenth of the count; until then they are
# treated as gone (`floor`).
PRUNE_EVERY = 64


def prune_every(keep: int) -> int:
    """How many versions apart the count's prunes run, for a count of `keep`."""
    return max(1, min(PRUNE_EVERY, keep // 16))


def floor(project_version: int, context: dict[str, Any]) -> int:
    """The newest version no longer kept (every version up to it is as good as gone)."""
    retention = context.get("retention")
    keep = retention.versions if isinstance(retention, Retention) else 1_000_000_000
    return project_version - keep


def prune(
    tx: Writer, project_id: str, *, newest: int, retention: Retention, days: bool = False
) -> None:
    """Let go of a project's versions beyond the newest `retention.versions` (and, with
    `days`, those older than `retention.days`, the newest always kept), then of the files only
    they kept (their blobs go once the transaction commits)."""
    cutoff = newest - retention.versions
    if days:
        moment = utcnow() - timedelta(days=retention.days)
        gone = or_(
            versions.c.version <= cutoff,
            and_(versions.c.created_at < moment, versions.c.version < newest),
        )
        removed = tx.execute(delete(versions).where(versions.c.project_id == project_id, gone))
        if not removed.rowcount:
            return
    elif not tx.run(PAST_COUNT, project_id=project_id, cutoff=cutoff):
        return
    kept_by_gone = tx.one(UNKEPT_FILE, project_id=project_id)
    if kept_by_gone is None:  # the versions let go kept no file (camera moves, styles...)
        return
    tx.execute(
        delete(version_files).where(
            version_files.c.project_id == project_id,
            ~exists().where(
                versions.c.project_id == version_files.c.project_id,
                versions.c.version == version_files.c.version,
            ),
        )
    )
    _drop_unkept_files(tx, project_id)


def _drop_unkept_files(tx: Writer, project_id: str) -> None:
    """Files made by map actions (not uploads) that no layer and no retained version refers
    to: their rows now, their blobs once the transaction commits."""
    unkept = tx.execute(
        select(files.c.id, files.c.blob_key).where(
            files.c.project_id == project_id,
            files.c.origin == "inline",
            ~exists().where(layers.c.project_id == project_id, layers.c.file_id == files.c.id),
            ~exists().where(
                version_files.c.project_id == project_id, version_files.c.file_id == files.c.id
            ),
        )
    ).all()
    if not unkept:
        return
    tx.execute(delete(files).where(files.c.id.in_([row.id for row in unkept])))
    blobs = tx.context.get("blobs")
    if blobs is not None:
        prefixes = [row.blob_key.rsplit("/", 1)[0] for row in unkept]
        tx.after_commit.append(functools.partial(_delete_prefixes, blobs, prefixes))


def _delete_prefixes(blobs: Any, prefixes: list[str]) -> None:
    for prefix in prefixes:
        blobs.delete_prefix(prefix)


def sweep(db: Database, retention: Retention) -> int:
    """Let go of versions older than `retention.days` in every project (the periodic sweep;
    the count bound is kept as each version is written); returns how many projects it pruned."""
    moment = utcnow() - timedelta(days=retention.days)
    with db.write() as tx:
        stale = tx.execute(
            select(versions.c.project_id, func.max(versions.c.version).label("newest"))
            .where(versions.c.created_at < moment)
            .group_by(versions.c.project_id)
        ).all()
    done = 0
    for project_id, _ in stale:
        with db.write() as tx:
            newest = tx.execute(
                select(func.max(versions.c.version)).where(versions.c.project_id == project_id)
            ).scalar()
            if newest is not None:
                prune(tx, project_id, newest=int(newest), retention=retention, days=True)
                done += 1
    return done
