"""Class breaks, colour ramps and labels."""

from __future__ import annotations

import numpy as np
import pytest

from maproom.geo import classify


def test_quantile_breaks_balance_the_classes() -> None:
    values = np.arange(1, 101, dtype=float)
    cuts = classify.quantile_breaks(values, 4)
    assert cuts == [26.0, 51.0, 76.0]  # integer data: integer boundaries
    counts = np.histogram(values, bins=[1, *cuts, 101])[0]
    assert counts.tolist() == [25, 25, 25, 25]


def test_repeated_values_make_fewer_classes() -> None:
    assert classify.quantile_breaks(np.array([1.0] * 10 + [2.0]), 5) == [2.0]
    assert classify.quantile_breaks(np.array([7.0]), 5) == []


def test_equal_breaks() -> None:
    assert classify.equal_breaks(0, 10, 4) == [2.5, 5.0, 7.5]
    assert classify.equal_breaks(0, 10, 4, integral=True) == [3.0, 5.0, 8.0]


@pytest.mark.parametrize("name", sorted(classify.RAMPS))
def test_named_ramps_give_n_hex_colours(name: str) -> None:
    for n in (2, 5, 12):
        colours = classify.ramp(name, n)
        assert len(colours) == n
        assert all(len(c) == 7 and c.startswith("#") for c in colours)
        assert len(set(colours)) == n


def test_ramp_ends_and_lists() -> None:
    assert classify.ramp("YlOrRd", 8) == list(classify.RAMPS["YlOrRd"][1:])  # light end dropped
    assert classify.ramp("Viridis", 9) == list(classify.RAMPS["Viridis"])
    assert classify.ramp(["#000000", "#ffffff"], 3) == ["#000000", "#808080", "#ffffff"]
    assert classify.ramp(["#ff0000"], 2) == ["#ff0000", "#ff0000"]


@pytest.mark.parametrize(
    ("number", "text"),
    [(12500.0, "12,500"), (3.25, "3.25"), (3.0, "3"), (0.00423, "0.00423"), (1234.5, "1,234"),
     (-7, "-7")],
)  # fmt: skip
def test_labels_read_as_people_write_numbers(number: float, text: str) -> None:
    assert classify.label(number) == text
