"""The action union: aliases, camelCase parameters, strict values, error paths, its schema."""

from __future__ import annotations

from typing import Any

import pytest

from maproom.domain.actions import models
from maproom.errors import BadRequest

SPEC_TYPES = {
    "fly_to", "jump_to", "fit_bounds", "go_home", "zoom_in", "zoom_out", "pan", "zoom_to_layer",
    "add_geojson_layer", "add_tile_layer", "add_cog_layer", "remove_layer", "rename_layer",
    "set_layer_visibility", "move_layer_up", "move_layer_down", "update_layer_style",
    "set_basemap_style", "set_basemap_category", "set_country_mask", "set_custom_mask",
    "file_generated", "clear_layers",
}  # fmt: skip


def paths(raw: Any) -> list[str]:
    with pytest.raises(BadRequest) as caught:
        models.parse(raw, "actions[3]")
    return [detail["path"] for detail in caught.value.details]


def test_every_spec_type_is_in_the_union() -> None:
    assert set(models.TYPES) >= SPEC_TYPES
    assert set(models.TYPES) - SPEC_TYPES == {
        "reorder_layers",
        "undo",
        "redo",
        "set_layer_filter",
        *models.DERIVED,
    }


@pytest.mark.parametrize("kind", sorted(SPEC_TYPES))
def test_aliases_normalise_to_the_plain_type(kind: str) -> None:
    camel = models.camel(kind)
    assert models.normalise_type(kind) == kind
    assert models.normalise_type(f"map.{camel}") == kind
    assert models.normalise_type(f"map.{kind}") == kind
    assert models.normalise_type(camel) is None or camel == kind


def test_every_example_validates_as_its_type() -> None:
    for kind, model in models.MODELS.items():
        assert model.example is not None, kind
        assert models.parse(model.example).type == kind


def test_camel_case_parameters_are_normalised() -> None:
    action = models.parse({"type": "map.setCountryMask", "countryCode": "br", "color": "#00ff00"})
    assert isinstance(action, models.SetCountryMask)
    assert (action.country_code, action.color) == ("BR", "#00ff00")
    tile = models.parse({"type": "map.addTileLayer", "url": "https://t.example/{z}/{x}/{y}.png",
                         "layerId": "t", "minZoom": 2, "tileSize": 256})  # fmt: skip
    assert isinstance(tile, models.AddTileLayer)
    assert (tile.layer_id, tile.min_zoom, tile.tile_size) == ("t", 2, 256)


def test_both_spellings_of_one_parameter_are_refused() -> None:
    raw = {"type": "rename_layer", "layer_id": "a", "layerId": "b", "name": "x"}
    assert paths(raw) == ["actions[3].layerId"]


def test_unknown_types_and_non_objects_name_the_action() -> None:
    assert paths({"type": "warp_to"}) == ["actions[3].type"]
    assert paths({"center": [0, 0]}) == ["actions[3].type"]
    assert paths(["fly_to"]) == ["actions[3]"]


def test_validation_paths_name_the_parameter() -> None:
    assert paths({"type": "fly_to", "center": [0, 89]}) == ["actions[3].center[1]"]
    assert paths({"type": "fly_to"}) == ["actions[3].center"]
    assert paths({"type": "fly_to", "center": [0, 0], "zoom": "4"}) == ["actions[3].zoom"]
    assert paths({"type": "pan", "direction": "up-ish"}) == ["actions[3].direction"]
    assert paths({"type": "set_basemap_category", "category_key": "rivers"}) == [
        "actions[3].category_key"
    ]
    assert paths({"type": "add_tile_layer", "url": "http://127.0.0.1/{z}/{x}/{y}.png"}) == [
        "actions[3].url"
    ]


def test_unknown_parameters_are_ignored_and_null_is_not_omission() -> None:
    assert models.parse({"type": "go_home", "speed": 3}).payload() == {"type": "go_home"}
    assert paths({"type": "fly_to", "center": [0, 0], "zoom": None}) == ["actions[3].zoom"]


def test_the_schema_lists_every_alias_and_example() -> None:
    schema = models.batch_schema()
    items = schema["properties"]["actions"]["items"]
    assert items["discriminator"]["propertyName"] == "type"
    assert set(items["discriminator"]["mapping"]) == set(models.ALIASES)
    assert len(items["oneOf"]) == len(models.MODELS)
    fly = schema["$defs"]["FlyTo"]
    assert fly["properties"]["type"]["enum"] == ["fly_to", "map.flyTo", "map.fly_to"]
    assert fly["required"] == ["type", "center"]
    assert fly["examples"] == [models.FlyTo.example]
