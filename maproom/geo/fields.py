"""Field statistics of a vector layer, gathered in one streaming pass in bounded memory.

A `FieldProfiler` is fed the properties of every feature as a conversion writes them, in
chunks, and works column by column with C-speed helpers (`collections.Counter`, NumPy), so it
adds little to a conversion. Per property it keeps, whatever the number of features:

- how many values of each kind it saw (number, string, boolean, other, null);
- the minimum and maximum number;
- up to `SAMPLE` distinct values, in the order first seen;
- the frequencies of its text and boolean values, for up to `TOP` distinct values (beyond
  that, the Misra-Gries summary: every value more frequent than 1/`TOP` of the rows is kept,
  with a count that may be low; text that turns out nearly all distinct, such as names or
  ids, stops being counted);
- a uniform random sample (a reservoir) of up to `RESERVOIR` numbers, for quantiles and for
  the frequencies of numbers: exact for layers of up to that many features, within about half
  a percentile beyond. All reservoirs of a layer share a budget of `BUDGET` numbers (16 MB):
  a table with many numeric columns keeps fewer numbers per column (never under `FLOOR`).

At most `MAX_FIELDS` properties are profiled (the first seen). `Profile.summary()` is the
`fields` list of a layer detail; `Profile.save(path)` writes everything to one `.npz` file
(no pickles) that `Profile.load` reads back for classification.
"""

from __future__ import annotations

import collections
import io
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from maproom.geo.base import FC_HEAD, FC_TAIL, partial_output

STATS_NAME = "layer.stats.npz"
MAX_FIELDS = 256
SAMPLE = 5
TOP = 1024
RESERVOIR = 65_536
BUDGET = 2_097_152
FLOOR = 4096
CHUNK = 4096
SAMPLE_CHUNKS = 4  # a sample not full after this many chunks stays short
_NUMBER = (int, float)
_TEXT = (str, bool)


@dataclass
class FieldStats:
    """What is known of one property across a layer."""

    name: str
    numbers: int = 0
    strings: int = 0
    booleans: int = 0
    others: int = 0
    nulls: int = 0
    minimum: float = math.inf
    maximum: float = -math.inf
    sample: list[Any] = field(default_factory=list)
    counts: dict[Any, int] = field(default_factory=dict)
    values: np.ndarray = field(default_factory=lambda: np.empty(0))
    seen_numbers: int = 0  # numbers offered to the reservoir
    chunks: int = 0
    unique_text: bool = False  # stopped counting text values (see `FieldProfiler._fold`)

    @property
    def type(self) -> str:
        """`number`, `string`, `boolean` or `mixed` (more than one kind, nested values, or
        no value at all)."""
        kinds = [
            name
            for name, count in (
                ("number", self.numbers),
                ("string", self.strings),
                ("boolean", self.booleans),
            )
            if count
        ]
        return kinds[0] if len(kinds) == 1 and not self.others else "mixed"

    def summary(self) -> dict[str, Any]:
        """`{"name", "type", "min"?, "max"?, "sample"}` (docs/api-decisions.md)."""
        out: dict[str, Any] = {"name": self.name, "type": self.type}
        if self.numbers:
            out["min"] = _plain(self.minimum)
            out["max"] = _plain(self.maximum)
        out["sample"] = list(self.sample)
        return out

    def top(self, limit: int) -> list[tuple[Any, float]]:
        """The most frequent values with their (estimated) counts, most frequent first; ties
        in first-seen order for text, ascending for numbers."""
        ranked: list[tuple[Any, float]] = [
            (value, count) for (_, value), count in self.counts.items()
        ]
        if self.values.size:
            found, counts = np.unique(self.values, return_counts=True)
            scale = self.seen_numbers / self.values.size
            ranked += [(_plain(v), float(c) * scale) for v, c in zip(found, counts, strict=True)]
        ranked.sort(key=lambda item: -item[1])
        return ranked[:limit]


def _plain(number: float) -> float | int:
    return int(number) if float(number).is_integer() and abs(number) < 2**53 else float(number)


