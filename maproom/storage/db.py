"""The database engine and its unit of work: one transaction per domain operation."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import functools
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

import anyio.to_thread
import orjson
from sqlalchemy import ClauseElement, Connection, create_engine, event, text
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.sql.compiler import SQLCompiler

T = TypeVar("T")
_AUTO = "AUTOCOMMIT"
_IMMEDIATE = "maproom_immediate"
log = logging.getLogger(__name__)
# The groups the event loop's current `Database.run` call wrote in (None outside such a call).
_JOINED: contextvars.ContextVar[list[_Group] | None] = contextvars.ContextVar(
    "maproom_joined", default=None
)


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


class Database:
    """A SQLAlchemy engine with `read()` and `write()` transactions.

    On SQLite the driver's own transaction handling is switched off and maproom emits `BEGIN`
    itself: reads take a deferred snapshot, writes take `BEGIN IMMEDIATE`. SQLite has one
    writer at a time, and a writer that finds the lock taken waits in SQLite's busy handler,
    which sleeps in steps of up to 100 ms: under load most of a request's time would be spent
    asleep with the lock free. So the writers of one process queue in maproom instead, in
    arrival order, each woken the moment the one before it commits (`FairLock`); SQLite's busy
    handler is left only for writers of other processes.

    The event loop's own writes (`run`) commit in groups: the first opens a transaction, each
    write is a savepoint in it (its own all or nothing), and the group commits once the loop
    has run every request that was ready; each request answers after that commit. A commit
    writes every page it changed to the log, so one commit for the dozen writes that arrive
    together costs about what one write's did (docs/performance.md, "Writes").
    """

    def __init__(self, url: str, pool_size: int = 10) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.pool_size = pool_size
        self.engine = self._make_engine(url)
        self._local = threading.local()
        self._readers: list[Any] = []
        self._readers_lock = threading.Lock()
        self._write_queue = FairLock() if self.is_sqlite else None
        self._checkpointer = Checkpointer(self.engine) if self.is_sqlite else None
        self._writer: Connection | None = None
        self._group: _Group | None = None  # the event loop's open group of writes
        self._changers: anyio.CapacityLimiter | None = None  # made on the event loop (`run`)
        # Called (in the writing thread) with the topics of each committed write transaction.
        self.commit_listeners: list[Callable[[frozenset[str]], None]] = []
        # What every write transaction's `context` starts with (set by the composition root:
        # the blob store, the history's retention).
        self.write_context: dict[str, Any] = {}

    async def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a short domain change from the event loop: inline on SQLite (see
        `maproom.api.deps`), in the thread pool on PostgreSQL, where a change may wait for
        another worker's row lock, which must not stop the loop.

        Measured (docs/performance.md): running PostgreSQL changes on the loop through
        psycopg's asynchronous driver (SQLAlchemy's greenlet bridge) was faster for writes
        alone, but under a mix of reads and writes it held project locks longer (each step
        waited for the busy loop) and its p99 went from 0.2 s to 1.4 s.
        """
        if self.is_sqlite:
            joined: list[_Group] = []
            token = _JOINED.set(joined)
            try:
                return fn(*args, **kwargs)
            finally:
                _JOINED.reset(token)
                for group in dict.fromkeys(joined):  # answer once what was written is durable
                    await group.committed(self)
        if self._changers is None:
            # No more changes at once than the pool keeps connections: one more would open
            # and close an overflow connection per change (measured: 0.46 of the bare peer
            # over 32 projects, against a queue for the pool's connections).
            self._changers = anyio.CapacityLimiter(self.pool_size)
        call = functools.partial(fn, *args, **kwargs)
        return await anyio.to_thread.run_sync(call, limiter=self._changers)

    def _pg_options(self) -> dict[str, Any]:
        return {
            # A dead peer fails a statement within 10 s rather than the system's minutes.
            "connect_args": {"connect_timeout": 10, "tcp_user_timeout": 10_000},
            "pool_size": self.pool_size,
            "max_overflow": self.pool_size * 3,
            "pool_recycle": 1800,
            "json_serializer": _json_dumps,
            "json_deserializer": orjson.loads,
        }

    def _make_engine(self, url: str) -> Engine:
        if not self.is_sqlite:
            return create_engine(url, **self._pg_options())
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
        if self._write_queue is not None:
            with self._sqlite_write() as writer:
                writer.context.update(self.write_context)
                yield writer
            if writer.grouped:  # heard of when its group commits
                return
        else:
            with self.engine.connect() as conn:
                writer = Writer(conn)
                writer.context.update(self.write_context)
                with conn.begin():
                    yield writer
        if writer.topics:
            for listener in self.commit_listeners:
                listener(frozenset(writer.topics))
        for work in writer.after_commit:
            work()

    @contextmanager
    def reader(self) -> Iterator[Reader]:
        """A read-only snapshot on a bare driver connection, for hot read paths.

        SQLAlchemy's Connection costs tens of microseconds per statement; a `Reader` runs
        statements compiled once (`Prepared`) straight on the driver, a few microseconds each.
        On SQLite each thread keeps one connection of its own for reads, so a read does not
        even pay for a pool checkout.
        """
        if self.is_sqlite:
            if _JOINED.get() and self._group is not None:  # a read after its own write
                self._commit_group()
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
        # A read made on the event loop (the API's reads: `Caller.read`) runs right there, on a
        # connection the loop's thread keeps: one round trip and no thread hop; under MVCC a
        # read never waits for a lock, and `tcp_user_timeout` bounds a dead peer. Measured
        # faster here than a hop to the thread pool (0.19 of bare) and than psycopg's
        # asynchronous driver (0.10): docs/performance.md.
        if _on_event_loop():
            yield Reader(self._loop_cursor(), self.engine.dialect)
            return
        raw = self.engine.raw_connection()
        driver = raw.dbapi_connection
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

    @contextmanager
    def schema_change(self) -> Iterator[Connection]:
        """A SQLAlchemy-managed write transaction for tools that drive one themselves
        (Alembic); on SQLite it holds the write lock from its first statement."""
        with self.engine.connect() as conn:
            if self.is_sqlite:
                conn = conn.execution_options(**{_IMMEDIATE: True})
            with conn.begin():
                yield conn

    @contextmanager
    def _sqlite_write(self) -> Iterator[Writer]:
        """A write transaction on the embedded SQLite: in turn (`FairLock`), on the one
        connection this process writes with, begun and ended on the driver itself (the
        connection is in autocommit mode for SQLAlchemy, which so adds nothing around it)."""
        assert self._write_queue is not None
        joined = _JOINED.get()
        if self._group is not None and self._group.thread == threading.get_ident():
            if joined is None:  # a write of the loop outside `run`: the group commits first
                self._commit_group()
            else:
                with self._in_group(joined) as writer:
                    yield writer
                return
        elif joined is not None:
            self._open_group()
            with self._in_group(joined) as writer:
                yield writer
            return
        self._write_queue.acquire()
        try:
            raw = self._raw_writer()
            assert self._writer is not None
            raw.execute("BEGIN IMMEDIATE")
            try:
                writer = Writer(self._writer)
                yield writer
            except BaseException:
                raw.execute("ROLLBACK")
                raise
            raw.execute("COMMIT")
        finally:
            self._write_queue.release()

    def _raw_writer(self) -> Any:
        """The driver connection this process writes with (opened on first use)."""
        if self._writer is None:
            self._writer = self.engine.connect().execution_options(isolation_level=_AUTO)
        return self._writer.connection.dbapi_connection

    def _open_group(self) -> None:
        """Begin a group of the event loop's writes, committed when the loop comes round."""
        assert self._write_queue is not None
        self._write_queue.acquire()
        try:
            self._raw_writer().execute("BEGIN IMMEDIATE")
        except BaseException:
            self._write_queue.release()
            raise
        loop = asyncio.get_running_loop()
        self._group = _Group(threading.get_ident(), loop.create_future())
        loop.call_soon(self._commit_group)

    @contextmanager
    def _in_group(self, joined: list[_Group]) -> Iterator[Writer]:
        """One write of the open group: a savepoint, released or rolled back on its own."""
        group = self._group
        assert group is not None and self._writer is not None
        raw = self._raw_writer()
        raw.execute("SAVEPOINT maproom_write")
        writer = Writer(self._writer)
        writer.grouped = True
        try:
            yield writer
        except BaseException:
            raw.execute("ROLLBACK TO maproom_write")
            raw.execute("RELEASE maproom_write")
            raise
        raw.execute("RELEASE maproom_write")
        group.writers.append(writer)
        joined.append(group)

    def _commit_group(self) -> None:
        """Commit the open group; then its writers' listeners and after-commit work run."""
        group, self._group = self._group, None
        if group is None:
            return
        assert self._write_queue is not None
        try:
            raw = self._raw_writer()
            try:
                raw.execute("COMMIT")
            except BaseException as exc:
                with contextlib.suppress(Exception):
                    raw.execute("ROLLBACK")
                group.failed(exc)
                return
        finally:
            self._write_queue.release()
        group.done.set_result(None)
        for writer in group.writers:
            try:
                if writer.topics:
                    for listener in self.commit_listeners:
                        listener(frozenset(writer.topics))
                for work in writer.after_commit:
                    work()
            except Exception:  # the write is durable; what hears of it must not undo that
                log.exception("after a grouped commit")

    def _loop_cursor(self) -> Any:
        """A read cursor of the event loop's thread, on a PostgreSQL connection of its own in
        autocommit (made again when the server closed it)."""
        kept = getattr(self._local, "loop_reader", None)
        if kept is None or kept[1].closed:
            raw = self.engine.raw_connection()
            driver = raw.dbapi_connection
            raw.detach()  # this loop's own from now on; closed by dispose()
            driver.autocommit = True  # type: ignore[union-attr]
            kept = self._local.loop_reader = (raw, driver)
            with self._readers_lock:
                self._readers.append(raw)
        return kept[1].cursor()  # type: ignore[union-attr]

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
        if self._checkpointer is not None:
            self._checkpointer.stop()
        with self._readers_lock:
            readers, self._readers = self._readers, []
        for raw in readers:
            raw.close()
        self._local = threading.local()
        if self._write_queue is not None:
            self._commit_group()
            self._write_queue.acquire()  # a write under way ends first
            try:
                if self._writer is not None:
                    self._writer.close()
                    self._writer = None
            finally:
                self._write_queue.release()
        self.engine.dispose()


