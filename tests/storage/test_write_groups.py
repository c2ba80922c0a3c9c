"""The event loop's writes on SQLite commit in groups (docs/performance.md, "Writes"): each
write is all or nothing on its own, a request answers only once its write is durable, and what
listens for commits hears of a write only after it."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import column, select, table, text

from maproom.settings import Settings
from maproom.storage import migrate
from maproom.storage.db import Database, Prepared, Writer

pytestmark = pytest.mark.anyio
ROWS = Prepared(select(column("n")).select_from(table("numbers")).order_by(column("n")))


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    settings = Settings(_env_file=None, data_dir=tmp_path)  # type: ignore[call-arg]
    database = Database(settings.resolved_database_url)
    migrate.upgrade(database)
    with database.schema_change() as conn:
        conn.execute(text("CREATE TABLE numbers (n INTEGER PRIMARY KEY)"))
    try:
        yield database
    finally:
        database.dispose()


def committed(db: Database) -> list[int]:
    """The numbers another connection sees: only what was committed."""
    path = db.url.split("///", 1)[1]
    with sqlite3.connect(path) as conn:
        return [n for (n,) in conn.execute("SELECT n FROM numbers ORDER BY n")]


def insert(db: Database, n: int) -> int:
    with db.write() as tx:
        tx.conn.exec_driver_sql(f"INSERT INTO numbers VALUES ({n})")
        tx.notify(f"number:{n}")
        if n % 5 == 0:
            raise ValueError(f"{n} is refused")  # after its row was written: rolled back
    return n


async def test_writes_of_one_round_commit_together_each_all_or_nothing(db: Database) -> None:
    heard: list[frozenset[str]] = []
    seen_at_commit: list[list[int]] = []

    def listener(topics: frozenset[str]) -> None:
        heard.append(topics)
        seen_at_commit.append(committed(db))

    db.commit_listeners.append(listener)
    results = await asyncio.gather(
        *(db.run(insert, db, n) for n in range(1, 13)), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, ValueError)]
    assert [str(r) for r in refused] == ["5 is refused", "10 is refused"]
    kept = [n for n in range(1, 13) if n % 5]
    assert committed(db) == kept
    assert sorted(next(iter(t)) for t in heard) == sorted(f"number:{n}" for n in kept)
    assert all(seen == kept for seen in seen_at_commit)  # heard of only once committed


async def test_a_request_answers_only_once_its_write_is_committed(db: Database) -> None:
    async def write_then_look() -> list[int]:
        await db.run(insert, db, 1)
        return committed(db)

    other = asyncio.create_task(db.run(insert, db, 2))
    assert await write_then_look() == [1, 2]
    await other


async def test_a_read_after_its_own_write_sees_it(db: Database) -> None:
    def write_then_read() -> list[int]:
        insert(db, 3)
        with db.reader() as tx:
            return [row.n for row in tx.all(ROWS)]

    assert await db.run(write_then_read) == [3]


async def test_a_write_outside_run_and_a_writer_thread_wait_for_the_group(db: Database) -> None:
    def in_thread() -> None:
        with db.write() as tx:
            tx.conn.exec_driver_sql("INSERT INTO numbers VALUES (100)")

    def loop_write_then_plain_write() -> None:
        insert(db, 1)
        thread = threading.Thread(target=in_thread)
        thread.start()
        queue = db._write_queue
        assert queue is not None
        for _ in range(10_000):  # the thread queues for the lock the open group holds
            if queue._waiters:
                break
            thread.join(timeout=0.001)
        assert queue._waiters, "the writer thread did not wait for the group"
        assert committed(db) == []
        threads.append(thread)

    threads: list[threading.Thread] = []
    await db.run(loop_write_then_plain_write)
    threads[0].join(timeout=10)
    insert(db, 2)  # on the loop, outside `run`: no group is open, so it commits at once
    assert committed(db) == [1, 2, 100]


async def test_a_failed_commit_fails_every_write_of_the_group(db: Database) -> None:
    def check(tx: Writer) -> None:  # a deferred constraint fails only at COMMIT
        tx.conn.exec_driver_sql("PRAGMA defer_foreign_keys = ON")

    with db.schema_change() as conn:
        conn.execute(text("CREATE TABLE child (n INTEGER REFERENCES numbers(n))"))

    def orphan() -> None:
        with db.write() as tx:
            check(tx)
            tx.conn.exec_driver_sql("INSERT INTO child VALUES (42)")

    results = await asyncio.gather(db.run(insert, db, 1), db.run(orphan), return_exceptions=True)
    assert all(isinstance(r, Exception) for r in results), results
    assert committed(db) == []
    assert await db.run(insert, db, 2) == 2  # the next group starts afresh
    assert committed(db) == [2]
