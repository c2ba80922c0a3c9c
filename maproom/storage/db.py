"""The database engine and its unit of work: one transaction per domain operation."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry

_IMMEDIATE = "maproom_immediate"


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


class Database:
    """A SQLAlchemy engine with `read()` and `write()` transactions.

    On SQLite the driver's own transaction handling is switched off and maproom emits `BEGIN`
    itself: reads take a deferred snapshot, writes take `BEGIN IMMEDIATE`, so concurrent writers
    queue on the write lock (busy timeout) instead of failing on a lock upgrade.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.engine = self._make_engine(url)

    def _make_engine(self, url: str) -> Engine:
        if not self.is_sqlite:
            return create_engine(
                url,
                pool_size=10,
                max_overflow=30,
                pool_recycle=1800,
                json_serializer=_json_dumps,
                json_deserializer=orjson.loads,
            )
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            pool_size=10,
            max_overflow=40,
            connect_args={"check_same_thread": False, "timeout": 30},
            json_serializer=_json_dumps,
            json_deserializer=orjson.loads,
        )
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction (a consistent snapshot)."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        with self.engine.connect() as conn:
            if self.is_sqlite:
                conn = conn.execution_options(**{_IMMEDIATE: True})
            with conn.begin():
                yield conn

    def ping(self) -> None:
        """Raise if the database cannot answer a trivial query."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def _sqlite_connect(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    dbapi_conn.isolation_level = None  # type: ignore[attr-defined]
    cursor = dbapi_conn.cursor()
    for pragma in (
        "PRAGMA journal_mode=WAL",
        "PRAGMA synchronous=NORMAL",
        "PRAGMA foreign_keys=ON",
        "PRAGMA busy_timeout=30000",
    ):
        cursor.execute(pragma)
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    immediate = conn.get_execution_options().get(_IMMEDIATE, False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