def _on_event_loop() -> bool:
    """Whether the calling thread is running an asyncio event loop (not a worker thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class _Group:
    """Write transactions of one event loop committed together (`Database`)."""

    def __init__(self, thread: int, done: asyncio.Future[None]) -> None:
        self.thread = thread
        self.done = done
        self.writers: list[Writer] = []

    async def committed(self, db: Database) -> None:
        """Wait for the commit (made now if the loop is not going to come round to it)."""
        if not self.done.done() and db._group is self and not self.done.get_loop().is_running():
            db._commit_group()
        await asyncio.shield(self.done)

    def failed(self, exc: BaseException) -> None:
        self.done.set_exception(exc)
        self.done.exception()  # retrieved: a group nobody waits for logs nothing


class FairLock:
    """A lock handed to its waiters in arrival order: each waiter blocks on a lock of its own,
    released by the holder when it lets go, so no one polls or sleeps."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._waiters: collections.deque[threading.Lock] = collections.deque()
        self._held = False

    def acquire(self) -> None:
        """Wait for the lock (behind everyone who asked before)."""
        with self._mutex:
            if not self._held:
                self._held = True
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiters.append(turn)
        turn.acquire()  # the holder before us releases it when it hands the lock over

    def release(self) -> None:
        """Hand the lock to the next waiter, or free it."""
        with self._mutex:
            if self._waiters:
                self._waiters.popleft().release()
            else:
                self._held = False


