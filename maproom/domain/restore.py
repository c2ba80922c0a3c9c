"""The project as it was after a version, and making it so again: `GET .../history/{version}`,
`POST .../history/{version}/restore`, and the `undo` and `redo` map actions (docs/history.md).

A version's `before` holds what its change touched, as it was before (`maproom.domain.history`).
So the project after version N is the live project with the `before` of every later version
applied, newest first (`at`). Making the project so (`make`) writes the difference through the
layer functions, so the restore is itself a change noted like any other: a new version whose
own `before` can take it back. A layer whose file was deleted since cannot come back; it is
named in `missing`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select

from maproom.domain import gate, history, layers
from maproom.domain.common import check_version
from maproom.domain.gate import Versioned
from maproom.domain.keys import Principal
from maproom.errors import BadRequest
from maproom.storage.db import Database, Tx, Writer
from maproom.storage.models import files, versions

# What restoring a layer may change; its id, version and moments are its own.
_OWN = ("id", "version", "position", "created_at", "updated_at")
_RESTORED = tuple(c for c in history.LAYER_COLUMNS if c not in _OWN)


@dataclass
class State:
    """A project as a version left it: title, map state, layers (by id) and their order."""

    title: str
    map_state: dict[str, Any]
    layers: dict[str, dict[str, Any]]
    order: list[str]  # top first

    def step_back(self, before: dict[str, Any]) -> None:
        """Undo one version's change (its `before`) on this state."""
        self.title = before.get("title", self.title)
        if "map_state" in before:
            self.map_state = {**self.map_state, **before["map_state"]}
        for layer_id, state in before.get("layers", {}).items():
            if state is None:
                self.layers.pop(layer_id, None)
            else:
                self.layers[layer_id] = state
        if "order" in before:
            self.order = list(before["order"])
        self.order = [i for i in self.order if i in self.layers]
        self.order += [i for i in self.layers if i not in self.order]


def current(tx: Tx, project: Any) -> State:
    """The live project as a `State`."""
    rows = layers.rows_top_first(tx, project.id)
    return State(
        project.title,
        dict(project.map_state),
        {row.id: history.layer_state(row) for row in rows},
        [row.id for row in rows],
    )


def at(tx: Tx, project: Any, version: int, kept_after: int) -> State:
    """The project as it was after `version` (NotFound unless that version is kept: above
    `kept_after`, `history.floor`)."""
    history.one(tx, project.id, version, kept_after)
    state = current(tx, project)
    for row in history.later(tx, project.id, version):
        state.step_back(row.before)
    return state


@dataclass
class Made:
    """What `make` left for its caller to write: the title and map state, and the layers that
    could not come back."""

    title: str
    map_state: dict[str, Any]
    missing: list[dict[str, str]] = field(default_factory=list)


def make(tx: Writer, project: Any, target: State) -> Made:
    """Make the project's layers as `target` has them (the caller writes the title and map
    state it returns, with `touch`)."""
    live = current(tx, project)
    on_file = {row.id for row in tx.execute(
        select(files.c.id).where(files.c.project_id == project.id)).all()}  # fmt: skip
    made = Made(target.title, target.map_state)
    gone = [i for i in live.order if i not in target.layers]
    layers.delete_rows(tx, project.id, gone)
    for layer_id in reversed(target.order):  # bottom first: each new one goes on top
        state = target.layers[layer_id]
        if layer_id in live.layers:
            if _restorable(live.layers[layer_id]) != _restorable(state):
                row = layers.row_of(tx, project.id, layer_id)
                layers.update_row(tx, row, **_restorable(state))
        elif state.get("file_id") and state["file_id"] not in on_file:
            made.missing.append({"layer_id": layer_id, "name": state["name"]})
        else:
            values = history.row_values(state)
            values.pop("position")
            values["version"] = int(values["version"]) + 1
            layers.insert_row(tx, project.id, **values)
    present = [i for i in target.order if i not in {m["layer_id"] for m in made.missing}]
    if [row.id for row in layers.rows_top_first(tx, project.id)] != present:
        layers.set_order(tx, project.id, present)
    return made


