"""Every statement on a request path is answered through an index, never by reading a table
whole: the planner's own word (`EXPLAIN`), on PostgreSQL with sequential scans priced out (so
that an empty test table does not hide a missing index) and on SQLite."""

from __future__ import annotations

import datetime as dt
import importlib
import pkgutil
from typing import Any

import pytest
from sqlalchemy import Boolean, DateTime, Integer, TypeDecorator
from sqlalchemy.sql.elements import BindParameter

import maproom.domain
from maproom.storage import migrate
from maproom.storage.db import Database, Prepared

# Statements that read a whole table on purpose, none of them on a request path.
WHOLE_TABLE = {
    "maproom.domain.keys.ALL_KEYS": "the operator's `maproom keys list`",
    "maproom.domain.usage.UNMEASURED": "once at start, over files stored before byte counts",
    "maproom.domain.layers.UNPROFILED": "once at start, over layers stored before statistics",
}


# Statements in one database's own SQL.
ONLY_ON = {
    "maproom.domain.gate.TOUCH_AND_LOG": "postgresql",
    "maproom.domain.gate.TOUCH_LOG_KEEP": "postgresql",
}


def prepared_statements() -> dict[str, Prepared]:
    """Every `Prepared` statement the domain defines, by dotted name."""
    found: dict[str, Prepared] = {}
    for module_info in pkgutil.walk_packages(maproom.domain.__path__, "maproom.domain."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if isinstance(value, Prepared):
                found.setdefault(f"{module.__name__}.{name}", value)
    return found


def _value(bind: BindParameter[Any]) -> Any:
    kind = bind.type.impl if isinstance(bind.type, TypeDecorator) else bind.type
    if isinstance(kind, Integer) or bind.key in ("limit", "offset"):
        return 10
    if bind.key == "events":
        return [{"type": "action", "payload": {}, "created_at": "2026-01-01T00:00:00Z"}]
    if isinstance(kind, Boolean):
        return True
    if isinstance(kind, DateTime):
        return dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    if (getattr(kind, "length", None) or 36) < 36:
        return "abcd"
    return "00000000-0000-0000-0000-000000000001"


class Explained(Prepared):
    """A statement's plan instead of its rows: its SQL behind `EXPLAIN`."""

    def __init__(self, inner: Prepared, prefix: str) -> None:
        super().__init__(inner.statement)
        self.prefix = prefix

    def compiled(self, dialect: Any) -> Any:
        found = super().compiled(dialect)
        return found._replace(sql=f"{self.prefix} {found.sql}")


def plan(db: Database, prepared: Prepared) -> str:
    """The planner's plan of a statement, as text."""
    binds = prepared.statement.compile(dialect=db.engine.dialect).binds
    values = {name: _value(bind) for name, bind in binds.items()}
    with db.reader() as tx:
        if db.is_sqlite:
            tx._run(Explained(prepared, "EXPLAIN QUERY PLAN"), values)
            return "\n".join(str(row[-1]) for row in tx.cursor.fetchall())
        tx.cursor.execute("SET enable_seqscan = off")
        tx._run(Explained(prepared, "EXPLAIN"), values)
        return "\n".join(str(row[0]) for row in tx.cursor.fetchall())


def _whole_table_reads(db: Database, text: str) -> list[str]:
    lines = text.splitlines()
    if db.is_sqlite:  # "SCAN t" reads t whole; "SCAN t USING INDEX" walks an index
        return [line for line in lines if line.startswith("SCAN") and "INDEX" not in line]
    return [line.strip() for line in lines if "Seq Scan" in line]


def test_the_domain_defines_its_hot_statements() -> None:
    names = prepared_statements()
    assert len(names) >= 30
    assert set(WHOLE_TABLE) <= set(names)


@pytest.mark.parametrize("name", sorted(set(prepared_statements()) - set(WHOLE_TABLE)))
def test_statement_reads_through_an_index(name: str, settings: Any) -> None:
    db = Database(settings.resolved_database_url)
    if ONLY_ON.get(name, db.engine.dialect.name) != db.engine.dialect.name:
        pytest.skip(f"{name} is PostgreSQL's own SQL")
    try:
        migrate.upgrade(db)
        text = plan(db, prepared_statements()[name])
        assert not _whole_table_reads(db, text), f"{name} reads a table whole:\n{text}"
    finally:
        db.dispose()