class Checkpointer:
    """SQLite's log checkpoints in a thread of their own: every `EVERY` seconds while writes
    come in, `PRAGMA wal_checkpoint(PASSIVE)` copies the log into the database without waiting
    for (or blocking) readers and writers; writers then never pay for it in their COMMIT. The
    log is emptied (`TRUNCATE`) when the database closes."""

    EVERY = 0.5

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        connection: Any = None
        while not self._stop.wait(self.EVERY):
            try:
                if connection is None:
                    connection = self.engine.raw_connection()
                connection.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # the database is closing, or busy: the next round tries again
                connection = None
        if connection is not None:
            connection.close()

    def stop(self) -> None:
        """Stop, after a last checkpoint that empties the log."""
        self._stop.set()
        self._thread.join(timeout=10)
        with contextlib.suppress(Exception):
            raw = self.engine.raw_connection()
            try:
                raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                raw.close()


def _sqlite_connect(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    dbapi_conn.isolation_level = None
    cursor = dbapi_conn.cursor()
    for pragma in (
        "PRAGMA journal_mode=WAL",
        "PRAGMA synchronous=NORMAL",
        "PRAGMA foreign_keys=ON",
        "PRAGMA busy_timeout=30000",
        # Checkpoints run in the background (`Checkpointer`), not in a writer's COMMIT: a
        # commit that copies the log into the database costs that writer (and everyone
        # queued behind it) milliseconds.
        "PRAGMA wal_autocheckpoint=0",
    ):
        cursor.execute(pragma)
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    options = conn.get_execution_options()
    if options.get("isolation_level") != _AUTO:  # the writer connection begins itself
        conn.exec_driver_sql("BEGIN IMMEDIATE" if options.get(_IMMEDIATE) else "BEGIN")


class _Compiled(NamedTuple):
    sql: str
    positional: Sequence[str] | None
    binds: dict[str, Any]
    defaults: dict[str, Any]
    row: type[Any]
    processors: Sequence[Callable[[Any], Any] | None]


class Prepared:
    """A Core statement compiled once per dialect, with its bind and result processors.

    Parameters are `bindparam`s named in the statement. A SELECT's rows come back as named
    tuples with the same column names and Python values (JSON decoded, timestamps aware) as
    SQLAlchemy gives; an INSERT, UPDATE or DELETE answers its row count (`Writer.run`).
    """

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._compiled: dict[str, _Compiled] = {}

    def compiled(self, dialect: Dialect) -> _Compiled:
        """The statement's SQL, parameter order and processors for a dialect (cached)."""
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = cast(SQLCompiler, self.statement.compile(dialect=dialect))
            columns = list(getattr(self.statement, "selected_columns", ()))
            names = [c.key for c in columns]
            processors = [c.type._cached_result_processor(dialect, None) for c in columns]
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


class _Statements:
    """Runs `Prepared` statements on a driver cursor, skipping SQLAlchemy's per-statement
    work (tens of microseconds each) on hot paths."""

    cursor: Any
    dialect: Dialect

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


class Reader(_Statements):
    """A read snapshot on one driver cursor."""

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self.cursor = cursor
        self.dialect = dialect


class Writer(_Statements):
    """A write transaction: `execute` for any SQLAlchemy statement; `one`, `all` and `run` for
    `Prepared` ones, straight on the driver (in the same transaction).

    `notify(topic)` names something the transaction changed (a project id whose event log
    grew); once it commits, the database's `commit_listeners` hear every topic named, and
    nothing is heard of a transaction that rolled back.
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.dialect = conn.dialect
        self.execute = conn.execute
        self.topics: set[str] = set()
        # What the domain notes about the transaction while it runs (the history's record of
        # what changed, `maproom.domain.history`), and work for after it commits (removing
        # blobs whose rows it deleted).
        self.context: dict[str, Any] = {}
        self.after_commit: list[Callable[[], None]] = []
        self.grouped = False  # committed with others of the event loop (`Database`)
        self._cursor: Any = None

    @property
    def cursor(self) -> Any:
        """A driver cursor on the transaction's connection."""
        if self._cursor is None:
            self._cursor = self.conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        return self._cursor

    def notify(self, topic: str) -> None:
        """Tell the commit listeners about `topic` once this transaction commits."""
        self.topics.add(topic)

    def run(self, prepared: Prepared, **params: Any) -> int:
        """Run an INSERT, UPDATE or DELETE; its row count."""
        self._run(prepared, params)
        return int(self.cursor.rowcount)


Tx = Reader | Writer
"""Anything that runs `Prepared` statements: a read snapshot or a write transaction."""
