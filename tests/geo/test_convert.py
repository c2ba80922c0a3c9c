"""The registry: every upload type has a converter; stored-only files make no layer."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from maproom.geo import SUPPORTED, Conversion, GeoError, convert, normalize_extension
from tests.geo.support import Write, read_layer, rejects

TINY_PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


def test_supported_types_are_those_of_the_spec() -> None:
    assert dict(SUPPORTED) == {
        "geojson": "geojson",
        "json": "geojson",
        "csv": "table",
        "xlsx": "table",
        "xls": "table",
        "tif": "raster",
        "tiff": "raster",
        "txt": "stored",
        "md": "stored",
        "docx": "stored",
        "doc": "stored",
        "pdf": "stored",
    }


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("report.pdf", TINY_PDF),
        ("notes.txt", b"lat,lon\n1,2\n"),
        ("README.md", b"# Notes\n"),
        ("letter.docx", b"PK\x03\x04"),
        ("old.doc", b"\xd0\xcf\x11\xe0"),
    ],
)
def test_documents_are_stored_without_a_layer(
    source: Write, workdir: Path, name: str, content: bytes
) -> None:
    path = source(name, content)

    result = convert(path, Path(name).suffix, workdir)

    assert result == Conversion(None, None, None, None, None)
    assert (result.skipped_rows, result.output_bytes) == (0, None)
    assert list(workdir.iterdir()) == []
    assert path.read_bytes() == content


def test_unsupported_type(source: Write, workdir: Path) -> None:
    path = source("roads.shp", b"\x00\x00\x27\x0a")

    message = rejects(path, "shp", workdir)

    assert message.startswith("unsupported file type 'shp'; accepted: .geojson, .json, .csv")


@pytest.mark.parametrize(
    ("raw", "normal"), [(".GeoJSON", "geojson"), ("CSV", "csv"), (" .tif ", "tif"), ("", "")]
)
def test_extension_normalisation(raw: str, normal: str) -> None:
    assert normalize_extension(raw) == normal


def test_extension_case_and_dot_do_not_matter(source: Write, workdir: Path) -> None:
    path = source("POINTS.CSV", "lat,lon\n1,2\n")

    assert convert(path, ".CSV", workdir).feature_count == 1


def test_success_replaces_an_earlier_output(source: Write, workdir: Path) -> None:
    (workdir / "layer.geojson").write_bytes(b"stale")
    path = source("points.csv", "lat,lon\n1,2\n")

    result = convert(path, "csv", workdir)

    assert len(read_layer(result)) == 1
    assert sorted(p.name for p in workdir.iterdir()) == ["layer.geojson", "layer.stats.npz"]


def test_a_source_inside_the_work_folder_may_share_the_output_name(workdir: Path) -> None:
    path = workdir / "layer.geojson"
    path.write_bytes(b'{"type": "Point", "coordinates": [1, 2]}')

    result = convert(path, "geojson", workdir)

    assert result.output == path
    assert read_layer(result)[0]["geometry"] == {"type": "Point", "coordinates": [1, 2]}


def test_results_are_frozen_and_errors_carry_their_message() -> None:
    result = Conversion("geojson", None, 0, None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.feature_count = 1  # type: ignore[misc]
    assert GeoError("what is wrong").message == "what is wrong"
