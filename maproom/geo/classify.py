"""Classification of a field's values into classes, and the colour ramps that paint them.

Pure functions over NumPy arrays and numbers:

- `quantile_breaks(values, classes)`: class boundaries that put about as many values in each
  class (at least two classes when the values are not all equal);
  `equal_breaks(minimum, maximum, classes)`: boundaries of equal width. Both return the inner
  boundaries only (ascending, distinct, strictly above the minimum), so `k` boundaries make
  `k + 1` classes: fewer than asked when the values are few or repeated. Integer data gets
  integer boundaries.
- `ramp(name_or_colours, n)`: `n` colours along a named ramp (the ColorBrewer sequential and
  diverging schemes, and matplotlib's Viridis) or along a list of hex colours, interpolated in
  RGB. A sequential ColorBrewer scheme starts from its second colour, since its first is
  nearly white and would vanish on a light basemap.
- `QUALITATIVE`: twelve distinct colours for categories.
- `label(number)`: a number as people read it (`12,500`, `3.25`, `0.0042`).

The anchor colours are those of ColorBrewer 2.0 (Cynthia Brewer, Mark Harrower and The
Pennsylvania State University, Apache License 2.0) and of Viridis (Stéfan van der Walt and
Nathaniel Smith, CC0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

_ANCHORS = {
    "Blues": "f7fbff deebf7 c6dbef 9ecae1 6baed6 4292c6 2171b5 08519c 08306b",
    "Greens": "f7fcf5 e5f5e0 c7e9c0 a1d99b 74c476 41ab5d 238b45 006d2c 00441b",
    "Greys": "ffffff f0f0f0 d9d9d9 bdbdbd 969696 737373 525252 252525 000000",
    "Oranges": "fff5eb fee6ce fdd0a2 fdae6b fd8d3c f16913 d94801 a63603 7f2704",
    "Purples": "fcfbfd efedf5 dadaeb bcbddc 9e9ac8 807dba 6a51a3 54278f 3f007d",
    "Reds": "fff5f0 fee0d2 fcbba1 fc9272 fb6a4a ef3b2c cb181d a50f15 67000d",
    "YlOrRd": "ffffcc ffeda0 fed976 feb24c fd8d3c fc4e2a e31a1c bd0026 800026",
    "YlGnBu": "ffffd9 edf8b1 c7e9b4 7fcdbb 41b6c4 1d91c0 225ea8 253494 081d58",
    "RdYlBu": "a50026 d73027 f46d43 fdae61 fee090 ffffbf e0f3f8 abd9e9 74add1 4575b4 313695",
    "Spectral": "9e0142 d53e4f f46d43 fdae61 fee08b ffffbf e6f598 abdda4 66c2a5 3288bd 5e4fa2",
    "Viridis": "440154 472d7b 3b528b 2c728e 21918c 27ad81 5cc863 aadc32 fde725",
}
RAMPS: dict[str, tuple[str, ...]] = {
    name: tuple(f"#{code}" for code in codes.split()) for name, codes in _ANCHORS.items()
}
SEQUENTIAL = frozenset(
    {"Blues", "Greens", "Greys", "Oranges", "Purples", "Reds", "YlOrRd", "YlGnBu"}
)
DEFAULT_RAMP = "YlOrRd"
QUALITATIVE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#aec7e8", "#ffbb78",
)  # fmt: skip
OTHER = "#bdbdbd"  # what draws values outside the classes (nulls, the rest)


def quantile_breaks(values: np.ndarray, classes: int) -> list[float]:
    """Inner boundaries putting about `len(values) / classes` values in each class."""
    if values.size == 0:
        return []
    cuts = np.quantile(values, [k / classes for k in range(1, classes)], method="linear")
    minimum, maximum = float(values.min()), float(values.max())
    tidy = _tidy(cuts.tolist(), minimum, integral(values))
    if not tidy and maximum > minimum:
        tidy = [maximum]  # the values are nearly all one: still tell the others apart
    return tidy


def equal_breaks(
    minimum: float, maximum: float, classes: int, integral: bool = False
) -> list[float]:
    """Inner boundaries of `classes` classes of equal width between `minimum` and `maximum`."""
    step = (maximum - minimum) / classes
    return _tidy([minimum + k * step for k in range(1, classes)], minimum, integral)


def integral(values: np.ndarray) -> bool:
    """Whether every value is a whole number."""
    return bool(values.size) and bool(np.all(np.mod(values, 1) == 0))


def _tidy(cuts: list[float], minimum: float, integral: bool) -> list[float]:
    """Ascending, distinct, above the minimum; integers for integer data; short decimals."""
    out: list[float] = []
    for cut in cuts:
        value = float(math.ceil(cut)) if integral else _round(cut)
        if value > minimum and (not out or value > out[-1]):
            out.append(value)
    return out


def _round(value: float, digits: int = 6) -> float:
    """`value` to `digits` significant digits, so boundaries print short."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, digits - 1 - math.floor(math.log10(abs(value))))


def ramp(colours: str | Sequence[str], n: int) -> list[str]:
    """`n` colours along a named ramp or a list of hex colours (see the module docstring)."""
    if isinstance(colours, str):
        anchors: Sequence[str] = RAMPS[colours]
        if colours in SEQUENTIAL:
            anchors = anchors[1:]
    else:
        anchors = colours
    if n <= 0:
        return []
    if len(anchors) == n:
        return [c.lower() for c in anchors]
    if len(anchors) == 1 or n == 1:
        return [anchors[-1].lower()] * n
    rgb = np.array([_rgb(colour) for colour in anchors], dtype=np.float64)
    positions = np.linspace(0, len(anchors) - 1, n)
    out = []
    for position in positions:
        low = min(int(position), len(anchors) - 2)
        t = position - low
        mixed = rgb[low] * (1 - t) + rgb[low + 1] * t
        out.append("#" + "".join(f"{round(channel):02x}" for channel in mixed))
    return out


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) in (3, 4):
        text = "".join(ch * 2 for ch in text[:3])
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def label(number: float) -> str:
    """A class boundary as people read it."""
    if isinstance(number, float) and number.is_integer() and abs(number) < 1e15:
        number = int(number)
    if isinstance(number, int):
        return f"{number:,}"
    magnitude = abs(number)
    if magnitude >= 1000:
        return f"{number:,.0f}"
    if magnitude >= 1:
        return f"{number:,.2f}".rstrip("0").rstrip(".")
    return f"{number:.3g}"
