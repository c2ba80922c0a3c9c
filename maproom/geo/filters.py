"""Feature filters: which features of a layer a style shows, a query answers or an export
writes (docs/analysis.md). One meaning, two ways to evaluate it:

- `matches(filter, properties)`: in Python, for one feature at a time (tiles, a layer's
  GeoJSON document);
- `to_sql(filter, columns)`: a SQL condition with its parameters, for the layer's table in
  the analysis engine (`maproom.geo.table`), where queries and statistics run.

A filter is `{"all": [...]}`, `{"any": [...]}` (of conditions or filters) or one condition
`{"field", "op", "value"?}`. Operators: `==`, `!=`, `<`, `<=`, `>`, `>=` (numbers with
numbers, text with text), `in`, `not_in` (a list of values), `is_null`, `not_null`,
`contains` (text, ignoring case). A missing or null value passes only `is_null`; a value of
another type than the one compared with passes nothing (as SQL's NULL), so `!=` and `not_in`
do not let nulls through. The filter is checked against the layer's fields before it is used
(`maproom.domain.filters`), so these functions assume a well-formed filter.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

OPS = ("==", "!=", "<", "<=", ">", ">=", "in", "not_in", "is_null", "not_null", "contains")
ORDERED = ("<", "<=", ">", ">=")
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: bool(a == b),
    "!=": lambda a, b: bool(a != b),
    "<": lambda a, b: bool(a < b),
    "<=": lambda a, b: bool(a <= b),
    ">": lambda a, b: bool(a > b),
    ">=": lambda a, b: bool(a >= b),
}


def _kind(value: Any) -> str | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number" if not (isinstance(value, float) and math.isnan(value)) else None
    if isinstance(value, str):
        return "string"
    return None


def matches(where: dict[str, Any] | None, properties: dict[str, Any] | None) -> bool:
    """Whether a feature with these properties passes the filter (None: every feature)."""
    if where is None:
        return True
    if "all" in where:
        return all(matches(part, properties) for part in where["all"])
    if "any" in where:
        return any(matches(part, properties) for part in where["any"])
    value = (properties or {}).get(where["field"])
    op = where["op"]
    if op == "is_null":
        return value is None
    if op == "not_null":
        return value is not None
    kind = _kind(value)
    if kind is None:
        return False
    wanted: Any = where.get("value")
    if op in ("in", "not_in"):
        same = [v for v in wanted if _kind(v) == kind]
        found = value in same
        return found if op == "in" else not found
    if op == "contains":
        return kind == "string" and str(wanted).lower() in str(value).lower()
    if _kind(wanted) != kind or (op in ORDERED and kind == "boolean"):
        return False
    return _COMPARE[op](value, wanted)


def predicate(where: dict[str, Any] | None) -> Callable[[dict[str, Any] | None], bool] | None:
    """`matches` bound to a filter, or None when there is no filter."""
    if where is None:
        return None
    return lambda properties: matches(where, properties)


def fields_of(where: dict[str, Any] | None) -> set[str]:
    """Every field a filter names."""
    if where is None:
        return set()
    if "all" in where or "any" in where:
        return {name for part in where.get("all", where.get("any", [])) for name in fields_of(part)}
    return {where["field"]}


# --- SQL --------------------------------------------------------------------------------------

_SQL_OPS = {"==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_SQL_TYPES = {"number": "DOUBLE", "string": "VARCHAR", "boolean": "BOOLEAN"}


def quote(name: str) -> str:
    """A column name as a SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


Columns = dict[str, tuple[str, str]]  # field name: (the table's column, its kind)


def to_sql(where: dict[str, Any] | None, columns: Columns) -> tuple[str, list[Any]]:
    """A SQL condition and its parameters for a layer's table, whose `columns` say where each
    field is and what kind it holds (`maproom.geo.table`); `TRUE` without a filter."""
    if where is None:
        return "TRUE", []
    if "all" in where or "any" in where:
        joiner = " AND " if "all" in where else " OR "
        parts = [to_sql(part, columns) for part in where.get("all", where.get("any", []))]
        if not parts:
            return ("TRUE" if "all" in where else "FALSE"), []
        return "(" + joiner.join(sql for sql, _ in parts) + ")", [p for _, ps in parts for p in ps]
    column, stored = columns.get(where["field"], ("NULL", "string"))
    op: str = where["op"]
    wanted: Any = where.get("value")
    if op == "is_null":
        return f"({column} IS NULL)", []
    if op == "not_null":
        return f"({column} IS NOT NULL)", []
    if op in ("in", "not_in"):
        values = [v for v in wanted if _kind(v) == stored or (stored == "mixed" and _kind(v))]
        if not values:
            return ("FALSE" if op == "in" else f"({column} IS NOT NULL)"), []
        marks = ", ".join("?" for _ in values)
        negate = "NOT " if op == "not_in" else ""
        return f"({_typed(column, stored, values[0])} {negate}IN ({marks}))", list(values)
    if op == "contains":
        if stored not in ("string", "mixed"):
            return "FALSE", []
        return f"(contains(lower({column}), lower(?)))", [str(wanted)]
    if _kind(wanted) is None or (op in ORDERED and _kind(wanted) == "boolean"):
        return "FALSE", []
    return f"({_typed(column, stored, wanted)} {_SQL_OPS[op]} ?)", [wanted]


def _typed(column: str, stored: str, wanted: Any) -> str:
    """The column as the type of the value compared with (a mixed column is text)."""
    kind = _kind(wanted)
    if stored == kind or kind is None:
        return column
    return f"TRY_CAST({column} AS {_SQL_TYPES[kind]})" if stored == "mixed" else "NULL"
