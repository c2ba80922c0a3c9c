"""The command path below HTTP (docs/actions.md): `plan` checking a batch against the layers as
it will leave them, the handlers of `apply` (through `commands.run`, on a real SQLite database
and blob folder), and the REST edits of `edits.py` that are made of actions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from maproom.domain import edits, gate, keys, layers, projects
from maproom.domain.actions import commands
from maproom.domain.actions import models as m
from maproom.domain.actions.plan import LayerSet, check_permutation, layer_uuid, plan
from maproom.domain.keys import Principal
from maproom.errors import BadRequest, NotFound, PreconditionFailed
from maproom.storage import migrate
from maproom.storage.blobs import LocalBlobStore
from maproom.storage.db import Database
from tests.chat.support import CITIES, DISTRICTS

PROJECT = "6f1c1f4e-4b8e-4b3c-9d55-0e8b1b0c7a11"


def parsed(*raw: dict[str, Any]) -> list[m.BaseAction]:
    return [m.parse(action, f"actions[{i}]") for i, action in enumerate(raw)]


def row(layer_id: str, **values: Any) -> Any:
    fields = [{"name": "population", "type": "number"}, {"name": "name", "type": "string"}]
    defaults = {"id": layer_id, "name": layer_id, "layer_type": "geojson", "source": "upload",
                "fields": fields, "style": {}, "url": None, "remote_url": None}  # fmt: skip
    return SimpleNamespace(**(defaults | values))


# --- plan -------------------------------------------------------------------------------------


def test_plan_follows_the_layers_as_the_batch_leaves_them() -> None:
    cities = layer_uuid(PROJECT, "cities")
    known = LayerSet.of([row(cities)])
    steps = plan(
        parsed(
            {"type": "add_geojson_layer", "layer_id": "districts", "geojson": DISTRICTS},
            {"type": "rename_layer", "layer_id": "districts", "name": "Areas"},
            {"type": "remove_layer", "layer_id": "cities"},
        ),
        project_id=PROJECT, layers=known, files={},
    )  # fmt: skip
    assert [s.layer_id for s in steps] == [layer_uuid(PROJECT, "districts")] * 2 + [cities]
    assert known.order == [layer_uuid(PROJECT, "districts")]  # cities removed, districts added
    with pytest.raises(BadRequest) as gone:  # a layer removed earlier in the batch
        plan(parsed({"type": "remove_layer", "layer_id": "cities"},
                    {"type": "rename_layer", "layer_id": "cities", "name": "x"}),
             project_id=PROJECT, layers=LayerSet.of([row(cities)]), files={})  # fmt: skip
    assert gone.value.details[0]["path"].startswith("actions[1]")


def test_plan_refuses_a_filter_on_an_unknown_field_and_undo_in_company() -> None:
    cities = layer_uuid(PROJECT, "cities")
    wrong = {"type": "set_layer_filter", "layer_id": cities,
             "filter": {"field": "nope", "op": "==", "value": 1}}  # fmt: skip
    with pytest.raises(BadRequest) as caught:
        plan(parsed(wrong), project_id=PROJECT, layers=LayerSet.of([row(cities)]), files={})
    assert caught.value.details[0]["path"] == "actions[0].filter.field"
    with pytest.raises(BadRequest) as alone:
        plan(parsed({"type": "undo"}, {"type": "zoom_in"}), project_id=PROJECT,
             layers=LayerSet.of([]), files={})  # fmt: skip
    assert "alone" in alone.value.message or "alone" in str(alone.value.details)


def test_check_permutation_names_every_problem() -> None:
    check_permutation(["b", "a"], ["a", "b"])
    with pytest.raises(BadRequest) as caught:
        check_permutation(["a", "a", "z"], ["a", "b"])
    assert [d["path"] for d in caught.value.details] == ["layer_ids[1]", "layer_ids[2]",
                                                         "layer_ids"]  # fmt: skip


# --- apply, through run, and the edits ---------------------------------------------------------


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Database, LocalBlobStore, Principal, str]]:
    db = Database(f"sqlite:///{tmp_path / 'maproom.db'}")
    migrate.upgrade(db)
    blobs = LocalBlobStore(tmp_path / "files")
    token = keys.bootstrap_key(db, email="owner@example.com")
    with db.reader() as tx:
        found = tx.all(keys.ACTIVE_BY_PREFIX, prefix=token[: keys.PREFIX_LENGTH])
    principal = Principal(found[0].account_id, found[0].id, tuple(found[0].scopes))
    project = projects.create(db, principal=principal, title="t", map_state={}).body["id"]
    try:
        yield db, blobs, principal, project
    finally:
        db.dispose()


def test_handlers_change_the_project_and_log_one_event_each(world: Any) -> None:
    db, blobs, principal, project_id = world
    done = commands.dispatch(
        db, principal=principal, blobs=blobs, project_id=project_id,
        actions=[
            {"type": "add_geojson_layer", "layer_id": "cities", "geojson": CITIES},
            {"type": "fly_to", "center": [-9.14, 38.72], "zoom": 9},
            {"type": "set_layer_visibility", "layer_id": "cities", "visible": False},
            {"type": "set_basemap_style", "style": "dark"},
        ],
    )  # fmt: skip
    assert [layer.id for layer in done.created] == [layer_uuid(project_id, "cities")]
    with db.reader() as tx:
        row = layers.row_of(tx, project_id, layer_uuid(project_id, "cities"))
        project = tx.one(gate.PROJECT_BY_ID, id=project_id)
    assert row.visible is False and row.feature_count == len(CITIES["features"])
    assert project.map_state["center"] == [-9.14, 38.72]
    assert project.map_state["basemap"]["style"] == "dark"
    assert project.version == 2  # one batch, one new version


def test_edits_are_made_of_actions(world: Any) -> None:
    db, blobs, principal, project_id = world
    commands.dispatch(db, principal=principal, blobs=blobs, project_id=project_id,
                      actions=[
                          {"type": "add_geojson_layer", "layer_id": "a", "geojson": CITIES},
                          {"type": "add_geojson_layer", "layer_id": "b", "geojson": DISTRICTS},
                      ])  # fmt: skip
    a, b = layer_uuid(project_id, "a"), layer_uuid(project_id, "b")
    view = {"zoom": 2, "center": [0, 0], "bearing": 0, "pitch": 0}
    assert edits.view_actions(view, {"zoom": 2}) == []
    moved = edits.view_actions(view, {"zoom": 5})
    assert [(x.type, x.zoom) for x in moved] == [("jump_to", 5)]  # type: ignore[attr-defined]
    renamed = edits.patch_layer(db, principal=principal, blobs=blobs, project_id=project_id,
                                layer_id=a, changes={"name": "Towns"}, if_match=None,
                                base="")  # fmt: skip
    assert renamed.body["name"] == "Towns"
    with pytest.raises(PreconditionFailed):
        edits.patch_layer(db, principal=principal, blobs=blobs, project_id=project_id,
                          layer_id=a, changes={"visible": False}, if_match=frozenset({'"0"'}),
                          base="")  # fmt: skip
    edits.reorder_layers(db, principal=principal, blobs=blobs, project_id=project_id,
                         layer_ids=[a, b], if_match=None)  # fmt: skip
    with db.reader() as tx:
        assert [r.id for r in layers.rows_top_first(tx, project_id)] == [a, b]
    edits.delete_layer(db, principal=principal, blobs=blobs, project_id=project_id, layer_id=b)
    with db.reader() as tx, pytest.raises(NotFound):
        layers.row_of(tx, project_id, b)
