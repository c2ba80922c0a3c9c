"""Helpers for the geo tests: read a layer output as its layout promises, expect a rejection."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from maproom.geo import Conversion, GeoError, convert

Write = Callable[[str, bytes | str], Path]


def read_layer(conversion: Conversion) -> list[dict[str, Any]]:
    """The features of a GeoJSON output, read line by line as the documented layout promises."""
    assert conversion.output is not None
    data = conversion.output.read_bytes()
    assert conversion.output_bytes == len(data)
    whole = orjson.loads(data)
    lines = data.decode().splitlines()
    assert lines[0] == '{"type":"FeatureCollection","features":['
    assert lines[-1] == "]}"
    features = [orjson.loads(line.removesuffix(",")) for line in lines[1:-1]]
    assert all(line.endswith(",") for line in lines[1:-2])
    assert not lines[-2].endswith(",") or len(lines) == 2
    assert features == whole["features"]
    assert whole["type"] == "FeatureCollection"
    return features


def rejects(path: Path, extension: str, workdir: Path) -> str:
    """Convert, expect GeoError, check that the work folder stayed empty, return the message."""
    with pytest.raises(GeoError) as caught:
        convert(path, extension, workdir)
    assert list(workdir.iterdir()) == []
    assert caught.value.message == str(caught.value)
    return caught.value.message
