"""Small real files made by the tests themselves: GeoJSON, CSV, XLSX, GeoTIFF, PDF."""

from __future__ import annotations

import io
import warnings
from pathlib import Path
from typing import Any

import orjson

POINTS = [
    (-9.14, 38.72, "Lisbon", 545000),
    (2.35, 48.86, "Paris", 2161000),
    (13.4, 52.52, "Berlin", 3645000),
]


def geojson_points() -> bytes:
    """A FeatureCollection of three named points."""
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [lng, lat]},
            "properties": {"name": name, "population": pop},
        }
        for lng, lat, name, pop in POINTS
    ]
    return orjson.dumps({"type": "FeatureCollection", "features": features})


def geojson_polygons(n: int = 4) -> dict[str, Any]:
    """A FeatureCollection of `n` unit squares with a numeric `value`."""
    features = [
        {
            "type": "Feature",
            "geometry": {
                "type": "Polygon",
                "coordinates": [[[i, 0], [i + 1, 0], [i + 1, 1], [i, 1], [i, 0]]],
            },
            "properties": {"value": i * 10},
        }
        for i in range(n)
    ]
    return {"type": "FeatureCollection", "features": features}


def csv_latlon(extra_rows: str = "") -> bytes:
    """Points as lat/lon columns, plus any extra lines."""
    lines = ["name,lat,lon,population"]
    lines += [f"{name},{lat},{lng},{pop}" for lng, lat, name, pop in POINTS]
    return ("\n".join(lines) + "\n" + extra_rows).encode()


def csv_wkt() -> bytes:
    """Two lines as a WKT column."""
    return b'id,wkt\n1,"LINESTRING (0 0, 1 1)"\n2,"LINESTRING (1 1, 2 0)"\n'


def xlsx_points() -> bytes:
    """The same points in the first sheet of a workbook."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["name", "latitude", "longitude", "population"])
    for lng, lat, name, pop in POINTS:
        sheet.append([name, lat, lng, pop])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xls_points() -> bytes:
    """The same points in the first sheet of a legacy (BIFF) workbook, written with xlwt."""
    import xlwt

    book = xlwt.Workbook()
    sheet = book.add_sheet("cities")
    for col, title in enumerate(["name", "lat", "lng", "population"]):
        sheet.write(0, col, title)
    for row, (lng, lat, name, pop) in enumerate(POINTS, start=1):
        for col, value in enumerate([name, lat, lng, pop]):
            sheet.write(row, col, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def geotiff(path: Path, *, georeferenced: bool = True, size: int = 64) -> bytes:
    """A 3-band GeoTIFF over western Europe (or one with no georeferencing)."""
    import numpy as np
    import rasterio
    from affine import Affine

    profile: dict[str, Any] = {
        "driver": "GTiff",
        "width": size,
        "height": size,
        "count": 3,
        "dtype": "uint8",
    }
    if georeferenced:
        step = 20 / size  # -10..10 east, 35..55 north
        profile |= {"crs": "EPSG:4326", "transform": Affine(step, 0, -10, 0, -step, 55)}
    data = np.random.default_rng(1).integers(0, 255, (3, size, size), dtype="uint8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rasterio.errors.NotGeoreferencedWarning)
        with rasterio.open(path, "w", **profile) as dst:
            dst.write(data)
    return path.read_bytes()


def pdf() -> bytes:
    """A minimal one-page PDF."""
    return (
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
        b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 100 100]>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )
