"""Field statistics gathered while a layer is written: kinds, ranges, samples, frequencies and
the reservoir of numbers, in bounded memory."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from maproom.geo import fields
from maproom.geo.fields import FieldProfiler, Profile, profile_geojson, profile_of


def profile(rows: list[dict[str, object]]) -> Profile:
    profiler = FieldProfiler()
    for row in rows:
        profiler.add(row)
    return profiler.profile()


def test_kinds_ranges_and_samples() -> None:
    rows = [
        {"name": "Lisbon", "pop": 545_000, "capital": True, "area": 100.5, "mixed": 1},
        {"name": "Porto", "pop": 232_000, "capital": False, "area": None, "mixed": "x"},
        {"name": "Porto", "pop": 1_000, "capital": False, "tags": ["a"], "mixed": None},
    ]
    summary = {entry["name"]: entry for entry in profile(rows).summary()}
    assert summary["name"] == {"name": "name", "type": "string", "sample": ["Lisbon", "Porto"]}
    assert summary["pop"] == {
        "name": "pop", "type": "number", "min": 1000, "max": 545000,
        "sample": [545000, 232000, 1000],
    }  # fmt: skip
    assert summary["capital"]["type"] == "boolean"
    assert summary["area"] == {"name": "area", "type": "number", "min": 100.5, "max": 100.5,
                               "sample": [100.5]}  # fmt: skip
    assert summary["mixed"]["type"] == "mixed"
    assert summary["tags"] == {"name": "tags", "type": "mixed", "sample": []}


def test_frequencies_most_common_first() -> None:
    rows = [{"kind": kind} for kind in "aabbbcdddd"] + [{"kind": None}]
    stats = profile(rows).get("kind")
    assert stats is not None
    assert stats.top(2) == [("d", 4), ("b", 3)]
    numbers = profile([{"n": n} for n in (3, 3, 1, 2, 2, 2)]).get("n")
    assert numbers is not None and numbers.top(3) == [(2, 3.0), (3, 2.0), (1, 1.0)]


def test_the_reservoir_is_exact_for_small_layers_and_bounded_for_big_ones() -> None:
    small = profile([{"v": float(i)} for i in range(1000)]).get("v")
    assert small is not None
    assert sorted(small.values.tolist()) == [float(i) for i in range(1000)]
    big = FieldProfiler(seed=7)
    for i in range(200_000):
        big.add({"v": i})
    stats = big.profile().get("v")
    assert stats is not None
    assert stats.values.size == fields.RESERVOIR
    assert stats.seen_numbers == 200_000
    # A uniform sample: its quartiles are close to the whole layer's.
    assert np.quantile(stats.values, 0.25) == pytest.approx(50_000, rel=0.02)
    assert np.quantile(stats.values, 0.75) == pytest.approx(150_000, rel=0.02)


def test_many_numeric_columns_share_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fields, "BUDGET", 40_000)
    profiler = FieldProfiler()
    for i in range(30_000):
        profiler.add({f"c{j}": i + j for j in range(8)})
    result = profiler.profile()
    assert profiler.capacity == max(fields.FLOOR, 40_000 // 8)
    assert all(stats.values.size == profiler.capacity for stats in result.fields)


def test_text_that_is_all_distinct_stops_being_counted() -> None:
    result = profile([{"id": f"row-{i}"} for i in range(20_000)]).get("id")
    assert result is not None and result.unique_text
    assert len(result.counts) <= fields.TOP


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    original = profile([{"a": i % 7, "b": f"k{i % 3}"} for i in range(500)])
    original.save(tmp_path / "p.npz")
    loaded = Profile.load(tmp_path / "p.npz")
    assert loaded.summary() == original.summary()
    for name in ("a", "b"):
        first, second = original.get(name), loaded.get(name)
        assert first is not None and second is not None
        assert first.top(5) == second.top(5)
        assert np.array_equal(first.values, second.values)


def test_a_stored_layer_file_can_be_profiled_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "layer.geojson"
    path.write_bytes(
        b'{"type":"FeatureCollection","features":[\n'
        b'{"type":"Feature","geometry":null,"properties":{"v":1}},\n'
        b'{"type":"Feature","geometry":null,"properties":{"v":5}}\n]}\n'
    )
    assert profile_geojson(path).summary() == [
        {"name": "v", "type": "number", "min": 1, "max": 5, "sample": [1, 5]}
    ]
    assert profile_of([{"properties": {"v": 1}}]).rows == 1
