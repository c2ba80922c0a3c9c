"""The per-process caches kept right by commit topics (`maproom.domain.heard`)."""

from __future__ import annotations

from maproom.domain.heard import HeardCache


def cache(bound: int = 100) -> HeardCache[str]:
    return HeardCache(enabled=True, bound=bound, weigh=len)


def test_a_fill_that_spans_a_drop_is_not_kept() -> None:
    kept = cache()
    before = kept.generation  # a reader starts...
    kept.drop(["p"])  # ...a commit changes p meanwhile...
    kept.put("p", "old body", before)  # ...and the reader's older copy is not kept
    assert kept.get("p") is None
    kept.put("p", "new body", kept.generation)
    assert kept.get("p") == "new body"


def test_drop_by_key_and_by_value() -> None:
    kept = cache()
    for name in ("a", "b", "c"):
        kept.put(name, f"value {name}", kept.generation)
    kept.drop(["a"])
    kept.drop(where=lambda value: value.endswith("b"))
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (None, None, "value c")


def test_weight_bound_evicts_the_least_recently_used() -> None:
    kept = cache(bound=40)
    for name in "abcd":
        kept.put(name, "x" * 10, kept.generation)
    assert kept.get("a") is not None  # a is now the most recently used
    kept.put("e", "x" * 10, kept.generation)
    kept.put("f", "x" * 10, kept.generation)
    assert kept.get("b") is None and kept.get("c") is None
    assert all(kept.get(k) is not None for k in "adef")
    kept.put("huge", "x" * 11, kept.generation)  # over a quarter of the bound: never kept
    assert kept.get("huge") is None


def test_off_while_changes_cannot_reach_it() -> None:
    kept = cache()
    kept.put("p", "body", kept.generation)
    kept.share(False)  # the shared bus is lost
    assert kept.get("p") is None
    kept.put("p", "body", kept.generation)
    assert kept.get("p") is None
    kept.share(True)
    kept.put("p", "body", kept.generation)
    assert kept.get("p") == "body"


def test_entries_expire_after_their_ttl() -> None:
    kept: HeardCache[str] = HeardCache(enabled=True, bound=10, ttl=-1.0)
    kept.put("k", "principal", kept.generation)
    assert kept.get("k") is None
