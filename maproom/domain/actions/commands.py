"""Running a batch of actions (docs/actions.md).

    dispatch(raw batch)          POST .../map/actions, the chat agent, the MCP server:
                                 parse every action, then `execute`
    execute(parsed actions)      convert and store any inline GeoJSON, then in one transaction
                                 holding the project: `run`
    run(tx, project, actions)    plan (`plan.py`), apply (`apply.py`), record one new project
                                 version; for callers that hold the project already, such as
                                 the REST edits (`maproom.domain.edits`)

A rejected batch changes nothing and leaves no file behind: the transaction rolls back and the
blobs stored for it are deleted.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from maproom import geo
from maproom.domain import derive, files, gate, layers
from maproom.domain.actions import models
from maproom.domain.actions.apply import Batch, Stored, apply, finish
from maproom.domain.actions.models import ActionBatch, BaseAction, parse
from maproom.domain.actions.plan import LayerSet, Step, layer_uuid, plan
from maproom.domain.analysis import Analysis
from maproom.domain.common import new_id
from maproom.domain.keys import Principal
from maproom.errors import BadRequest
from maproom.geo.fields import STATS_NAME
from maproom.storage import scratch
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database, Writer

__all__ = [
    "ActionBatch",
    "Applied",
    "BaseAction",
    "converts",
    "dispatch",
    "execute",
    "layer_uuid",
    "models",
    "parse",
    "parse_batch",
    "run",
]


@dataclass
class Applied:
    """What a batch did: the project as it left it, and the layers it created (or found)."""

    project: Any
    created: list[Any]
    steps: list[Step]


def parse_batch(raw: Any) -> list[BaseAction]:
    """Every action of a batch as a client wrote it, parsed (`models.parse`)."""
    if not isinstance(raw, list) or not raw:
        raise BadRequest(
            "actions must be a non-empty array",
            details=[{"path": "actions", "message": "at least one action is required"}],
        )
    return [parse(item, f"actions[{i}]") for i, item in enumerate(raw)]


def converts(raw: Any) -> bool:
    """Whether a raw batch holds inline GeoJSON to convert or a layer to derive (slow work:
    run it off the loop)."""
    return isinstance(raw, list) and any(
        isinstance(item, dict)
        and (
            ("geojson" in item and item.get("type") != "set_custom_mask")
            or models.normalise_type(item.get("type")) in models.DERIVED
        )
        for item in raw
    )


def dispatch(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    actions: Any,
    analysis: Analysis | None = None,
    cancelled: threading.Event | None = None,
) -> Applied:
    """A batch as a client wrote it (`POST .../map/actions`): parsed, then `execute`d."""
    parsed = parse_batch(actions)
    return execute(db, principal=principal, blobs=blobs, project_id=project_id, actions=parsed,
                   analysis=analysis, cancelled=cancelled)  # fmt: skip


def execute(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    actions: list[BaseAction],
    analysis: Analysis | None = None,
    cancelled: threading.Event | None = None,
) -> Applied:
    """Apply parsed actions to the caller's project, all or nothing. Inline GeoJSON is
    converted, and derived layers computed (`maproom.domain.derive`), before the transaction,
    after the whole batch was checked."""
    inline = [
        i
        for i, action in enumerate(actions)
        if (isinstance(action, models.AddGeojsonLayer) and action.geojson is not None)
        or action.type in models.DERIVED
    ]
    written: list[str] = []
    workdir: Path | None = None
    try:
        prepared: dict[int, Step] = {}
        stored: dict[int, Stored] = {}
        if inline:
            with db.reader() as tx:  # refuse a bad batch before converting anything
                project = gate.get_or_raise(
                    tx, principal=principal, project_id=project_id, need=gate.EDIT
                )
                planned = _plan(tx, project, actions)
            workdir = Path(tempfile.mkdtemp(dir=scratch.folder()))
            for i in inline:
                if actions[i].type in models.DERIVED:
                    if analysis is None:
                        raise BadRequest("Derived layers are not available here")
                    prepared[i] = derive.prepare(planned[i], analysis, workdir, cancelled)
                else:
                    prepared[i] = _convert(Step(i, actions[i]), workdir)
                stored[i] = _store(prepared[i], blobs, project.id, written)
        with gate.locked(db, principal=principal, project_id=project_id) as (tx, project):
            batch = run(tx, project, actions, blobs=blobs, prepared=prepared, stored=stored)
        return Applied(batch.project, batch.created, batch.steps)
    except BaseException:
        for key in written:
            blobs.delete(key)
        raise
    finally:
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)


def run(
    tx: Writer,
    project: Any,
    actions: list[BaseAction],
    *,
    blobs: BlobStore,
    prepared: dict[int, Step] | None = None,
    stored: dict[int, Stored] | None = None,
    values: dict[str, Any] | None = None,
) -> Batch:
    """Plan and apply a batch on a locked project, then record it as one new version (with
    any other project column `values`). Returns the batch, its `project` the new row."""
    steps = _plan(tx, project, actions, prepared)
    batch = Batch(
        tx,
        project,
        dict(project.map_state),
        blobs=blobs,
        stored=stored or {},
        steps=steps,
    )
    apply(batch, steps)
    batch.project = finish(batch, **(values or {}))
    return batch


def _plan(
    tx: Any, project: Any, actions: list[BaseAction], prepared: dict[int, Step] | None = None
) -> list[Step]:
    uses_layers = any(
        action.layers != "none" or action.type in ("clear_layers", "reorder_layers")
        for action in actions
    )
    rows = layers.rows_top_first(tx, project.id) if uses_layers else []
    uses_files = any(action.__dict__.get("file_id") for action in actions)
    file_rows = tx.all(files.PROJECT_FILES, project_id=project.id) if uses_files else []
    return plan(
        actions,
        project_id=project.id,
        layers=LayerSet.of(rows),
        files={row.id: row for row in file_rows},
        prepared=prepared,
    )


def _convert(step: Step, workdir: Path) -> Step:
    """Validate and convert an action's inline GeoJSON like an upload (a 400 at its path)."""
    action = step.action
    assert isinstance(action, models.AddGeojsonLayer) and action.geojson is not None
    where = f"{step.where}.geojson"
    document: Any = action.geojson
    folder = workdir / str(step.index)
    folder.mkdir()
    source = folder / "inline.geojson"
    if isinstance(document, str) and action.columns is None:
        source.write_text(document, encoding="utf-8")
    else:
        if isinstance(document, str):
            try:
                document = orjson.loads(document)
            except orjson.JSONDecodeError:
                raise models.fail(where, "not valid JSON") from None
        if action.columns is not None:
            document = _keep_columns(document, set(action.columns))
        source.write_bytes(orjson.dumps(document))
    try:
        step.conversion = geo.convert(source, "geojson", folder)
    except geo.GeoError as exc:
        raise models.fail(where, exc.message) from None
    step.inline = source
    return step


