"""Layer exports over HTTP (docs/exports.md): every format read back with GDAL (pyogrio) or
GeoPandas and compared with the layer, filtered exports, a raster's COG, and the refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import geopandas
import httpx
import orjson
import pyogrio
import pytest
import shapely
from fastapi import FastAPI
from rio_cogeo.cogeo import cog_validate

from tests import makers
from tests.api.test_analysis import act, world
from tests.chat.support import CITIES, DISTRICTS, WORLD_RIVERS
from tests.support import assert_error, detail_paths, http_client, new_key

pytestmark = pytest.mark.anyio

VECTOR_FORMATS = ["geojson", "gpkg", "fgb", "csv", "parquet"]
LAYERS = {"cities": CITIES, "districts": DISTRICTS, "rivers": WORLD_RIVERS}


def read_back(path: Path, fmt: str) -> geopandas.GeoDataFrame:
    """The file as GDAL (pyogrio) reads it; GeoParquet as GeoPandas does (the GDAL of the
    pyogrio wheel has no Parquet driver)."""
    if fmt == "parquet":
        return geopandas.read_parquet(path)
    if fmt == "csv":
        return pyogrio.read_dataframe(path, AUTODETECT_TYPE="YES", KEEP_GEOM_COLUMNS="NO")
    return pyogrio.read_dataframe(path)


def same_features(frame: geopandas.GeoDataFrame, features: list[dict[str, Any]]) -> None:
    """The frame holds these features (in any order: FlatGeobuf sorts them along its spatial
    index): every property equal, every coordinate within 1e-7 degrees."""
    assert len(frame) == len(features)
    rows = sorted(frame.itertuples(index=False), key=lambda row: _place(row.geometry))
    wanted = sorted(features, key=lambda f: _place(shapely.geometry.shape(f["geometry"])))
    for row, feature in zip(rows, wanted, strict=True):
        for name, value in feature["properties"].items():
            got = getattr(row, name) if name.isidentifier() else None
            if isinstance(value, bool):
                assert bool(got) is value, (name, got, value)
            elif isinstance(value, int | float):
                assert got == pytest.approx(value), (name, got, value)
            else:
                assert got == value, (name, got, value)
        expected = shapely.geometry.shape(feature["geometry"])
        assert shapely.equals_exact(
            shapely.normalize(_single(row.geometry)), shapely.normalize(expected), tolerance=1e-7
        ), (row.geometry, expected)


def _place(geometry: Any) -> tuple[float, float]:
    point = geometry.centroid
    return round(point.x, 6), round(point.y, 6)


def _single(geometry: Any) -> Any:
    """A one-part multi-geometry as its part (polygons are exported as multipolygons when a
    layer holds both)."""
    parts = getattr(geometry, "geoms", None)
    return parts[0] if parts is not None and len(parts) == 1 else geometry


async def export(
    api: httpx.AsyncClient, project: str, layer: str, fmt: str, tmp_path: Path, **params: Any
) -> Path:
    response = await api.get(
        f"/api/v1/sessions/{project}/layers/{layer}/export", params={"format": fmt, **params}
    )
    assert response.status_code == 200, response.text
    disposition = response.headers["content-disposition"]
    assert disposition.startswith("attachment;") and f'.{fmt}"' in disposition
    path = tmp_path / f"{layer}.{fmt}"
    path.write_bytes(response.content)
    return path


@pytest.mark.parametrize("fmt", VECTOR_FORMATS)
async def test_every_format_reads_back_as_the_layer(
    api: httpx.AsyncClient, tmp_path: Path, fmt: str
) -> None:
    project, ids = await world(api)
    for ref, collection in LAYERS.items():
        path = await export(api, project, ids[ref], fmt, tmp_path)
        same_features(read_back(path, fmt), collection["features"])
    if fmt in ("gpkg", "fgb"):
        info = pyogrio.read_info(tmp_path / f"{ids['cities']}.{fmt}")
        assert info["geometry_type"] == "Point" and info["crs"] == "EPSG:4326"
        assert dict(zip(info["fields"], info["dtypes"], strict=True)) == {
            "name": "object", "country": "object", "population": "int64", "capital": "bool",
        }  # fmt: skip


async def test_a_filtered_export_has_only_the_matching_features(
    api: httpx.AsyncClient, tmp_path: Path
) -> None:
    project, ids = await world(api)
    large = {"field": "population", "op": ">", "value": 10_000_000}
    expected = [f for f in CITIES["features"] if f["properties"]["population"] > 10_000_000]
    for fmt in ("gpkg", "geojson"):
        path = await export(
            api, project, ids["cities"], fmt, tmp_path, filter=orjson.dumps(large).decode()
        )
        same_features(read_back(path, fmt), expected)
    # A layer exports what it draws: its style's filter, then the request's.
    capitals = {"field": "capital", "op": "==", "value": True}
    assert (await act(api, project, {"type": "set_layer_filter", "layer_id": ids["cities"],
                                     "filter": capitals})).status_code == 200  # fmt: skip
    path = await export(
        api, project, ids["cities"], "fgb", tmp_path, filter=orjson.dumps(large).decode()
    )
    both = [f for f in expected if f["properties"]["capital"]]
    assert 0 < len(both) < len(expected)
    same_features(read_back(path, "fgb"), both)


async def test_a_csv_upload_exports_as_a_geopackage(api: httpx.AsyncClient, tmp_path: Path) -> None:
    project = (await api.post("/api/v1/sessions", json={})).json()["id"]
    made = await api.post(f"/api/v1/sessions/{project}/files",
                          files={"file": ("towns.csv", makers.csv_latlon())})  # fmt: skip
    layer = made.json()["layer"]
    path = await export(api, project, layer["layer_id"], "gpkg", tmp_path)
    frame = read_back(path, "gpkg")
    assert sorted(frame["name"]) == sorted(p[2] for p in makers.POINTS)
    assert frame["population"].dtype == "int64"


async def test_a_geotiff_layer_exports_its_cog(api: httpx.AsyncClient, tmp_path: Path) -> None:
    project = (await api.post("/api/v1/sessions", json={})).json()["id"]
    tiff = makers.geotiff(tmp_path / "in.tif")
    made = await api.post(f"/api/v1/sessions/{project}/files", files={"file": ("dem.tif", tiff)})
    layer = made.json()["layer"]["layer_id"]
    path = await export(api, project, layer, "tif", tmp_path)
    valid, errors, _ = cog_validate(str(path))
    assert valid, errors
    by_default = await api.get(f"/api/v1/sessions/{project}/layers/{layer}/export")
    assert by_default.content == path.read_bytes()  # a raster's export is its COG
    refused = await api.get(f"/api/v1/sessions/{project}/layers/{layer}/export?format=gpkg")
    assert_error(refused, 400, "bad_request")
    assert detail_paths(refused) == ["format"]


async def test_refusals(app: FastAPI, api: httpx.AsyncClient) -> None:
    project, ids = await world(api)
    base = f"/api/v1/sessions/{project}/layers/{ids['cities']}/export"
    bad_format = await api.get(f"{base}?format=shp")
    assert_error(bad_format, 400, "bad_request")
    assert detail_paths(bad_format) == ["format"]
    assert "gpkg" in bad_format.json()["error"]["message"]
    assert detail_paths(await api.get(f"{base}?format=csv&filter={{")) == ["filter"]
    unknown_field = orjson.dumps({"field": "nope", "op": "==", "value": 1}).decode()
    assert_error(await api.get(f"{base}?format=csv&filter={unknown_field}"), 400, "bad_request")
    async with http_client(app, new_key(app, email="stranger@example.com")) as stranger:
        assert_error(await stranger.get(f"{base}?format=gpkg"), 404, "not_found")
    tiles = await act(api, project, {"type": "add_tile_layer",
                                     "url": "https://t.example.com/{z}/{x}/{y}.png"})  # fmt: skip
    remote = tiles.json()["layers"][0]["layer_id"]
    refused = await api.get(f"/api/v1/sessions/{project}/layers/{remote}/export?format=tif")
    assert "not stored by maproom" in assert_error(refused, 400, "bad_request")["message"]
