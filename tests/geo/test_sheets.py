"""Workbook uploads (.xlsx written by openpyxl, .xls written by xlwt): first sheet, same rules."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlwt

from maproom.geo import convert
from maproom.geo.tabular import typed_cell
from tests.geo.support import read_layer, rejects


def xlsx(path: Path, *sheets: list[list[Any]]) -> Path:
    """Write a workbook with one sheet per list of rows."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for index, rows in enumerate(sheets):
        sheet = book.create_sheet(f"Sheet{index + 1}")
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def xls(path: Path, rows: list[list[Any]]) -> Path:
    """Write a legacy Excel 97 workbook with one sheet."""
    book = xlwt.Workbook()
    sheet = book.add_sheet("data")
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            sheet.write(r, c, value)
    book.save(str(path))
    return path


def test_xlsx_first_sheet_with_typed_cells(tmp_path: Path, workdir: Path) -> None:
    rows: list[list[Any]] = [
        ["Name", "Latitude", "Longitude", "Count", "Share", "Code", "Since", "Open", "Note"],
        ["Berlin", 52.52, 13.405, 12.0, 0.25, "007", datetime(2024, 5, 1), True, None],
        ["Lisbon", "38.72", "-9.14", 3, "1.5", "12", date(2023, 1, 2), False, "port"],
    ]
    path = xlsx(tmp_path / "cities.xlsx", rows, [["lat", "lon"], [0, 0], [1, 1]])

    result = convert(path, "xlsx", workdir)

    assert (result.layer_type, result.feature_count, result.geometry_type) == (
        "geojson",
        2,
        "Point",
    )
    assert result.bbox == (-9.14, 38.72, 13.405, 52.52)
    berlin, lisbon = read_layer(result)
    assert berlin["geometry"] == {"type": "Point", "coordinates": [13.405, 52.52]}
    props = berlin["properties"]
    assert {k: props[k] for k in ("Name", "Count", "Share", "Code", "Open", "Note")} == {
        "Name": "Berlin",
        "Count": 12,
        "Share": 0.25,
        "Code": "007",
        "Open": True,
        "Note": None,
    }
    assert props["Since"].startswith("2024-05-01")
    assert type(props["Count"]) is int
    assert lisbon["properties"]["Share"] == 1.5
    assert lisbon["properties"]["Code"] == 12
    assert lisbon["properties"]["Since"].startswith("2023-01-02")


def test_xlsx_skips_unusable_rows(tmp_path: Path, workdir: Path) -> None:
    rows: list[list[Any]] = [
        ["lat", "lng", "id"],
        [1, 2, "a"],
        ["n/a", 2, "b"],
        [95, 2, "c"],
        [None, None, None],
    ]
    path = xlsx(tmp_path / "points.xlsx", rows)

    result = convert(path, "xlsx", workdir)

    assert (result.feature_count, result.skipped_rows) == (1, 2)


def test_xlsx_wkt_column(tmp_path: Path, workdir: Path) -> None:
    rows: list[list[Any]] = [
        ["id", "geom"],
        [1, "LINESTRING (0 0, 3 4)"],
        [2, "POLYGON ((0 0, 1 0, 1 1, 0 0))"],
    ]
    path = xlsx(tmp_path / "shapes.xlsx", rows)

    result = convert(path, "xlsx", workdir)

    assert (result.feature_count, result.geometry_type) == (2, "mixed")
    assert result.bbox == (0.0, 0.0, 3.0, 4.0)


def test_xls_written_by_xlwt(tmp_path: Path, workdir: Path) -> None:
    path = xls(tmp_path / "legacy.xls", [["Y", "X", "label"], [48.1, 11.6, "München"]])

    result = convert(path, "xls", workdir)

    [only] = read_layer(result)
    assert only["geometry"] == {"type": "Point", "coordinates": [11.6, 48.1]}
    assert only["properties"] == {"label": "München"}


def test_workbook_format_is_sniffed_from_content(tmp_path: Path, workdir: Path) -> None:
    path = xlsx(tmp_path / "misnamed.xls", [["lat", "lon"], [1, 2]])

    assert convert(path, "xls", workdir).feature_count == 1


def test_workbook_without_coordinate_columns(tmp_path: Path, workdir: Path) -> None:
    path = xlsx(tmp_path / "table.xlsx", [["city", "country"], ["Berlin", "DE"]])

    message = rejects(path, "xlsx", workdir)

    assert "no coordinate columns" in message
    assert "found columns: 'city', 'country'" in message


def test_empty_sheet(tmp_path: Path, workdir: Path) -> None:
    path = xlsx(tmp_path / "empty.xlsx", [])

    assert "the table is empty" in rejects(path, "xlsx", workdir)


@pytest.mark.parametrize("extension", ["xlsx", "xls"])
def test_not_a_workbook(tmp_path: Path, workdir: Path, extension: str) -> None:
    path = tmp_path / f"fake.{extension}"
    path.write_bytes(b"PK\x03\x04 this is no spreadsheet")

    assert "not a readable Excel workbook" in rejects(path, extension, workdir)


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        (None, None),
        ("", None),
        ("42", 42),
        ("007", "007"),
        (3.0, 3),
        (2.5, 2.5),
        (1e300, 1e300),
        (float("nan"), None),
        (2**60, str(2**60)),
        (-7, -7),
        (False, False),
        (date(2024, 5, 1), "2024-05-01"),
        (datetime(2024, 5, 1, 12, 30), "2024-05-01T12:30:00"),
        (time(8, 15), "08:15:00"),
        (timedelta(hours=1), "1:00:00"),
    ],
)
def test_cell_typing(cell: Any, expected: Any) -> None:
    typed = typed_cell(cell)

    assert typed == expected
    assert type(typed) is type(expected)
