"""A polygon of 1,000,000 vertices: its tiles at every zoom cost bounded memory (they are cut
from versions simplified for the zoom, docs/tiles.md), and are right: the outline at zoom 0
and the inside at zoom 14 both draw. (Their time is `bench/hostile.py`'s.)"""

from __future__ import annotations

import math

import httpx
import mapbox_vector_tile
import orjson

from tests.hostile.conftest import new_project
from tests.started import MB, Server

CENTER = (10.0, 45.0)


def star(vertices: int) -> bytes:
    """A wavy ring of `vertices` points around CENTER, about 5 degrees across."""
    ring = []
    for i in range(vertices):
        a = 2 * math.pi * i / vertices
        r = 5 + 0.5 * math.sin(a * 997) + 0.2 * math.sin(a * 31)
        ring.append([CENTER[0] + r * math.cos(a), CENTER[1] + 0.7 * r * math.sin(a)])
    ring.append(ring[0])
    feature = {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [ring]},
               "properties": {"name": "big"}}  # fmt: skip
    return orjson.dumps({"type": "FeatureCollection", "features": [feature]})


def tile_of(lng: float, lat: float, z: int) -> tuple[int, int]:
    n = 2**z
    y = (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n
    return int((lng + 180) / 360 * n), int(y)


def test_tiles_of_a_million_vertex_polygon(server: Server, api: httpx.Client) -> None:
    project = new_project(api)
    uploaded = api.post(
        f"/api/v1/sessions/{project}/files", files={"file": ("big.geojson", star(1_000_000))}
    )
    assert uploaded.status_code == 201, uploaded.text
    layer = uploaded.json()["layer"]["layer_id"]
    tiles = f"/api/v1/sessions/{project}/layers/{layer}/tiles"
    assert api.get(f"{tiles}/1/1/0.pbf").status_code == 200  # waits for the tile index

    before = server.reset_peak()
    for z in range(15):
        x, y = tile_of(*CENTER, z)  # the inside
        inside = api.get(f"{tiles}/{z}/{x}/{y}.pbf")
        x, y = tile_of(CENTER[0] + 5, CENTER[1], z)  # the edge
        edge = api.get(f"{tiles}/{z}/{x}/{y}.pbf")
        for response in (inside, edge):
            assert response.status_code == 200, response.text
            features = mapbox_vector_tile.decode(response.content)["layer"]["features"]
            assert [f["properties"] for f in features] == [{"name": "big"}]
            assert features[0]["geometry"]["type"] in ("Polygon", "MultiPolygon")
        assert len(edge.content) < 200_000
    growth = server.peak() - before
    assert growth < 60 * MB, f"30 tiles grew the server by {growth / MB:.0f} MB"
