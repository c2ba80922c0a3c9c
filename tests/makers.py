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


XLSX_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
        'package/2006/content-types"><Default Extension="rels" ContentType="application/'
        'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
        '"application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName='
        '"/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.worksheet+xml"/></Types>'
    ),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
        'schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>'
    ),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.'
        'org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships"><sheets><sheet name="data" sheetId="1" r:id="rId1"/>'
        "</sheets></workbook>"
    ),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
        'schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
        'Target="worksheets/sheet1.xml"/></Relationships>'
    ),
}


def xlsx_rows(path: Path, rows: int, *, same: bool = False) -> Path:
    """A workbook of `rows` points (name, lat, lon, n), written as XML straight into the zip,
    row after row: a few MB of XLSX can hold hundreds of MB of sheet (`same`: every row alike,
    which compresses several hundred times)."""
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as book:
        for name, text in XLSX_PARTS.items():
            book.writestr(name, text)
        with book.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(
                b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.'
                b'openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">'
                b'<c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is>'
                b'<t>lat</t></is></c><c r="C1" t="inlineStr"><is><t>lon</t></is></c>'
                b'<c r="D1" t="inlineStr"><is><t>n</t></is></c></row>'
            )
            for start in range(0, rows, 10_000):
                chunk = []
                for i in range(start, min(rows, start + 10_000)):
                    if same:  # cell references are optional in OOXML
                        chunk.append(
                            '<row><c t="inlineStr"><is><t>p</t></is></c><c><v>1.5</v></c>'
                            "<c><v>2.5</v></c><c><v>7</v></c></row>"
                        )
                        continue
                    r = i + 2
                    chunk.append(
                        f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>p{i}</t></is></c>'
                        f'<c r="B{r}"><v>{(i % 160) - 80}.5</v></c><c r="C{r}"><v>'
                        f'{(i % 340) - 170}.25</v></c><c r="D{r}"><v>{i}</v></c></row>'
                    )
                sheet.write("".join(chunk).encode())
            sheet.write(b"</sheetData></worksheet>")
    return path
