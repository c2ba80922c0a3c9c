"""A filter means the same in Python (tiles, a layer's GeoJSON) and in SQL (the analysis
engine's questions): random filters over a table of varied values keep the same features."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson

from maproom.geo import table
from maproom.geo.base import feature_writer
from maproom.geo.fields import profile_geojson
from maproom.geo.filters import OPS, matches, to_sql

NAMES = ["Lisbon", "lisbon", "Porto", "São Paulo", "", "Zürich"]


def _properties(pick: random.Random) -> dict[str, Any]:
    row: dict[str, Any] = {}
    if pick.random() < 0.9:
        row["n"] = pick.choice([pick.randint(-5, 5), pick.uniform(-5, 5), 0])
    if pick.random() < 0.9:
        row["s"] = pick.choice(NAMES)
    if pick.random() < 0.9:
        row["b"] = pick.random() < 0.5
    return row


def _condition(pick: random.Random) -> dict[str, Any]:
    field = pick.choice(["n", "s", "b"])
    op = pick.choice(OPS)
    sample = {"n": lambda: pick.randint(-5, 5), "s": lambda: pick.choice(NAMES),
              "b": lambda: pick.random() < 0.5}[field]  # fmt: skip
    if op in ("is_null", "not_null"):
        return {"field": field, "op": op}
    if op in ("in", "not_in"):
        return {"field": field, "op": op, "value": [sample() for _ in range(3)]}
    if op == "contains":
        return {"field": "s", "op": op, "value": pick.choice(["lis", "PORTO", "ü", "x"])}
    if op in ("<", "<=", ">", ">=") and field == "b":
        field, sample = "n", lambda: pick.randint(-5, 5)
    return {"field": field, "op": op, "value": sample()}


def _filter(pick: random.Random, depth: int = 0) -> dict[str, Any]:
    if depth < 2 and pick.random() < 0.4:
        key = pick.choice(["all", "any"])
        return {key: [_filter(pick, depth + 1) for _ in range(pick.randint(1, 3))]}
    return _condition(pick)


def test_python_and_sql_keep_the_same_features(tmp_path: Path) -> None:
    pick = random.Random(9)
    rows = [_properties(pick) for _ in range(300)]
    data = tmp_path / "layer.geojson"
    with feature_writer(data) as sink:
        for i, props in enumerate(rows):
            geometry = {"type": "Point", "coordinates": [i % 90, i % 45]}
            sink.write(orjson.dumps({"type": "Feature", "geometry": geometry,
                                     "properties": props}))  # fmt: skip
    fields = profile_geojson(data).summary()
    con = table.engine(128, tmp_path)
    built = table.Table(table.build(con, data, fields, tmp_path / "t.parquet"), fields)
    for _ in range(300):
        where = _filter(pick)
        condition, params = to_sql(where, built.columns)
        found = con.execute(
            f"SELECT __fid FROM {built.source} WHERE {condition} ORDER BY __fid", params
        ).fetchall()
        expected = [i for i, props in enumerate(rows) if matches(where, props)]
        assert [fid for (fid,) in found] == expected, where
