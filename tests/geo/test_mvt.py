"""The hand-written Mapbox Vector Tile encoder (docs/tiles.md, "Cold tiles"), read back by an
independent decoder (`mapbox-vector-tile`): geometry types, winding, tags of every type."""

from __future__ import annotations

import itertools
from typing import Any

import mapbox_vector_tile
import shapely

from maproom.geo import mvt


def decoded(layer: mvt.Layer) -> list[dict[str, Any]]:
    tile = mapbox_vector_tile.decode(mvt.encode([layer]), default_options={"y_coord_down": True})
    assert tile[layer.name]["extent"] == layer.extent
    return list(tile[layer.name]["features"])


def test_points_and_their_properties_of_every_type() -> None:
    layer = mvt.Layer("sites")
    props = {"name": "Belém", "visitors": 1200000, "delta": -7, "score": 4.25, "open": True}
    layer.add_point(10, 4090, props)
    layer.add_point(-60, 2000, {"name": "Belém", "open": False})  # in the buffer, values shared
    first, second = decoded(layer)
    assert first["geometry"] == {"type": "Point", "coordinates": [10, 4090]}
    assert first["properties"] == props
    assert second["geometry"]["coordinates"] == [-60, 2000]
    assert second["properties"] == {"name": "Belém", "open": False}


def test_lines_lose_repeated_pixels_and_keep_their_shape() -> None:
    layer = mvt.Layer("rivers")
    layer.add_shape(shapely.LineString([(0, 0), (10.2, 0.1), (10.4, 0.3), (20, 35)]), {"n": 1})
    layer.add_shape(
        shapely.MultiLineString([[(0, 0), (5, 5)], [(100, 100), (90, 120), (80, 80)]]), {}
    )
    line, multi = decoded(layer)
    assert line["geometry"] == {"type": "LineString", "coordinates": [[0, 0], [10, 0], [20, 35]]}
    assert multi["geometry"] == {
        "type": "MultiLineString",
        "coordinates": [[[0, 0], [5, 5]], [[100, 100], [90, 120], [80, 80]]],
    }


def test_polygons_are_wound_as_version_2_says_and_keep_their_holes() -> None:
    outer = [(0, 0), (0, 100), (100, 100), (100, 0), (0, 0)]  # anticlockwise on screen
    hole = [(20, 20), (80, 20), (80, 80), (20, 80), (20, 20)]  # clockwise on screen
    layer = mvt.Layer("districts")
    layer.add_shape(shapely.Polygon(outer, [hole]), {"name": "A"})
    layer.add_shape(
        shapely.MultiPolygon([shapely.box(200, 200, 300, 300), shapely.box(400, 400, 410, 410)]),
        {},
    )
    polygon, multi = decoded(layer)
    shape = shapely.geometry.shape(polygon["geometry"])
    assert shape.equals(shapely.Polygon(outer, [hole]))
    assert shape.area == 100 * 100 - 60 * 60
    exterior = polygon["geometry"]["coordinates"][0]
    area = sum(a[0] * b[1] - b[0] * a[1] for a, b in itertools.pairwise(exterior))
    assert area > 0  # positive with y down: clockwise on screen
    assert shapely.geometry.shape(multi["geometry"]).area == 100 * 100 + 10 * 10


def test_what_rounding_leaves_nothing_of_is_not_added() -> None:
    layer = mvt.Layer("tiny")
    layer.add_shape(shapely.box(0.1, 0.1, 0.3, 0.3), {})  # a polygon smaller than a pixel
    layer.add_shape(shapely.LineString([(5, 5), (5.2, 5.1)]), {})
    assert len(layer) == 0
    assert mvt.encode([layer]) == b""


def test_large_values_and_coordinates() -> None:
    layer = mvt.Layer("big", extent=4096)
    layer.add_point(40000, -40000, {"id": 2**40, "neg": -(2**40)})
    (feature,) = decoded(layer)
    assert feature["geometry"]["coordinates"] == [40000, -40000]
    assert feature["properties"] == {"id": 2**40, "neg": -(2**40)}
