"""Checking a filter a client gives (a style's `filter`, `set_layer_filter`, a query's
`?filter=`) against the layer's fields: a 400 at the path of what is wrong, listing the
layer's fields; what it means is `maproom.geo.filters` (docs/analysis.md)."""

from __future__ import annotations

from typing import Any

import orjson

from maproom.errors import BadRequest
from maproom.geo.filters import OPS, ORDERED

MAX_VALUES = 1000
_SCALAR = (str, int, float, bool)


def _fail(path: str, message: str, fields: list[dict[str, Any]] | None = None) -> BadRequest:
    if fields is not None:
        names = ", ".join(f["name"] for f in fields) or "none"
        message = f"{message}; the layer's fields: {names}"
    return BadRequest(f"{path}: {message}", details=[{"path": path, "message": message}])


def check(raw: Any, fields: list[dict[str, Any]] | None, path: str = "filter") -> dict[str, Any]:
    """The filter, checked (it is returned as given)."""
    if not isinstance(raw, dict):
        raise _fail(path, "a filter is an object: a condition, or {all|any: [...]}")
    groups = [key for key in ("all", "any") if key in raw]
    if groups:
        key = groups[0]
        if len(raw) != 1:
            raise _fail(path, f"a group has only its {key!r} list")
        parts = raw[key]
        if not isinstance(parts, list):
            raise _fail(f"{path}.{key}", "expected a list of conditions or filters")
        for i, part in enumerate(parts):
            check(part, fields, f"{path}.{key}[{i}]")
        return raw
    return _condition(raw, fields, path)


def _condition(
    raw: dict[str, Any], fields: list[dict[str, Any]] | None, path: str
) -> dict[str, Any]:
    unknown = sorted(set(raw) - {"field", "op", "value"})
    if unknown:
        raise _fail(f"{path}.{unknown[0]}", "unknown key (a condition has field, op, value)")
    field = raw.get("field")
    kinds = {f["name"]: f["type"] for f in fields or []}
    if not isinstance(field, str) or field not in kinds:
        raise _fail(f"{path}.field", f"the layer has no field {field!r}", fields or [])
    op = raw.get("op")
    if op not in OPS:
        raise _fail(f"{path}.op", f"unknown operator {op!r}; one of {', '.join(OPS)}")
    kind = kinds[field]
    if op in ("is_null", "not_null"):
        if "value" in raw:
            raise _fail(f"{path}.value", f"{op} takes no value")
        return raw
    if "value" not in raw:
        raise _fail(f"{path}.value", f"{op} needs a value")
    value = raw["value"]
    if op in ("in", "not_in"):
        if not isinstance(value, list) or not value or len(value) > MAX_VALUES:
            raise _fail(f"{path}.value", f"{op} needs a list of 1 to {MAX_VALUES} values")
        for i, item in enumerate(value):
            _value(item, kind, f"{path}.value[{i}]", op)
        return raw
    if op == "contains":
        if not isinstance(value, str) or kind not in ("string", "mixed"):
            raise _fail(f"{path}.value", f"contains compares text; {field!r} holds {kind}s")
        return raw
    _value(value, kind, f"{path}.value", op)
    return raw


def _value(value: Any, kind: str, path: str, op: str) -> None:
    if not isinstance(value, _SCALAR) or (isinstance(value, float) and value != value):
        raise _fail(path, "expected a number, a string or a boolean")
    given = "boolean" if isinstance(value, bool) else "number" if isinstance(
        value, int | float) else "string"  # fmt: skip
    if kind != "mixed" and given != kind:
        raise _fail(path, f"the field holds {kind}s, not {given}s")
    if op in ORDERED and given == "boolean":
        raise _fail(path, f"{op} compares numbers or text, not booleans")


def from_query(text: str | None, fields: list[dict[str, Any]] | None) -> dict[str, Any] | None:
    """`?filter=` (JSON text), checked; None without one."""
    if text is None or not text.strip():
        return None
    try:
        raw = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise _fail("filter", "not valid JSON") from None
    return check(raw, fields)
