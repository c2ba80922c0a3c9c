"""The REST edits of a map, each one made of the map actions that do the same thing.

    PATCH /sessions/{id}            mapState: jump_to (the whole view), set_basemap_style,
                                    set_country_mask, set_custom_mask; title: a `project` event
    PATCH .../layers/{layerId}      rename_layer, set_layer_visibility
    DELETE .../layers/{layerId}     remove_layer
    PUT .../layers/order            reorder_layers
    PUT .../layers/{layerId}/style  update_layer_style with the merged (and classified) style

So a REST edit and its action share one implementation (`maproom.domain.actions`): the same
bounds and messages (the field types of `maproom.domain.mapstate`), the same stored result, and
the same events on the live stream. Only what differs is done here: `If-Match`, the PATCH
merge rules (api-decisions.md), the style merge (styles.md) and the answer's shape. An edit
that changes nothing publishes nothing and keeps the version.
"""

from __future__ import annotations

from typing import Any

from maproom.domain import gate, history, layers, projects, styles
from maproom.domain.actions import commands as actions
from maproom.domain.actions import models as m
from maproom.domain.actions.plan import check_permutation
from maproom.domain.common import check_version
from maproom.domain.gate import Versioned
from maproom.domain.keys import Principal
from maproom.domain.mapstate import VIEW_KEYS
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database


def patch_project(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    changes: dict[str, Any],
    if_match: frozenset[str] | None,
) -> Versioned:
    """Spec 4.2: present fields only; the map state through the actions."""
    with gate.locked(db, principal=principal, project_id=project_id) as (tx, project):
        check_version(project.version, if_match)
        values = {}
        if "title" in changes and changes["title"] != project.title:
            values["title"] = changes["title"]
            gate.log_event(tx, project.id, "project", {"title": changes["title"]})
            history.say(tx, project.id, f"renamed the project to {changes['title']}")
        steps = view_actions(project.map_state, changes.get("mapState") or {})
        if values or steps:
            project = actions.run(tx, project, steps, blobs=blobs, values=values).project
        return Versioned(projects.patched(project), project.version)


def view_actions(current: dict[str, Any], changes: dict[str, Any]) -> list[m.BaseAction]:
    """The actions that turn map state `current` into `current` merged with `changes` (as
    `MapStatePatch.changes` gives them); none for what would not change."""
    changed = {key: value for key, value in changes.items() if current.get(key) != value}
    out: list[m.BaseAction] = []
    if any(key in changed for key in VIEW_KEYS):
        view = {key: changed.get(key, current.get(key)) for key in VIEW_KEYS}
        out.append(m.JumpTo(type="jump_to", **view))
    if "basemap" in changed:
        basemap = changed["basemap"]
        out.append(m.SetBasemapStyle.model_validate({"type": "set_basemap_style", **basemap}))
    if "countryMask" in changed:
        mask = changed["countryMask"] or {}
        given = {
            "country_code": mask.get("countryCode"),
            "country_name": mask.get("countryName"),
            "visible": mask.get("visible"),
            "color": mask.get("color"),
        }
        out.append(
            m.SetCountryMask.model_validate(
                {"type": "set_country_mask"}
                | {k: v for k, v in given.items() if v is not None or k == "country_code"}
            )
        )
    if "customMask" in changed:
        mask = changed["customMask"] or {}
        out.append(m.SetCustomMask(type="set_custom_mask", **mask))
    return out


def patch_layer(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    layer_id: str,
    changes: dict[str, Any],
    if_match: frozenset[str] | None,
    base: str,
) -> Versioned:
    """Rename a layer or change its visibility: `rename_layer`, `set_layer_visibility`."""
    with gate.locked(db, principal=principal, project_id=project_id) as (tx, project):
        row = layers.row_of(tx, project.id, layer_id)
        check_version(row.version, if_match)
        steps: list[m.BaseAction] = []
        if "name" in changes and changes["name"] != row.name:
            steps.append(m.RenameLayer(type="rename_layer", layer_id=row.id, name=changes["name"]))
        if "visible" in changes and changes["visible"] != row.visible:
            steps.append(
                m.SetLayerVisibility(
                    type="set_layer_visibility", layer_id=row.id, visible=changes["visible"]
                )
            )
        if steps:
            actions.run(tx, project, steps, blobs=blobs)
        row = layers.row_of(tx, project.id, row.id)
        order = [r.id for r in layers.rows_top_first(tx, project.id)].index(row.id)
        return Versioned(layers.detail(row, order, base), row.version)


def delete_layer(
    db: Database, *, principal: Principal, blobs: BlobStore, project_id: str, layer_id: str
) -> None:
    """Delete a layer (its file stays): `remove_layer`."""
    with gate.locked(db, principal=principal, project_id=project_id) as (tx, project):
        row = layers.row_of(tx, project.id, layer_id)
        actions.run(tx, project, [m.RemoveLayer(type="remove_layer", layer_id=row.id)], blobs=blobs)


def reorder_layers(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    layer_ids: list[str],
    if_match: frozenset[str] | None,
) -> None:
    """Replace the draw order (every layer once, top first): `reorder_layers`."""
    with gate.locked(db, principal=principal, project_id=project_id) as (tx, project):
        check_version(project.version, if_match)
        current = [row.id for row in layers.rows_top_first(tx, project.id)]
        check_permutation(layer_ids, current)
        if layer_ids != current:
            step = m.ReorderLayers(type="reorder_layers", layer_ids=layer_ids)
            actions.run(tx, project, [step], blobs=blobs)


def restyle_layer(
    db: Database,
    *,
    principal: Principal,
    blobs: BlobStore,
    project_id: str,
    layer_id: str,
    style_patch: dict[str, Any],
    if_match: frozenset[str] | None,
) -> Versioned:
    """Merge a partial style into the layer's (docs/styles.md), classify it, and store it with
    `update_layer_style`; answers the whole stored style."""
    with gate.locked(db, principal=principal, project_id=project_id) as (tx, project):
        row = layers.row_of(tx, project.id, layer_id)
        check_version(row.version, if_match)
        merged, _ = layers.styled(blobs, row, styles.merge(row.style, style_patch), style_patch)
        if merged != row.style:
            step = m.UpdateLayerStyle(type="update_layer_style", layer_id=row.id, style=merged)
            actions.run(tx, project, [step], blobs=blobs)
            row = layers.row_of(tx, project.id, row.id)
        return Versioned(row.style, row.version)
