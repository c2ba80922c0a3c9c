"""The database engine and its unit of work: one transaction per domain operation."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import orjson
from sqlalchemy import Connection, Select, create_engine, event, text
from sqlalchemy.engine import Dialect, Engine
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
        self._local = threading.local()
        self._readers: list[Any] = []
        self._readers_lock = threading.Lock()
        # Called (in the writing thread) with the topics of each committed write transaction.
        self.commit_listeners: list[Callable[[frozenset[str]], None]] = []

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
            # One connection per worker thread: SQLite connections are cheap to keep and
            # costly to open (pragmas), so none are opened and closed per request.
            pool_size=48,
            max_overflow=16,
            connect_args={"check_same_thread": False, "timeout": 30},
            json_serializer=_json_dumps,
            json_deserializer=orjson.loads,
        )
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine

    @contextmanager
    def write(self) -> Iterator[Writer]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        with self.engine.connect() as conn:
            if self.is_sqlite:
                conn = conn.execution_options(**{_IMMEDIATE: True})
            writer = Writer(conn)
            with conn.begin():
                yield writer
        if writer.topics:
            for listener in self.commit_listeners:
                listener(frozenset(writer.topics))

    @contextmanager
    def reader(self) -> Iterator[Reader]:
        """A read-only snapshot on a bare driver connection, for hot read paths.

        SQLAlchemy's Connection costs tens of microseconds per statement; a `Reader` runs
        statements compiled once (`Prepared`) straight on the driver, a few microseconds each.
        On SQLite each thread keeps one connection of its own for reads, so a read does not
        even pay for a pool checkout.
        """
        if self.is_sqlite:
            cursor = self._thread_reader()
            cursor.execute("BEGIN")
            try:
                yield Reader(cursor, self.engine.dialect)
            finally:
                cursor.execute("COMMIT")
            return
        # On PostgreSQL every round trip counts (~100 us on loopback): the read runs in
        # autocommit, so no BEGIN before it and no ROLLBACK when the connection goes back to
        # the pool. Each statement sees its own snapshot, so a read of several statements can
        # include a change that commits between them; the version it reports is then already
        # stale, and the next read (or a 412 on If-Match) shows the newer one.
        raw = self.engine.raw_connection()
        driver = raw.driver_connection
        try:
            driver.autocommit = True  # type: ignore[union-attr]
            cursor = raw.cursor()
            try:
                yield Reader(cursor, self.engine.dialect)
            finally:
                cursor.close()
                driver.autocommit = False  # type: ignore[union-attr]
        finally:
            raw.close()

    def _thread_reader(self) -> Any:
        cursor = getattr(self._local, "cursor", None)
        if cursor is None:
            raw = self.engine.raw_connection()
            raw.detach()  # this thread's own from now on; closed by dispose()
            cursor = self._local.cursor = raw.cursor()
            with self._readers_lock:
                self._readers.append(raw)
        return cursor

    def ping(self) -> None:
        """Raise if the database cannot answer a trivial query."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def dispose(self) -> None:
        """Close every pooled connection and every thread's reader."""
        with self._readers_lock:
            readers, self._readers = self._readers, []
        for raw in readers:
            raw.close()
        self._local = threading.local()
        self.engine.dispose()


def _sqlite_connect(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    dbapi_conn.isolation_level = None
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


class _Compiled(NamedTuple):
    sql: str
    positional: Sequence[str] | None
    binds: dict[str, Any]
    defaults: dict[str, Any]
    row: type[Any]
    processors: Sequence[Callable[[Any], Any] | None]


class Prepared:
    """A Core SELECT compiled once per dialect, with its result-type processors.

    Parameters are `bindparam`s named in the statement; rows come back as named tuples with the
    same column names and Python values (JSON decoded, timestamps aware) as SQLAlchemy gives.
    """

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement
        self._compiled: dict[str, _Compiled] = {}

    def compiled(self, dialect: Dialect) -> _Compiled:
        """The statement's SQL, parameter order and processors for a dialect (cached)."""
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            names = [c.key for c in self.statement.selected_columns]
            processors = [
                c.type._cached_result_processor(dialect, None)
                for c in self.statement.selected_columns
            ]
            binds = {
                name: bind.type._cached_bind_processor(dialect)
                for name, bind in compiled.binds.items()
            }
            # Values SQLAlchemy supplies itself (the OFFSET 0 that SQLite's LIMIT needs).
            defaults = {
                name: bind.value for name, bind in compiled.binds.items() if not bind.required
            }
            order = list(compiled.positiontup) if compiled.positiontup is not None else None
            row = NamedTuple("Row", [(n, Any) for n in names])  # type: ignore[misc]
            found = _Compiled(compiled.string, order, binds, defaults, row, processors)
            self._compiled[dialect.name] = found
        return found


class Reader:
    """Runs `Prepared` statements on one driver cursor."""

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self.cursor = cursor
        self.dialect = dialect

    def _run(self, prepared: Prepared, params: dict[str, Any]) -> _Compiled:
        compiled = prepared.compiled(self.dialect)
        given = compiled.defaults | params if compiled.defaults else params
        values = {
            name: (proc(given[name]) if proc else given[name])
            for name, proc in compiled.binds.items()
        }
        if compiled.positional is None:
            self.cursor.execute(compiled.sql, values)
        else:
            self.cursor.execute(compiled.sql, [values[name] for name in compiled.positional])
        return compiled

    @staticmethod
    def _shape(compiled: _Compiled, raw: Sequence[Any]) -> Any:
        return compiled.row(
            *[p(v) if p else v for p, v in zip(compiled.processors, raw, strict=True)]
        )

    def one(self, prepared: Prepared, **params: Any) -> Any:
        """The first row, or None."""
        compiled = self._run(prepared, params)
        raw = self.cursor.fetchone()
        return None if raw is None else self._shape(compiled, raw)

    def all(self, prepared: Prepared, **params: Any) -> list[Any]:
        """Every row."""
        compiled = self._run(prepared, params)
        return [self._shape(compiled, raw) for raw in self.cursor.fetchall()]


class Writer:
    """A write transaction: `execute` for any statement, `one`/`all` like a `Reader`.

    `notify(topic)` names something the transaction changed (a project id whose event log
    grew); once it commits, the database's `commit_listeners` hear every topic named, and
    nothing is heard of a transaction that rolled back.
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.dialect = conn.dialect
        self.execute = conn.execute
        self.topics: set[str] = set()

    def notify(self, topic: str) -> None:
        """Tell the commit listeners about `topic` once this transaction commits."""
        self.topics.add(topic)

    def one(self, prepared: Prepared, **params: Any) -> Any:
        """The first row, or None."""
        return self.conn.execute(prepared.statement, params).first()

    def all(self, prepared: Prepared, **params: Any) -> list[Any]:
        """Every row."""
        return list(self.conn.execute(prepared.statement, params).all())


Tx = Reader | Writer
"""Anything that runs `Prepared` statements: a read snapshot or a write transaction."""
