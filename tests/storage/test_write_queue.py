"""Writers of one process take turns inside maproom, in arrival order, without sleeping: none
of them ever waits in SQLite's busy handler."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import text

from maproom.settings import Settings
from maproom.storage import migrate
from maproom.storage.db import Database, FairLock


def test_the_fair_lock_serves_waiters_in_arrival_order() -> None:
    lock = FairLock()
    lock.acquire()
    served: list[int] = []
    queued = threading.Semaphore(0)

    def wait_turn(n: int) -> None:
        queued.release()
        lock.acquire()
        served.append(n)
        lock.release()

    threads = []
    for n in range(20):
        thread = threading.Thread(target=wait_turn, args=(n,))
        thread.start()
        queued.acquire()
        # Wait until thread n is blocked in the lock before starting n + 1.
        while len(lock._waiters) < n + 1:
            time.sleep(0)
        threads.append(thread)
    lock.release()
    for thread in threads:
        thread.join(timeout=5)
    assert served == list(range(20))


def test_concurrent_sqlite_writers_never_meet_the_busy_handler(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, data_dir=tmp_path)  # type: ignore[call-arg]
    db = Database(settings.resolved_database_url)
    try:
        migrate.upgrade(db)
        with db.schema_change() as conn:
            conn.execute(text("CREATE TABLE counter (n INTEGER)"))
            conn.execute(text("INSERT INTO counter VALUES (0)"))

        def bump(_: int) -> None:
            with db.write() as tx:
                # A busy timeout of zero: a writer that found the lock taken would fail at once.
                tx.conn.exec_driver_sql("PRAGMA busy_timeout = 0")
                tx.conn.exec_driver_sql("UPDATE counter SET n = n + 1")

        with ThreadPoolExecutor(max_workers=32) as pool:
            list(pool.map(bump, range(400)))
        with db.schema_change() as conn:
            assert conn.execute(text("SELECT n FROM counter")).scalar() == 400
    finally:
        db.dispose()