class FieldProfiler:
    """Gathers `FieldStats` from feature properties, a chunk at a time."""

    def __init__(self, *, seed: int = 0) -> None:
        self.fields: dict[str, FieldStats] = {}
        self._chunk: list[dict[str, Any]] = []
        self._rng = np.random.default_rng(seed)
        self.rows = 0
        self.capacity = RESERVOIR  # numbers each reservoir keeps (see `BUDGET`)
        self._numeric = 0

    def add(self, properties: dict[str, Any] | None) -> None:
        """One feature's properties (None counts as a feature without any)."""
        self._chunk.append(properties or {})
        if len(self._chunk) >= CHUNK:
            self.flush()

    def flush(self) -> None:
        """Fold the pending chunk into the statistics."""
        chunk, self._chunk = self._chunk, []
        if not chunk:
            return
        self.rows += len(chunk)
        names = dict.fromkeys(itertools.chain.from_iterable(chunk))
        for name in names:
            stats = self.fields.get(name)
            if stats is None:
                if len(self.fields) >= MAX_FIELDS:
                    continue
                stats = self.fields[name] = FieldStats(name)
            try:
                values = list(map(operator.itemgetter(name), chunk))
            except KeyError:
                values = [props.get(name) for props in chunk]
            self._fold(stats, values)

    def profile(self) -> Profile:
        """The statistics of everything added."""
        self.flush()
        return Profile(list(self.fields.values()), self.rows)

    def _fold(self, stats: FieldStats, values: list[Any]) -> None:
        kinds = collections.Counter(map(type, values))
        stats.nulls += kinds.pop(type(None), 0)
        ints, floats = kinds.pop(int, 0), kinds.pop(float, 0)
        strings, booleans = kinds.pop(str, 0), kinds.pop(bool, 0)
        nested = sum(kinds.values())
        stats.others += nested
        stats.strings += strings
        stats.booleans += booleans
        if len(stats.sample) < SAMPLE and stats.chunks < SAMPLE_CHUNKS:
            _extend_sample(stats, values if nested else list(dict.fromkeys(values)))
        stats.chunks += 1
        if ints or floats:
            found = (
                values
                if ints + floats == len(values)
                else [v for v in values if type(v) in _NUMBER]
            )
            array = np.asarray(found, dtype=np.float64)
            finite = array[np.isfinite(array)] if floats else array
            stats.numbers += ints + floats
            if finite.size:
                stats.minimum = min(stats.minimum, float(finite.min()))
                stats.maximum = max(stats.maximum, float(finite.max()))
                self._reservoir(stats, finite)
        if (strings or booleans) and not stats.unique_text:
            text = (
                values
                if strings + booleans == len(values)
                else [v for v in values if type(v) in _TEXT]
            )
            tally = collections.Counter(text)
            if len(stats.counts) + len(tally) > TOP and len(tally) > len(text) // 2:
                stats.unique_text = True  # names, ids: they name no categories; stop counting
            else:
                _count(stats.counts, tally)

    def _reservoir(self, stats: FieldStats, values: np.ndarray) -> None:
        """Algorithm R over a chunk: every number has the same chance to be kept."""
        if not stats.seen_numbers:
            self._numeric += 1
            self._share_budget()
        room = self.capacity - stats.values.size
        if room > 0:
            stats.values = np.concatenate([stats.values, values[:room]])
            stats.seen_numbers += min(room, values.size)
            values = values[room:]
        if not values.size:
            return
        positions = stats.seen_numbers + np.arange(1, values.size + 1)
        slots = (self._rng.random(values.size) * positions).astype(np.int64)
        keep = slots < self.capacity
        stats.values[slots[keep]] = values[keep]
        stats.seen_numbers += values.size

    def _share_budget(self) -> None:
        """Shrink every reservoir to its share of the budget (a uniform subsample stays
        uniform, and Algorithm R goes on from it)."""
        capacity = max(FLOOR, min(RESERVOIR, BUDGET // self._numeric))
        if capacity >= self.capacity:
            return
        self.capacity = capacity
        for stats in self.fields.values():
            if stats.values.size > capacity:
                keep = self._rng.choice(stats.values.size, capacity, replace=False)
                stats.values = stats.values[np.sort(keep)]


def _extend_sample(stats: FieldStats, values: list[Any]) -> None:
    for value in values:
        if value is None or isinstance(value, dict | list) or value in stats.sample:
            continue
        stats.sample.append(value)
        if len(stats.sample) >= SAMPLE:
            return


def _count(counts: dict[Any, int], more: collections.Counter[Any]) -> None:
    """Add frequencies, keeping at most `TOP` values (Misra-Gries when there are more)."""
    for value, count in more.items():
        key = (type(value).__name__, value)  # "1" and True stay apart from numbers
        counts[key] = counts.get(key, 0) + count
    if len(counts) > TOP:
        cut = sorted(counts.values(), reverse=True)[TOP]
        for key in [k for k, c in counts.items() if c <= cut]:
            del counts[key]
        for key in counts:
            counts[key] -= cut


@dataclass
class Profile:
    """The statistics of a layer's properties."""

    fields: list[FieldStats]
    rows: int

    def summary(self) -> list[dict[str, Any]]:
        """The layer detail's `fields`."""
        return [stats.summary() for stats in self.fields]

    def get(self, name: str) -> FieldStats | None:
        """One property's statistics, or None when the layer has no such property."""
        return next((stats for stats in self.fields if stats.name == name), None)

    def save(self, path: Path) -> None:
        """Write the profile to a `.npz` file (no pickled objects)."""
        meta = {
            "rows": self.rows,
            "fields": [
                {
                    **stats.summary(),
                    "kinds": [stats.numbers, stats.strings, stats.booleans, stats.others],
                    "nulls": stats.nulls,
                    "counts": [
                        [kind, value, count] for (kind, value), count in stats.counts.items()
                    ],
                    "seen": stats.seen_numbers,
                }
                for stats in self.fields
            ],
        }
        arrays = {f"v{i}": stats.values for i, stats in enumerate(self.fields)}
        buffer = io.BytesIO()
        arrays["meta"] = np.frombuffer(orjson.dumps(meta), dtype=np.uint8)
        np.savez(buffer, **arrays)  # type: ignore[arg-type]
        path.write_bytes(buffer.getvalue())

    @classmethod
    def load(cls, path: Path) -> Profile:
        """Read a profile written by `save`."""
        with np.load(path, allow_pickle=False) as data:
            meta = orjson.loads(data["meta"].tobytes())
            fields = []
            for i, entry in enumerate(meta["fields"]):
                numbers, strings, booleans, others = entry["kinds"]
                fields.append(
                    FieldStats(
                        name=entry["name"],
                        numbers=numbers,
                        strings=strings,
                        booleans=booleans,
                        others=others,
                        nulls=entry["nulls"],
                        minimum=entry.get("min", math.inf),
                        maximum=entry.get("max", -math.inf),
                        sample=entry["sample"],
                        counts={(kind, value): count for kind, value, count in entry["counts"]},
                        values=np.asarray(data[f"v{i}"], dtype=np.float64),
                        seen_numbers=entry["seen"],
                    )
                )
        return cls(fields, meta["rows"])


def profile_geojson(
    path: Path, keep: Callable[[dict[str, Any] | None], bool] | None = None
) -> Profile:
    """Profile a layer file in maproom's one-feature-per-line layout (`base.feature_writer`),
    reading one line at a time (for layers stored before profiles existed); with `keep`, only
    the features whose properties it keeps (a filter's)."""
    profiler = FieldProfiler()
    for feature in _features(path):
        props = feature.get("properties") if isinstance(feature, dict) else None
        if keep is None or keep(props):
            profiler.add(props)
    return profiler.profile()


def _features(path: Path) -> Iterator[Any]:
    with open(path, "rb") as file:
        for line in file:
            text = line.strip().rstrip(b",")
            if not text or text in (FC_HEAD, FC_TAIL.strip()):
                continue
            yield orjson.loads(text)


def profile_of(features: Iterable[Any]) -> Profile:
    """Profile features held in memory (small inline layers)."""
    profiler = FieldProfiler()
    for feature in features:
        props = feature.get("properties") if isinstance(feature, dict) else None
        profiler.add(props if isinstance(props, dict) else None)
    return profiler.profile()


def write_profile(profile: Profile, workdir: Path) -> dict[str, Any]:
    """Save a conversion's profile beside its output: the `Conversion` fields that name it."""
    target = workdir / STATS_NAME
    with partial_output(target) as temp:
        profile.save(temp)
    return {"fields": profile.summary(), "stats": target}