def _keep_columns(document: Any, keep: set[str]) -> Any:
    def trim(feature: Any) -> Any:
        if isinstance(feature, dict) and isinstance(feature.get("properties"), dict):
            props = feature["properties"]
            return {**feature, "properties": {k: v for k, v in props.items() if k in keep}}
        return feature

    if isinstance(document, dict) and isinstance(document.get("features"), list):
        return {**document, "features": [trim(f) for f in document["features"]]}
    return trim(document)


def _store(step: Step, blobs: BlobStore, project_id: str, written: list[str]) -> Stored:
    """Put a converted step's files in the blob store (their keys go into `written`)."""
    conversion = step.conversion
    assert conversion is not None and conversion.output is not None and step.inline is not None
    file_id = new_id()
    prefix = f"p/{project_id}/{file_id}"
    size = blobs.put_file(f"{prefix}/original", step.inline)
    written.append(f"{prefix}/original")
    data_key = f"{prefix}/{conversion.output.name}"
    stored = size + blobs.put_file(data_key, conversion.output)
    written.append(data_key)
    stats_key = None
    if conversion.stats is not None:
        stats_key = f"{prefix}/{STATS_NAME}"
        stored += blobs.put_file(stats_key, conversion.stats)
        written.append(stats_key)
    return Stored(file_id, prefix, size, data_key, stats_key, stored)
