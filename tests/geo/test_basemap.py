"""maproom's offline basemap tiles (`maproom.geo.basemap`)."""

from __future__ import annotations

import mapbox_vector_tile
import pytest
import shapely
from shapely.geometry import shape

from maproom.geo import basemap
from maproom.geo.tilestore import EXTENT


def land_share(z: int, x: int, y: int) -> float:
    """How much of a tile the land polygons cover."""
    layer = mapbox_vector_tile.decode(
        basemap.tile(z, x, y), default_options={"y_coord_down": True}
    )[basemap.LAYER]
    tile = shapely.box(0, 0, EXTENT, EXTENT)
    parts = [shapely.make_valid(shape(f["geometry"])) for f in layer["features"]]
    return sum(float(p.intersection(tile).area) for p in parts) / EXTENT**2  # no overlaps


def test_world_tile_holds_the_countries() -> None:
    layer = mapbox_vector_tile.decode(basemap.tile(0, 0, 0))[basemap.LAYER]
    names = {f["properties"]["name"] for f in layer["features"]}
    assert {"Portugal", "Brazil", "Japan", "Antarctica"} <= names
    assert 0.2 < land_share(0, 0, 0) < 0.6


def test_oceans_stay_water() -> None:
    """Antarctica's ring runs to the pole; once projected it must not cover the South Atlantic."""
    assert land_share(2, 1, 2) < 0.5
    assert land_share(4, 6, 7) < 0.01  # open Atlantic west of Africa (Cape Verde at most)


def test_deep_zooms_keep_the_detail_and_stay_small() -> None:
    lisbon = basemap.tile(10, 486, 392)
    assert 0.05 < land_share(10, 486, 392) < 0.95  # the coast crosses the tile
    assert len(lisbon) < 50_000


def test_no_such_tile() -> None:
    with pytest.raises(ValueError):
        basemap.tile(3, 8, 0)
