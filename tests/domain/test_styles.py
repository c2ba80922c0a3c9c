"""The style schema (docs/styles.md), its merge rules (docs/styles.md), defaults and legends.

These are the pure rules in `maproom.domain.styles`; `tests/api/test_layers.py` drives the same
rules through `PUT /sessions/{id}/layers/{layerId}/style` over HTTP.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from maproom.domain import styles
from maproom.errors import BadRequest

PAINT_BOUNDS: list[tuple[str, Any, Any]] = [
    # key, a valid value, an invalid value
    ("circle-color", "#ff0000", "red"),
    ("circle-radius", 0, -1),
    ("circle-opacity", 1, 1.01),
    ("circle-opacity", 0, -0.01),
    ("circle-stroke-color", "#abc", "#abcd1"),
    ("circle-stroke-width", 2.5, -0.5),
    ("circle-stroke-opacity", 0.5, 2),
    ("line-color", "#00ff0080", "00ff00"),
    ("line-width", 3, -3),
    ("line-opacity", 0.2, -1),
    ("line-dasharray", [2, 1], [2, -1]),
    ("line-dasharray", [4], "2,1"),
    ("fill-color", "#123456", 123456),
    ("fill-opacity", 0.7, 1.5),
    ("_outline-width", 1, -1),
    ("_outline-color", "#222222", 5),
    ("_outline-opacity", 0.3, 3),
    ("circle-radius", 4, True),
    ("circle-radius", 4, "4"),
    ("fill-opacity", 0.5, None),
]


def reject(raw: Any) -> list[dict[str, str]]:
    """The `details` of the 400 that `raw` must cause."""
    with pytest.raises(BadRequest) as caught:
        styles.parse_patch(raw)
    details = caught.value.details
    assert details and all(set(item) == {"path", "message"} for item in details)
    return list(details)


def paths(raw: Any) -> set[str]:
    return {item["path"] for item in reject(raw)}


# --- paint ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "good", "bad"), PAINT_BOUNDS)
def test_paint_bounds_in_the_renderer_paint(key: str, good: Any, bad: Any) -> None:
    assert styles.parse_patch({"renderer": {"paint": {key: good}}}) == {
        "renderer": {"paint": {key: good}}
    }
    assert f"renderer.paint.{key}" in "|".join(paths({"renderer": {"paint": {key: bad}}}))


@pytest.mark.parametrize("where", ["categories[0].paint", "ranges[0].paint", "stops[0].paint"])
def test_paint_bounds_apply_to_every_class_paint(where: str) -> None:
    holder = where.split("[")[0]
    item: dict[str, Any] = {"categories": {"value": "a"}, "ranges": {"from": 0}}.get(
        holder, {"value": 0}
    )
    raw = {"renderer": {holder: [{**item, "paint": {"circle-radius": -1}}]}}
    assert f"renderer.{where}.circle-radius" in paths(raw)


def test_default_paint_is_a_paint_object() -> None:
    assert styles.parse_patch({"renderer": {"default": {"fill-color": "#000"}}})
    assert "renderer.default.fill-opacity" in paths({"renderer": {"default": {"fill-opacity": 9}}})


def test_paint_admits_no_other_keys() -> None:
    assert "renderer.paint.raster-opacity" in paths({"renderer": {"paint": {"raster-opacity": 1}}})
    assert "renderer.paint.circleColor" in paths({"renderer": {"paint": {"circleColor": "#000"}}})


def test_every_failure_is_listed_and_the_first_is_in_the_message() -> None:
    with pytest.raises(BadRequest) as caught:
        styles.parse_patch(
            {"renderer": {"paint": {"circle-radius": -1, "line-opacity": 5}, "radius": -2}}
        )
    found = {item["path"] for item in caught.value.details}
    assert found == {
        "renderer.paint.circle-radius",
        "renderer.paint.line-opacity",
        "renderer.radius",
    }
    assert "renderer." in caught.value.message


# --- renderer properties -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind",
    ["single", "categorized", "graduated", "heatmap", "interpolated", "multi_field", "chart"],
)
def test_all_seven_renderer_types_are_accepted(kind: str) -> None:
    assert styles.parse_patch({"renderer": {"type": kind}}) == {"renderer": {"type": kind}}


@pytest.mark.parametrize("bad", ["Single", "choropleth", "", 3, None])
def test_unknown_renderer_types_are_refused(bad: Any) -> None:
    assert "renderer.type" in paths({"renderer": {"type": bad}})


RENDERER_BOUNDS: list[tuple[str, Any, Any]] = [
    ("field", "population", 5),
    ("field", "population", ""),
    ("method", "quantile", "jenks"),
    ("method", "equal", "EQUAL"),
    ("method", "manual", None),
    ("weightField", "mag", 1),
    ("radius", 0, -1),
    ("radius", 30, "30"),
    ("opacity", 1, 1.1),
    ("opacity", 0, -0.1),
    ("intensity", 2.5, "high"),
    ("intensity", 1, None),
    ("interpolation", "linear", "cubic"),
    ("interpolation", "exponential", 2),
    ("base", 2, "2"),
    ("base", 1.5, False),
]


@pytest.mark.parametrize(("key", "good", "bad"), RENDERER_BOUNDS)
def test_renderer_property_bounds(key: str, good: Any, bad: Any) -> None:
    assert styles.parse_patch({"renderer": {key: good}}) == {"renderer": {key: good}}
    assert f"renderer.{key}" in "".join(paths({"renderer": {key: bad}}))


def test_outline_bounds_and_no_other_keys() -> None:
    good = {"width": 0, "color": "#fff", "opacity": 1, "dash": "2, 1"}
    assert styles.parse_patch({"renderer": {"outline": good}}) == {"renderer": {"outline": good}}
    assert "renderer.outline.width" in paths({"renderer": {"outline": {"width": -1}}})
    assert "renderer.outline.color" in paths({"renderer": {"outline": {"color": "white"}}})
    assert "renderer.outline.opacity" in paths({"renderer": {"outline": {"opacity": 1.5}}})
    assert "renderer.outline.dash" in paths({"renderer": {"outline": {"dash": "dotted"}}})
    assert "renderer.outline.dash" in paths({"renderer": {"outline": {"dash": [2, 1]}}})
    assert "renderer.outline.style" in paths({"renderer": {"outline": {"style": "solid"}}})


@pytest.mark.parametrize("value", ["residential", 3, 2.5, True, False])
def test_category_values_are_strings_numbers_or_booleans(value: Any) -> None:
    raw = {"renderer": {"categories": [{"value": value, "paint": {"fill-color": "#111"}}]}}
    assert styles.parse_patch(raw) == raw


@pytest.mark.parametrize(
    ("category", "path"),
    [
        ({"paint": {}}, "renderer.categories[0].value"),
        ({"value": None, "paint": {}}, "renderer.categories[0].value"),
        ({"value": [1], "paint": {}}, "renderer.categories[0].value"),
        ({"value": {"a": 1}, "paint": {}}, "renderer.categories[0].value"),
        ({"value": "a"}, "renderer.categories[0].paint"),
        ({"value": "a", "paint": {}, "label": 3}, "renderer.categories[0].label"),
        ({"value": "a", "paint": {}, "color": "#000"}, "renderer.categories[0].color"),
        ({"value": "a", "paint": {"fill-opacity": 2}}, "renderer.categories[0].paint.fill-opacity"),
    ],
)
def test_category_rules(category: dict[str, Any], path: str) -> None:
    assert path in "|".join(paths({"renderer": {"categories": [category]}}))


def test_ranges_accept_open_ended_and_labels() -> None:
    raw = {
        "renderer": {
            "ranges": [
                {"from": 0, "to": 10, "label": "low", "paint": {"fill-color": "#eee"}},
                {"from": 10, "to": None, "paint": {"fill-color": "#111"}},
                {"from": -5.5, "paint": {}},
            ]
        }
    }
    assert styles.parse_patch(raw) == raw


@pytest.mark.parametrize(
    ("rng", "path"),
    [
        ({"to": 1, "paint": {}}, "renderer.ranges[0].from"),
        ({"from": "0", "to": 1, "paint": {}}, "renderer.ranges[0].from"),
        ({"from": 0, "to": "1", "paint": {}}, "renderer.ranges[0].to"),
        ({"from": 0, "to": 1}, "renderer.ranges[0].paint"),
        ({"from": 0, "to": 1, "paint": {}, "label": False}, "renderer.ranges[0].label"),
        ({"from": 0, "to": 1, "paint": {}, "color": "#000"}, "renderer.ranges[0].color"),
        ({"from": 5, "to": 5, "paint": {}}, "renderer.ranges[0]"),
    ],
)
def test_range_rules(rng: dict[str, Any], path: str) -> None:
    assert path in "|".join(paths({"renderer": {"ranges": [rng]}}))


def test_color_stops_rules() -> None:
    good = [
        {"value": 0, "color": "#000"},
        {"value": 0.5, "color": "#f00"},
        {"value": 1, "color": "#fff"},
    ]
    assert styles.parse_patch({"renderer": {"colorStops": good}}) == {
        "renderer": {"colorStops": good}
    }
    for stop, path in [
        ({"value": 1.5, "color": "#000"}, "renderer.colorStops[0].value"),
        ({"value": -0.1, "color": "#000"}, "renderer.colorStops[0].value"),
        ({"color": "#000"}, "renderer.colorStops[0].value"),
        ({"value": 0.5}, "renderer.colorStops[0].color"),
        ({"value": 0.5, "color": "blue"}, "renderer.colorStops[0].color"),
        ({"value": 0.5, "color": "#000", "label": "x"}, "renderer.colorStops[0].label"),
    ]:
        assert path in paths({"renderer": {"colorStops": [stop]}}), stop
    unordered = [{"value": 0.5, "color": "#000"}, {"value": 0.2, "color": "#fff"}]
    assert "renderer" in paths({"renderer": {"colorStops": unordered}})


def test_interpolated_stops_rules() -> None:
    good = [
        {"value": -10, "label": "cold", "paint": {"circle-color": "#00f"}},
        {"value": 30, "paint": {}},
    ]
    assert styles.parse_patch({"renderer": {"stops": good}}) == {"renderer": {"stops": good}}
    for stop, path in [
        ({"paint": {}}, "renderer.stops[0].value"),
        ({"value": "1", "paint": {}}, "renderer.stops[0].value"),
        ({"value": 1}, "renderer.stops[0].paint"),
        ({"value": 1, "paint": {}, "label": 1}, "renderer.stops[0].label"),
        ({"value": 1, "paint": {}, "color": "#000"}, "renderer.stops[0].color"),
    ]:
        assert path in paths({"renderer": {"stops": [stop]}}), stop
    unordered = [{"value": 5, "paint": {}}, {"value": 1, "paint": {}}]
    assert "renderer" in paths({"renderer": {"stops": unordered}})


def test_lists_must_be_lists() -> None:
    for key in ("categories", "ranges", "colorStops", "stops"):
        assert f"renderer.{key}" in paths({"renderer": {key: {"value": 1}}})


def test_style_and_renderer_must_be_objects() -> None:
    assert paths([1, 2]) == {""}
    assert "renderer" in paths({"renderer": "single"})
    assert "renderer" in paths({"renderer": None})
    assert "renderer.paint" in paths({"renderer": {"paint": None}})
    assert "label" in paths({"label": "name"})
    assert "legend" in paths({"legend": 3})


def test_label_and_legend_known_keys_are_typed() -> None:
    assert "label.size" in paths({"label": {"size": -1}})
    assert "label.color" in paths({"label": {"color": "black"}})
    assert "legend.visible" in paths({"legend": {"visible": "yes"}})
    raw = {"label": {"field": "name", "font": "Noto Sans"}, "legend": {"title": "Cities"}}
    assert styles.parse_patch(raw) == raw


def test_a_client_meta_is_dropped() -> None:
    assert styles.parse_patch({"_meta": {"x": 1}, "label": {"field": "a"}}) == {
        "label": {"field": "a"}
    }


# --- merge rules (docs/styles.md) -----------------------------------------------------------------

STORED: dict[str, Any] = {
    "renderer": {
        "type": "categorized",
        "field": "kind",
        "paint": {"fill-color": "#111111", "fill-opacity": 0.5},
        "categories": [
            {"value": "a", "paint": {"fill-color": "#ff0000"}},
            {"value": "b", "paint": {"fill-color": "#00ff00"}},
        ],
        "outline": {"width": 1, "color": "#000"},
    },
    "label": {"field": "name", "size": 12},
    "legend": {"title": "Kinds", "visible": True},
    "_meta": {"generatedBy": "maproom"},
    "extra": {"kept": True},
}


def merged(patch: dict[str, Any]) -> dict[str, Any]:
    stored = copy.deepcopy(STORED)
    out = styles.merge(stored, styles.parse_patch(patch))
    assert stored == STORED, "merge must not mutate the stored style"
    return out


def test_rule_1_omitted_top_level_keys_are_kept() -> None:
    out = merged({"legend": {"title": "New"}})
    assert out["renderer"] == STORED["renderer"]
    assert out["label"] == STORED["label"]
    assert out["extra"] == {"kept": True}


def test_rule_1_other_top_level_keys_replace_whole() -> None:
    assert merged({"extra": {"other": 1}})["extra"] == {"other": 1}


def test_rule_2_paint_is_deep_merged_when_the_type_is_unchanged() -> None:
    same_type = merged({"renderer": {"type": "categorized", "paint": {"fill-opacity": 0.9}}})
    assert same_type["renderer"]["paint"] == {"fill-color": "#111111", "fill-opacity": 0.9}
    no_type = merged({"renderer": {"paint": {"line-width": 2}}})
    assert no_type["renderer"]["paint"] == {
        "fill-color": "#111111",
        "fill-opacity": 0.5,
        "line-width": 2,
    }


def test_rule_3_omitted_renderer_fields_and_type_inherit() -> None:
    out = merged({"renderer": {"field": "use"}})
    renderer = out["renderer"]
    assert renderer["type"] == "categorized"
    assert renderer["field"] == "use"
    assert renderer["categories"] == STORED["renderer"]["categories"]
    assert renderer["outline"] == STORED["renderer"]["outline"]


def test_given_renderer_lists_and_objects_replace_whole() -> None:
    categories = [{"value": "c", "paint": {"fill-color": "#0000ff"}}]
    out = merged({"renderer": {"categories": categories, "outline": {"width": 3}}})
    assert out["renderer"]["categories"] == categories
    assert out["renderer"]["outline"] == {"width": 3}


def test_a_new_renderer_type_replaces_the_renderer() -> None:
    out = merged({"renderer": {"type": "heatmap", "radius": 20}})
    assert out["renderer"] == {"type": "heatmap", "radius": 20}
    assert out["label"] == STORED["label"]


def test_rule_4_label_and_legend_are_merged() -> None:
    out = merged({"label": {"size": 14, "color": "#333"}, "legend": {"visible": False}})
    assert out["label"] == {"field": "name", "size": 14, "color": "#333"}
    assert out["legend"] == {"title": "Kinds", "visible": False}


def test_label_null_clears_it() -> None:
    assert merged({"label": None})["label"] is None


def test_rule_5_meta_is_preserved() -> None:
    out = merged({"_meta": {"generatedBy": "client"}, "legend": {"title": "x"}})
    assert out["_meta"] == {"generatedBy": "maproom"}


def test_an_empty_patch_changes_nothing() -> None:
    assert merged({}) == STORED


def test_a_style_without_a_type_cannot_be_merged_into_nothing() -> None:
    with pytest.raises(BadRequest) as caught:
        styles.merge({}, styles.parse_patch({"renderer": {"paint": {}}}))
    assert caught.value.details == [{"path": "renderer.type", "message": "field required"}]


def test_open_renderer_keys_only_for_multi_field_and_chart() -> None:
    chart = {"type": "chart", "fields": ["a", "b"], "chartType": "pie", "anything": {"x": 1}}
    assert styles.merge(STORED, styles.parse_patch({"renderer": chart}))["renderer"] == chart
    multi = {"type": "multi_field", "fields": ["a"], "colors": ["#000"]}
    assert styles.merge(STORED, styles.parse_patch({"renderer": multi}))["renderer"] == multi
    with pytest.raises(BadRequest) as caught:
        merged({"renderer": {"anything": 1}})
    assert caught.value.details[0]["path"] == "renderer.anything"
    with pytest.raises(BadRequest):
        merged({"renderer": {"type": "single", "fields": ["a"]}})
    assert "renderer.fields[0]" in paths({"renderer": {"type": "chart", "fields": [1]}})
    assert "renderer.chartType" in paths({"renderer": {"type": "chart", "chartType": "line"}})


def test_full_styles_need_a_renderer_type_and_keep_meta() -> None:
    with pytest.raises(BadRequest):
        styles.parse_full({"renderer": {"paint": {}}})
    new = styles.parse_full({"renderer": {"type": "single"}, "_meta": {"x": 1}})
    assert styles.replace(STORED, new) == {"renderer": {"type": "single"}, "_meta": STORED["_meta"]}


# --- defaults and legends ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("layer_type", "geometry", "keys"),
    [
        ("geojson", "Point", {"circle-color", "circle-radius"}),
        ("geojson", "LineString", {"line-color", "line-width"}),
        ("geojson", "Polygon", {"fill-color", "fill-opacity", "_outline-color"}),
        ("geojson", "mixed", {"circle-color", "line-color", "fill-color"}),
        ("cog", None, set()),
        ("tile", None, set()),
    ],
)
def test_defaults_are_valid_single_renderers(
    layer_type: str, geometry: str | None, keys: set[str]
) -> None:
    style = styles.default_style(layer_type, geometry)
    assert style["renderer"]["type"] == "single"
    assert keys <= set(style["renderer"]["paint"])
    assert "_meta" in style
    assert styles.merge(style, styles.parse_patch(style))["renderer"] == style["renderer"]


def test_legend_for_each_renderer() -> None:
    single = styles.default_style("geojson", "Point")
    assert styles.legend_items(single, "Point") == [
        {"label": "All features", "paint": single["renderer"]["paint"]}
    ]
    categorized = styles.legend_items(STORED, "Polygon")
    assert [item["label"] for item in categorized] == ["a", "b"]
    assert categorized[0]["paint"] == {"fill-color": "#ff0000", "fill-opacity": 0.5}
    graduated = {
        "renderer": {
            "type": "graduated",
            "ranges": [
                {"from": 0, "to": 10, "paint": {"fill-color": "#eee"}},
                {"from": 10, "to": None, "label": "many", "paint": {"fill-color": "#111"}},
            ],
        }
    }
    assert [item["label"] for item in styles.legend_items(graduated, "Polygon")] == [
        "0 - 10",
        "many",
    ]
    ramp = [{"value": 0, "color": "#000"}, {"value": 1, "color": "#fff"}]
    heat = {"renderer": {"type": "heatmap", "weightField": "mag", "colorStops": ramp}}
    assert styles.legend_items(heat, "Point") == [{"label": "mag", "ramp": ramp}]
    assert styles.legend_items({"renderer": {"type": "heatmap"}}, "Point")[0]["ramp"]
    interpolated = {
        "renderer": {
            "type": "interpolated",
            "field": "t",
            "stops": [
                {"value": 0, "paint": {"circle-color": "#00f"}},
                {"value": 30, "paint": {"circle-color": "#f00"}},
            ],
        }
    }
    assert styles.legend_items(interpolated, "Point") == [
        {"label": "t", "ramp": [{"value": 0, "color": "#00f"}, {"value": 30, "color": "#f00"}]}
    ]
    chart = {"renderer": {"type": "chart", "fields": ["a", "b"]}}
    assert [item["label"] for item in styles.legend_items(chart, "Point")] == ["a", "b"]
    with_default = copy.deepcopy(STORED)
    with_default["renderer"]["default"] = {"fill-color": "#999"}
    assert styles.legend_items(with_default, "Polygon")[-1]["label"] == "Other"