def _restorable(state: dict[str, Any]) -> dict[str, Any]:
    return {name: state.get(name) for name in _RESTORED}


# --- undo and redo ----------------------------------------------------------------------------

UNDO_TARGET = (versions.c.version, versions.c.before)


def undo_target(tx: Writer, project: Any) -> Any:
    """The latest kept change not taken back yet (`version`, `before`), or BadRequest."""
    row = tx.execute(
        select(*UNDO_TARGET)
        .where(
            versions.c.project_id == project.id,
            versions.c.kind.in_(history.UNDOABLE),
            versions.c.undone_by.is_(None),
            versions.c.version > history.floor(project.version, tx.context),
        )
        .order_by(versions.c.version.desc())
        .limit(1)
    ).first()
    if row is None:
        raise BadRequest("Nothing to undo: every change kept in the history is taken back")
    return row


def redo_target(tx: Writer, project_id: str) -> Any:
    """The latest undo not redone (`version`, `before`) if nothing but undos and redos came
    after it, else BadRequest."""
    rows = tx.execute(
        select(versions.c.version, versions.c.kind, versions.c.redone_by, versions.c.before)
        .where(versions.c.project_id == project_id)
        .order_by(versions.c.version.desc())
    )
    for row in rows:
        if row.kind == "redo" or (row.kind == "undo" and row.redone_by is not None):
            continue
        if row.kind == "undo":
            return row
        break
    raise BadRequest("Nothing to redo: nothing was undone since the last change")


# --- the endpoints ----------------------------------------------------------------------------


def view(
    db: Database, *, principal: Principal, project_id: str, version: int, base: str
) -> dict[str, Any]:
    """`GET .../history/{version}`: the project as it was after it (title, map state, layer
    details top first, as `GET .../map` shows them)."""
    with db.reader() as tx:
        project = gate.get_or_raise(tx, principal=principal, project_id=project_id)
        state = at(tx, project, version, history.floor(project.version, db.write_context))
    rows = [SimpleNamespace(**history.row_values(state.layers[i])) for i in state.order]
    return {
        "version": version,
        "title": state.title,
        "mapState": state.map_state,
        "layers": [layers.detail(row, i, base) for i, row in enumerate(rows)],
    }


def restore_version(
    db: Database,
    *,
    principal: Principal,
    project_id: str,
    version: int,
    if_match: frozenset[str] | None,
) -> Versioned:
    """`POST .../history/{version}/restore`: make the project as it was after `version`, all
    or nothing, as a new version; the layers whose data is gone are `missingLayers`."""
    with gate.locked(db, principal=principal, project_id=project_id) as (tx, project):
        check_version(project.version, if_match)
        target = at(tx, project, version, history.floor(project.version, tx.context))
        made = make(tx, project, target)
        changes = history.noting(tx, project.id)
        changes.kind, changes.target = "restore", version
        history.say(tx, project.id, f"restored version {version}")
        event = {"version": version, "missingLayers": made.missing}
        project = gate.touch(
            tx, project, event=("restored", event), title=made.title, map_state=made.map_state
        )
        body = {
            "version": project.version,
            "restoredVersion": version,
            "missingLayers": made.missing,
            "title": project.title,
            "mapState": project.map_state,
        }
        return Versioned(body, project.version)


def listing(
    db: Database, *, principal: Principal, project_id: str, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """`GET .../history`: versions newest first, a page at a time."""
    with db.reader() as tx:
        project = gate.get_or_raise(tx, principal=principal, project_id=project_id)
        kept_after = history.floor(project.version, db.write_context)
        return history.page(tx, project.id, limit=limit, cursor=cursor, kept_after=kept_after)
